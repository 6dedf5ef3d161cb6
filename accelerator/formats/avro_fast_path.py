"""Whole-batch avro decoding in native code, for the messages it reads exactly as Flink does.

`accelerator._native.decode_avro` (native/src/avro_decode/) reads each message's datum of the
derived schema straight into Arrow column buffers, invalid UTF-8 in strings decoded as Java
decodes it (as `java_utf8`). A message on which anything unusual happens (an error, a decimal
longer than 16 bytes, bytes left over) is only flagged: the exact reader (`avro_values`) decides
what Flink does with it. Rows with a MAP are left to the exact reader.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator import _native
from accelerator.formats import native_arrays
from accelerator.formats.avro_schema import Node
from accelerator.formats.types import TIMESTAMP_LTZ, to_arrow

#: Avro ints by the width Arrow holds them in.
_INTS = {"TINYINT": "int8", "SMALLINT": "int16"}


def _describe(node: Node) -> tuple:
    """The node as the kernel takes it: (kind, nullable, params, children)."""
    kind = node.kind
    if kind == "int":
        kind = _INTS.get(node.type.root, "int32")
    elif node.type.root in ("TIMESTAMP", TIMESTAMP_LTZ):
        kind = "timestamp"
    params = [node.type.precision] if kind == "decimal" else []
    return kind, node.nullable, params, [_describe(c) for c in node.children]


def decode(values: pa.Array, schema: Node) -> tuple[list[pa.Array], np.ndarray]:
    """The columns of the messages read natively (one row each, in order), and per message
    whether it was (False for null messages and those the exact reader must read)."""
    columns, regular = _native.decode_avro(native_arrays.message_buffers(values), _describe(schema))
    regular = np.frombuffer(regular, dtype=np.bool_)
    length = int(regular.sum())
    return [native_arrays.column(to_arrow(c.type), length, col) for c, col in zip(schema.children, columns)], regular

