"""The Avro schema Flink's `avro` format derives from a row type, as a tree our codecs walk.

Mirrors flink-avro 2.2.1's AvroSchemaConverter.convertToSchema: nullable types become the union
[null, T] (branch 0 null, branch 1 the value), TINYINT/SMALLINT/INT/DATE/TIME(<=3) are Avro
`int`, BIGINT and timestamps `long`, DECIMAL `bytes` holding the unscaled two's-complement value,
ROW a record, ARRAY an array, MAP (string keys only) a map. Whatever Flink refuses to derive
(TIMESTAMP(>3) under the legacy timestamp mapping, TIMESTAMP WITH LOCAL TIME ZONE under it, TIME
with precision > 3, MULTISET, ...) raises `Unsupported` with the reason. Inside ARRAY and MAP
Flink derives the element schema with the legacy mapping whatever the option says (it calls the
overload without the flag), so that is what happens here too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from accelerator.formats.types import TIMESTAMP_LTZ, DataType

#: The name Flink gives the top-level record; nested records append "_<field name>".
RECORD_NAME = "org.apache.flink.avro.generated.record"
_INT = ("TINYINT", "SMALLINT", "INT", "DATE", "TIME")
_SIMPLE = {"BOOLEAN": "boolean", "BIGINT": "long", "FLOAT": "float", "DOUBLE": "double",
           "CHAR": "string", "VARCHAR": "string", "BINARY": "bytes", "VARBINARY": "bytes"}
#: Avro names the accelerator accepts: Avro itself also takes non-ASCII letters, we leave those to Flink.
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class Unsupported(ValueError):
    """Flink derives no schema for this type, or the accelerator does not reproduce it."""


@dataclass(frozen=True)
class Node:
    """One value position in the schema: its Flink type, Avro kind and what is nested in it.

    `kind` is the Avro type of the value branch: boolean, int, long, float, double, string,
    bytes, decimal (bytes), record, array or map. `nullable` means the value is written as the
    union [null, kind]. flink-avro 2.2.1 writes and reads every timestamp as a `long` of epoch
    milliseconds, whatever its precision and the schema's logical type (a TIMESTAMP(6) is
    declared local-timestamp-micros but holds millis). `local_time` marks a TIMESTAMP written
    with the legacy mapping off (also inside an ARRAY or MAP, whose schema is still the legacy
    one): Flink writes it through TimestampData.toLocalDateTime, whose day is a Java int.
    """

    type: DataType
    kind: str
    nullable: bool
    children: tuple[Node, ...] = ()
    names: tuple[str, ...] = ()
    local_time: bool = False


def derive(row_type: DataType, legacy_timestamp_mapping: bool = True) -> Node:
    """The schema tree of the NOT NULL top-level record Flink's Kafka connector hands the format."""
    if row_type.root != "ROW":
        raise Unsupported(f"the avro format needs a ROW type, got {row_type.serializable()}")
    top = DataType("ROW", False, fields=row_type.fields)
    records: set[str] = set()
    return _node(top, RECORD_NAME, legacy_timestamp_mapping, "", records, not legacy_timestamp_mapping)


def _node(t: DataType, record_name: str, legacy: bool, path: str, records: set[str], local_time: bool) -> Node:
    """`legacy` is the mapping the schema is derived with, `local_time` the option's opposite
    (Flink's converters keep the option inside ARRAY and MAP, its schema does not)."""
    where = path or "the row"
    root = t.root
    if root in _SIMPLE:
        return Node(t, _SIMPLE[root], t.nullable)
    if root in _INT:
        if root == "TIME" and t.precision > 3:
            raise Unsupported(f"{where}: Flink's avro format has no schema for TIME({t.precision})"
                              f" (precision above 3)")
        return Node(t, "int", t.nullable)
    if root == "DECIMAL":
        return Node(t, "decimal", t.nullable)
    if root == "TIMESTAMP":
        if t.precision > (3 if legacy else 6):
            raise Unsupported(f"{where}: Flink's avro format has no schema for TIMESTAMP({t.precision})"
                              + (" with 'avro.timestamp_mapping.legacy' = 'true' (or inside an ARRAY or MAP)"
                                 if legacy else ""))
        return Node(t, "long", t.nullable, local_time=local_time)
    if root == TIMESTAMP_LTZ:
        if legacy:
            raise Unsupported(f"{where}: Flink's avro format has no schema for TIMESTAMP WITH LOCAL TIME ZONE"
                              f" with 'avro.timestamp_mapping.legacy' = 'true' (or inside an ARRAY or MAP)")
        if t.precision > 6:
            raise Unsupported(f"{where}: Flink's avro format has no schema for "
                              f"TIMESTAMP({t.precision}) WITH LOCAL TIME ZONE")
        return Node(t, "long", t.nullable)
    if root == "ROW":
        if record_name in records:
            raise Unsupported(f"{where}: two nested rows would get the same Avro record name {record_name!r}")
        records.add(record_name)
        children, names = [], []
        for f in t.fields:
            if not _NAME.match(f.name):
                raise Unsupported(f"{where}: field name {f.name!r} is not an Avro name the accelerator"
                                  f" accepts ([A-Za-z_][A-Za-z0-9_]*)")
            child_path = f"{path}.{f.name}" if path else f.name
            children.append(_node(f.type, f"{record_name}_{f.name}", legacy, child_path, records, local_time))
            names.append(f.name)
        return Node(t, "record", t.nullable, tuple(children), tuple(names))
    if root == "ARRAY":
        # Flink derives the element with the legacy mapping and the same record name.
        element = _node(t.children[0], record_name, True, f"{path}[]", records, local_time)
        return Node(t, "array", t.nullable, (element,))
    if root == "MAP":
        key, value = t.children
        if key.root not in ("CHAR", "VARCHAR"):
            raise Unsupported(f"{where}: Flink's avro format only has string map keys")
        return Node(t, "map", t.nullable, (_node(value, record_name, True, f"{path}{{}}", records, local_time),))
    raise Unsupported(f"{where}: type {t.serializable()} is not reproduced exactly by the accelerated avro format")
