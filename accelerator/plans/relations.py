"""The relations the shim's stage plans are made of (read, then filters and projections), walked
bottom-up with one value per output column: passes over a plan (`nested_fields`, `read_fields`)
say what a read gives per column, what a projection passes on, and what to do with each
expression, and this walk does the rest (emit mappings included)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from substrait import algebra_pb2

Column = TypeVar("Column")


class UnfollowedRelation(ValueError):
    """A relation other than read, filter and project (`kind`)."""

    def __init__(self, kind: str):
        super().__init__(f"a {kind!r} relation")
        self.kind = kind


def output_columns(rel: algebra_pb2.Rel,
                   read: Callable[[algebra_pb2.ReadRel], list[Column]],
                   visit: Callable[[algebra_pb2.Expression, list[Column]], None],
                   passed_on: Callable[[algebra_pb2.Expression, list[Column]], Column]) -> list[Column]:
    """`rel`'s output columns: `read`'s for the read relation; a projection adds `passed_on` of
    each expression (before `visit` sees it, which may rewrite it). `visit` gets every filter
    condition and projected expression with the columns of its input."""
    kind = rel.WhichOneof("rel_type")
    if kind == "read":
        columns = read(rel.read)
    elif kind == "filter":
        columns = output_columns(rel.filter.input, read, visit, passed_on)
        visit(rel.filter.condition, columns)
    elif kind == "project":
        columns = output_columns(rel.project.input, read, visit, passed_on)
        out = list(columns)
        for expression in rel.project.expressions:
            out.append(passed_on(expression, columns))
            visit(expression, columns)
        columns = out
    else:
        raise UnfollowedRelation(kind)
    common = getattr(rel, kind).common
    if common.HasField("emit"):
        columns = [columns[i] for i in common.emit.output_mapping]
    return columns


def submessages(message) -> Iterator:
    """The messages directly inside a protobuf message (its message fields, each repeated item)."""
    for _, value in message.ListFields():
        for item in (value if hasattr(value, "append") else [value]):
            if hasattr(item, "ListFields"):
                yield item
