"""A rows stage's rows as one input's rows of an accelerated regular join's `update` batch (the
exchange section's `join` part): `$side` (the input), `$order` (the row's `BinaryRowData` bytes, as
the join operator's `RowDataSerializer.toBinaryRow` writes them: RocksDB orders a key's rows by
them and the hashmap backend places them by their hash) and the joined row's fields, this input's
from the rows, the other input's NULL.

A row whose key has a NULL where the join compares with `=` joins nothing; the join operator does
not send it unless stock emits the input's unmatched rows (an outer side, an anti join's left
input), so neither is it sent here (`null_filtered`, the key positions, empty for such an input):
both paths leave the join's state the same.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from accelerator.exchange import key_rows
from accelerator.formats import types

LEFT, RIGHT = 0, 1


class JoinInputError(ValueError):
    """A `join` part of an exchange section this sidecar cannot run."""


@dataclass(frozen=True)
class JoinInput:
    side: int
    #: How many of the joined row's fields are the left input's.
    left_arity: int
    #: The input row's fields in order (name in the rows stage's output, Flink type): `$order`'s fields.
    row: tuple[tuple[str, types.DataType], ...]
    #: Positions among the exchange's keys whose NULL keeps the row from the join.
    null_filtered: tuple[int, ...]

    @classmethod
    def parse(cls, stage: str, section: dict, joined_fields: int) -> "JoinInput":
        try:
            side, left_arity = int(section["side"]), int(section["left_arity"])
            row = tuple((f["name"], types.parse(f["type"])) for f in section["row"])
            null_filtered = tuple(int(i) for i in section.get("null_filtered", []))
        except (KeyError, TypeError, ValueError) as e:
            raise JoinInputError(f"stage {stage!r}: the exchange's join section {section!r} is incomplete: {e!r}") from e
        if side not in (LEFT, RIGHT):
            raise JoinInputError(f"stage {stage!r}: the exchange's join side is {side}, not {LEFT} or {RIGHT}")
        arity = left_arity if side == LEFT else joined_fields - left_arity
        if len(row) != arity:
            raise JoinInputError(f"stage {stage!r}: the join's {'left' if side == LEFT else 'right'} input has"
                                 f" {arity} fields, the rows {len(row)}")
        refused = [t.serializable() for _, t in row if not key_rows.supported(t)]
        if refused:
            raise JoinInputError(f"stage {stage!r}: no binary rows for fields of type {refused}")
        return cls(side, left_arity, row, null_filtered)

    def joins(self, keys: list[pa.Array]) -> np.ndarray | None:
        """Which rows the join takes (None: all), by the NULLs of their key columns `keys`."""
        if not self.null_filtered:
            return None
        out = np.ones(len(keys[0]), dtype=bool)
        for position in self.null_filtered:
            column = keys[position]
            if column.null_count:
                out &= column.is_valid().to_numpy(zero_copy_only=False)
        return None if out.all() else out

    def columns(self, rows: pa.RecordBatch, fields: list[pa.Field]) -> list[pa.Array]:
        """The update columns after `$key` and `$key_group` (`fields`: `$side`, `$order`, the joined row's)."""
        n = rows.num_rows
        own = [rows.column(name) for name, _ in self.row]
        order = key_rows.binary_key_rows(own, [t for _, t in self.row]).cast(fields[1].type)
        joined = fields[2:]
        first = 0 if self.side == LEFT else self.left_arity
        values = [pa.nulls(n, f.type) for f in joined]
        for i, column in enumerate(own):
            values[first + i] = column.cast(joined[first + i].type) if column.type != joined[first + i].type \
                else column
        return [pa.array(np.full(n, self.side, dtype=np.int8), fields[0].type), order] + values
