"""Which columns of the decoded table a stage's Substrait plan reads, down to the fields of ROWs.

A decoder only has to build the columns the plan reads; the others it checks as strictly (a
message Flink fails on must still fail) and hands over as nulls. Flink's Kafka source decodes
every column of the table (it takes no projection), so the check keeps its failures; building
only what is read saves most of the decode of wide rows (the `nexmark` table's person, auction
and bid objects).

The answer is a `ReadFields`: column name -> None (read whole) or the `ReadFields` of its ROW's
fields; a column missing from it is never read. `read_fields` returns None (everything read)
for any plan it does not follow exactly.
"""

from __future__ import annotations

from typing import Union

import pyarrow as pa
from substrait import algebra_pb2, plan_pb2

from accelerator.formats import timestamps
from accelerator.plans import relations

#: name -> None (the whole column or field) or the read fields of its ROW.
ReadFields = dict[str, Union["ReadFields", None]]

#: A path into the decoded table: column index, then ROW field indices.
Path = tuple[int, ...]


class _NotFollowed(Exception):
    """The plan has a shape this pass does not follow; everything counts as read."""


def read_fields(plan: plan_pb2.Plan, decoded: pa.Schema) -> ReadFields | None:
    """The columns of `decoded` (and fields of their ROWs) that `plan` reads, or None when the
    plan is not one this pass follows (read, filter and project relations over `decoded`)."""
    try:
        if len(plan.relations) != 1 or not plan.relations[0].HasField("root"):
            raise _NotFollowed
        paths: set[Path] = set()
        output = relations.output_columns(plan.relations[0].root.input, lambda read: _read(read, len(decoded)),
                                          lambda expression, columns: _expression(expression, columns, paths),
                                          _passed_on)
        paths.update(column for column in output if column is not None)
    except (_NotFollowed, relations.UnfollowedRelation):
        return None
    return _tree(paths, decoded)


def _read(read: algebra_pb2.ReadRel, width: int) -> list[Path | None]:
    """The read relation's columns: the decoded table's, unless it masks or filters them."""
    if read.HasField("projection") or read.HasField("filter") or read.HasField("best_effort_filter") \
            or len(read.base_schema.names) < width:
        raise _NotFollowed
    return [(i,) for i in range(width)]


def _passed_on(expression: algebra_pb2.Expression, columns: list[Path | None]) -> Path | None:
    """The decoded table path a projected plain (possibly nested) column reference passes on;
    None for anything computed."""
    return _path(expression.selection, columns) if expression.HasField("selection") else None


def _path(reference: algebra_pb2.Expression.FieldReference, columns: list[Path | None]) -> Path | None:
    """The decoded table path `reference` reads (None: a computed column's), through ROW fields
    as long as its segments are struct fields."""
    if not reference.HasField("root_reference") or not reference.HasField("direct_reference") \
            or not reference.direct_reference.HasField("struct_field"):
        raise _NotFollowed
    segment = reference.direct_reference.struct_field
    if segment.field >= len(columns):
        raise _NotFollowed
    path = columns[segment.field]
    if path is None:
        return None
    while segment.HasField("child") and segment.child.HasField("struct_field"):
        segment = segment.child.struct_field
        path = path + (segment.field,)
    return path


def _expression(message, columns: list[Path | None], paths: set[Path]) -> None:
    """Adds every decoded table path a reference inside `message` reads."""
    if isinstance(message, algebra_pb2.Expression.FieldReference):
        path = _path(message, columns)
        if path is not None:
            paths.add(path)
        return
    if isinstance(message, algebra_pb2.Rel):
        raise _NotFollowed  # a subquery
    for item in relations.submessages(message):
        _expression(item, columns, paths)


def _tree(paths: set[Path], decoded: pa.Schema) -> ReadFields:
    """The `ReadFields` of `paths` (a path ending inside a read path adds nothing)."""
    tree: ReadFields = {}
    for path in sorted(paths, key=len):
        node, arrow = tree, decoded
        for depth, index in enumerate(path):
            if index >= len(arrow):
                raise ValueError(f"the plan reads field {index} of a row of {len(arrow)} fields")
            field = arrow.field(index) if isinstance(arrow, pa.Schema) else arrow.field(index)
            if depth == len(path) - 1:
                if field.name not in node:
                    node[field.name] = None
                break
            if field.name in node and node[field.name] is None:
                break  # already read whole
            if not pa.types.is_struct(field.type) or field.type == timestamps.ARROW_TYPE:  # a timestamp is read whole
                node[field.name] = None
                break
            node = node.setdefault(field.name, {})
            arrow = field.type
    return tree


def union(a: ReadFields | None, b: ReadFields | None) -> ReadFields | None:
    """What two plans over the same table read together (None: maybe everything)."""
    if a is None or b is None:
        return None
    merged: ReadFields = dict(a)
    for name, fields in b.items():
        if name not in merged:
            merged[name] = fields
        elif merged[name] is not None:
            merged[name] = None if fields is None else union(merged[name], fields)
    return merged
