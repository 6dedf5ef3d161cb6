"""Flink's sink not-null enforcer under ERROR (`table.exec.sink.not-null-enforcer`), on the rows
a stage writes: the descriptor's `not_null` names the sink's NOT NULL columns, in column order;
Flink checks each row the sink gets in turn and fails the job on the first NULL in one of them,
naming that column. (Under DROP the plan itself filters those rows.)"""

from __future__ import annotations

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


def columns(descriptor: dict) -> list[str]:
    """The result columns the stage checks (none without a `not_null` section)."""
    return list((descriptor.get("not_null") or {}).get("columns") or ())


def check(result: pa.RecordBatch, checked: list[str]) -> None:
    """Raises SinkNotNullError for the first row holding a NULL in a checked column (the first such
    column of that row, in the sink's column order), as Flink's enforcer meets it."""
    first_row, first_column = None, None
    for name in checked:
        column = result.column(name)
        if column.null_count == 0:
            continue
        row = int(np.argmax(column.is_null().to_numpy(zero_copy_only=False)))
        if first_row is None or row < first_row:
            first_row, first_column = row, name
    if first_row is not None:
        raise SinkNotNullError(first_column, first_row)
