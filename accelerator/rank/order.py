"""Sort keys as stock Flink's generated record comparator orders them, as dense integer codes.

The comparator compares the sort fields in order; per field a NULL sorts before or after every
value by the field's own `nulls_last` flag, whatever its direction, and values compare by their
natural order (numbers, decimals, dates, times, timestamps by instant, booleans false first,
strings by their UTF-8 bytes, unsigned), reversed for a descending field. Arrow's sort orders the
same values the same way, so the rows are sorted once and equal neighbours share a code: rows with
equal codes are ties, which stock keeps in arrival order.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.rank.spec import SortField


def codes(rows: pa.Table, sort: tuple[SortField, ...]) -> np.ndarray:
    """Per row, its sort key's dense code: a lower code sorts first, equal codes tie."""
    n = rows.num_rows
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    columns, keys = [], []
    for i, field in enumerate(sort):
        values = rows.column(field.name).combine_chunks()
        valid = pc.is_valid(values)
        # The NULL flag first: it orders NULLs against values by nulls_last alone.
        columns.append(pc.if_else(valid, 0 if field.nulls_last else 1, 1 if field.nulls_last else 0))
        keys.append((f"n{i}", "ascending"))
        parts = [pc.struct_field(values, [j]) for j in range(values.type.num_fields)] \
            if pa.types.is_struct(values.type) else [values]
        for j, part in enumerate(parts):
            columns.append(part)
            keys.append((f"v{i}_{j}", "ascending" if field.ascending else "descending"))
    table = pa.table(columns, names=[k for k, _ in keys])
    order = pc.sort_indices(table, sort_keys=keys).to_numpy(zero_copy_only=False)
    ordered = table.take(pa.array(order))
    differs = np.zeros(n, dtype=bool)
    for column in ordered.columns:
        column = column.combine_chunks()
        later, earlier = column.slice(1), column.slice(0, n - 1)
        # NULLs compare equal here: their flag column, compared too, tells them from values.
        same = pc.fill_null(pc.equal(later, earlier), True).to_numpy(zero_copy_only=False)
        differs[1:] |= ~same
    out = np.empty(n, dtype=np.int64)
    out[order] = np.cumsum(differs)
    return out
