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
        for column in _rel(plan.relations[0].root.input, len(decoded), paths):
            if column is not None:
                paths.add(column)
    except _NotFollowed:
        return None
    return _tree(paths, decoded)


def _rel(rel: algebra_pb2.Rel, width: int, paths: set[Path]) -> list[Path | None]:
    """`rel`'s output columns: the decoded table path each passes on unchanged, or None for a
    computed one; the paths its expressions read are added to `paths`."""
    kind = rel.WhichOneof("rel_type")
    if kind == "read":
        read = rel.read
        if read.HasField("projection") or read.HasField("filter") or read.HasField("best_effort_filter") \
                or len(read.base_schema.names) < width:
            raise _NotFollowed
        columns: list[Path | None] = [(i,) for i in range(width)]
    elif kind == "filter":
        columns = _rel(rel.filter.input, width, paths)
        _expression(rel.filter.condition, columns, paths)
    elif kind == "project":
        columns = _rel(rel.project.input, width, paths)
        out = list(columns)
        for expression in rel.project.expressions:
            reference = _reference(expression, columns)
            if reference is None:
                _expression(expression, columns, paths)
            out.append(reference if reference else None)
        columns = out
    else:
        raise _NotFollowed
    common = getattr(rel, kind).common
    if common.HasField("emit"):
        columns = [columns[i] for i in common.emit.output_mapping]
    return columns


def _reference(expression: algebra_pb2.Expression, columns: list[Path | None]) -> Path | None | bool:
    """The decoded table path a plain (possibly nested) column reference passes on; False when it
    passes on a computed column; None when the expression is not a plain reference."""
    if not expression.HasField("selection"):
        return None
    path = _path(expression.selection, columns)
    return False if path is None else path


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
    for _, value in message.ListFields():
        items = value if isinstance(value, (list, tuple)) or hasattr(value, "append") else [value]
        for item in items:
            if hasattr(item, "ListFields"):
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
            if not pa.types.is_struct(field.type):
                node[field.name] = None
                break
            node = node.setdefault(field.name, {})
            arrow = field.type
    return tree
