"""Values in the oracle's value model -> one Arrow column of our types (see types.to_arrow).

Shared by the decoders' exact paths, which produce Python values one record at a time.
"""

from __future__ import annotations

import pyarrow as pa

from accelerator.formats import timestamps
from accelerator.formats.types import TIMESTAMP_LTZ, DataType, to_arrow_field


def column(values: list, t: DataType) -> pa.Array:
    """Value-model values of type `t` -> an Arrow array of to_arrow(t)."""
    arrow = to_arrow_field("", t).type
    root = t.root
    if root in ("TIMESTAMP", TIMESTAMP_LTZ):
        return timestamps.from_epoch_nanos(values)
    if root in ("DATE", "TIME"):
        return pa.array(values, pa.int32()).cast(arrow)
    if root == "ARRAY":
        flat, offsets, mask = [], [0], []
        for v in values:
            mask.append(v is None)
            if v is not None:
                flat.extend(v)
            offsets.append(len(flat))
        elements = column(flat, t.children[0])
        return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), elements, type=arrow,
                                        mask=pa.array(mask, pa.bool_()))
    if root == "MAP":
        flat_keys, flat_items, offsets, mask = [], [], [0], []
        for v in values:
            mask.append(v is None)
            if v is not None:
                flat_keys.extend(k for k, _ in v)
                flat_items.extend(x for _, x in v)
            offsets.append(len(flat_keys))
        return pa.MapArray.from_arrays(pa.array(offsets, pa.int32()), column(flat_keys, t.children[0]),
                                       column(flat_items, t.children[1]), type=arrow,
                                       mask=pa.array(mask, pa.bool_()))
    if root == "ROW":
        children = []
        for i, f in enumerate(t.fields):
            children.append(column([None if v is None else v[i] for v in values], f.type))
        return pa.StructArray.from_arrays(children, fields=list(arrow),
                                          mask=pa.array([v is None for v in values], pa.bool_()))
    return pa.array(values, arrow)
