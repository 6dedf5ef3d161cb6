"""What Flink's sink checks in each row it gets, on the rows a stage writes, in the order of its
operators: first the not-null enforcer under ERROR (`table.exec.sink.not-null-enforcer`; the
descriptor's `not_null` names the sink's NOT NULL columns, in column order), which fails the job
naming the row's first NULL one, then the timestamp inserter (`StreamRecordTimestampInserter`;
the descriptor's `rowtime` names the rowtime column it copies into each record's timestamp),
which fails on a NULL rowtime. Both run row by row, so the first row failing either check fails
the job, with the enforcer's error when the row fails both. (Under DROP the plan itself filters
the enforcer's rows.)"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa


class SinkNotNullError(ValueError):
    """A NULL reaches a NOT NULL sink column; stock Flink's not-null enforcer fails the job on it."""

    def __init__(self, column: str, result_row: int):
        super().__init__(f"sink column {column!r} is NOT NULL, but result row {result_row} of this batch (counting"
                         f" only rows the query keeps) holds NULL in it; stock Flink's sink fails the job on this row"
                         f" as well. Set 'table.exec.sink.not-null-enforcer' = 'DROP' to drop such rows instead")
        self.column = column
        self.result_row = result_row


class SinkRowtimeNullError(ValueError):
    """A NULL rowtime reaches the sink; stock Flink's StreamRecordTimestampInserter fails the job on it
    (a NullPointerException)."""

    def __init__(self, column: str, result_row: int):
        super().__init__(f"the rowtime column {column!r} is NULL in result row {result_row} of this batch (counting"
                         f" only rows the query keeps); stock Flink fails the job on this row as well (its sink"
                         f" copies the rowtime into each record's timestamp). Give every event a time, write the"
                         f" column through CAST(... AS TIMESTAMP(3)) so it is no rowtime at the sink, or set"
                         f" 'table.exec.sink.rowtime-inserter' = 'DISABLED'")
        self.column = column
        self.result_row = result_row


@dataclass(frozen=True)
class SinkChecks:
    """The result columns a stage checks: the NOT NULL ones (empty without a `not_null` section) and
    the rowtime (None without a `rowtime` section)."""

    not_null: tuple[str, ...] = ()
    rowtime: str | None = None

    @classmethod
    def of(cls, descriptor: dict) -> SinkChecks:
        return cls(tuple((descriptor.get("not_null") or {}).get("columns") or ()),
                   (descriptor.get("rowtime") or {}).get("column"))

    def check(self, result: pa.RecordBatch) -> None:
        """Raises the error of the first row of `result` Flink's sink fails on, as it meets them."""
        null_row, null_column = None, None
        for name in self.not_null:  # in column order: on a tie the earlier column is the one named
            row = _first_null(result.column(name))
            if row is not None and (null_row is None or row < null_row):
                null_row, null_column = row, name
        rowtime_row = None if self.rowtime is None else _first_null(result.column(self.rowtime))
        if rowtime_row is not None and (null_row is None or rowtime_row < null_row):
            raise SinkRowtimeNullError(self.rowtime, rowtime_row)
        if null_row is not None:
            raise SinkNotNullError(null_column, null_row)


def _first_null(column: pa.Array) -> int | None:
    if column.null_count == 0:
        return None
    return int(np.argmax(column.is_null().to_numpy(zero_copy_only=False)))
