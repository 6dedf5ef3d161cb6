"""Nested ROW field references, rewritten for DataFusion's Substrait consumer.

The shim exports `row.field` as Substrait means it: a struct field reference whose segment has a
child (`$3.auction` is field 3, child field 0). DataFusion 55's consumer refuses such references
("Direct reference StructField with child is not supported"); DataFusion itself reads a struct
field by name with its `get_field(struct, 'name')` function. This pass replaces every nested
reference by those calls, looking each child's name up in the Arrow type of the column it reads:
the table `decoded` for the read relation, and through filters and projections above it.
"""

from __future__ import annotations

import pyarrow as pa
from substrait import algebra_pb2, plan_pb2

from accelerator.formats import timestamps
from accelerator.plans import relations

GET_FIELD = "get_field"
URN = "extension:org.apache.datafusion:functions"


class NestedFieldError(ValueError):
    """A nested reference this pass cannot resolve; the descriptor cannot run here."""


def rewrite(plan: plan_pb2.Plan, decoded: pa.Schema) -> plan_pb2.Plan:
    """`plan` with every nested struct field reference replaced by `get_field` calls; a plan
    without nested references comes back unchanged (the same object)."""
    if not _has_nested(plan):
        return plan
    plan = plan_pb2.Plan.FromString(plan.SerializeToString())
    anchor = _declare_get_field(plan)
    for relation in plan.relations:
        rel = relation.root.input if relation.HasField("root") else relation.rel
        try:
            relations.output_columns(rel, lambda _read: list(decoded),
                                     lambda expression, fields: _expression(expression, fields, anchor), _field_of)
        except relations.UnfollowedRelation as e:
            raise NestedFieldError(f"nested field references above a {e.kind!r} relation are not supported") from None
    return plan


def with_parent_nulls(batch: pa.RecordBatch) -> pa.RecordBatch:
    """`batch` with every ROW column's fields NULL wherever the row itself is NULL.

    Arrow leaves a struct's child values under a NULL parent undefined, and DataFusion's
    get_field returns the child as it is; in Flink, a field of a NULL row is NULL. A TIMESTAMP's
    struct is no ROW: it becomes NULL under a NULL row, its parts stay as they are.
    """
    if not any(_is_row(f.type) for f in batch.schema):
        return batch
    columns = [_struct_with_parent_nulls(c) if _is_row(c.type) else c for c in batch.columns]
    return pa.RecordBatch.from_arrays(columns, schema=batch.schema)


def _is_row(type_: pa.DataType) -> bool:
    return pa.types.is_struct(type_) and type_ != timestamps.ARROW_TYPE


def _struct_with_parent_nulls(array: pa.StructArray) -> pa.StructArray:
    children = [_struct_with_parent_nulls(c) if _is_row(c.type) else c for c in array.flatten()]
    mask = array.is_null() if array.null_count else None
    return pa.StructArray.from_arrays(children, fields=list(array.type), mask=mask)


def _has_nested(message) -> bool:
    if isinstance(message, algebra_pb2.Expression.ReferenceSegment.StructField) and message.HasField("child"):
        return True
    return any(_has_nested(item) for item in relations.submessages(message))


def _declare_get_field(plan: plan_pb2.Plan) -> int:
    urn_anchor = max([u.extension_urn_anchor for u in plan.extension_urns], default=0) + 1
    plan.extension_urns.add(extension_urn_anchor=urn_anchor, urn=URN)
    anchor = max([e.extension_function.function_anchor for e in plan.extensions], default=0) + 1
    declaration = plan.extensions.add()
    declaration.extension_function.extension_urn_reference = urn_anchor
    declaration.extension_function.function_anchor = anchor
    declaration.extension_function.name = GET_FIELD
    return anchor


def _field_of(expression: algebra_pb2.Expression, fields: list[pa.Field | None]) -> pa.Field | None:
    """The Arrow field a plain (possibly nested) column reference reads; None for anything else."""
    if not expression.HasField("selection") or not expression.selection.HasField("root_reference"):
        return None
    segment = expression.selection.direct_reference.struct_field
    field = fields[segment.field]
    while field is not None and segment.HasField("child"):
        segment = segment.child.struct_field
        field = field.type.field(segment.field) if pa.types.is_struct(field.type) else None
    return field


def _expression(message, fields: list[pa.Field | None], anchor: int) -> None:
    """Replaces, inside `message`, each nested reference over `fields` by get_field calls."""
    if isinstance(message, algebra_pb2.Expression) and message.HasField("selection") \
            and message.selection.direct_reference.struct_field.HasField("child"):
        message.CopyFrom(_get_field_chain(message.selection, fields, anchor))
        return
    for item in relations.submessages(message):
        if isinstance(item, algebra_pb2.Rel):
            raise NestedFieldError("nested field references in subqueries are not supported")
        _expression(item, fields, anchor)


def _get_field_chain(selection: algebra_pb2.Expression.FieldReference, fields: list[pa.Field | None],
                     anchor: int) -> algebra_pb2.Expression:
    if not selection.HasField("root_reference"):
        raise NestedFieldError("nested field references on computed values are not supported")
    segment = selection.direct_reference.struct_field
    field = fields[segment.field]
    out = algebra_pb2.Expression()
    out.selection.direct_reference.struct_field.field = segment.field
    out.selection.root_reference.SetInParent()
    while segment.HasField("child"):
        segment = segment.child.struct_field
        if field is None or not pa.types.is_struct(field.type):
            raise NestedFieldError(f"nested field reference into a column of unknown or non-ROW type: {selection}")
        field = field.type.field(segment.field)
        call = algebra_pb2.Expression()
        call.scalar_function.function_reference = anchor
        call.scalar_function.arguments.add().value.CopyFrom(out)
        call.scalar_function.arguments.add().value.literal.string = field.name
        out = call
    return out
