"""One stage's Substrait plan, run on DataFusion over each decoded batch.

The Python API cannot re-run a physical plan on new in-memory data, so each batch is registered
as the table `decoded` and the plan (decoded from protobuf once per stage) is consumed again:
that costs tens of microseconds on top of DataFusion's own planning (see `python -m
accelerator.plans.bench`).
"""

from __future__ import annotations

import json
from typing import Any

import pyarrow as pa
from datafusion import SessionConfig, SessionContext
from datafusion.substrait import Consumer, Serde
from google.protobuf import json_format
from substrait import plan_pb2

from accelerator.formats import timestamps, types
from accelerator.plans import nested_fields
from accelerator.plans.read_fields import ReadFields, read_fields
from accelerator.plans.udfs import flink_udfs

PROTOCOL = 1
DECODED = "decoded"
VALUE = "value"
#: A rows stage's message index column: the last column of the decoded table and of the output
#: (int32, the index in the input batch of the message each row came from).
MESSAGE = "$message"
MESSAGE_FIELD = pa.field(MESSAGE, pa.int32(), nullable=False)
#: DataFusion's batch size: above the operator's batches (`accelerator.batch.size`, 16384 messages
#: by default), so a plan answers a batch with one.
BATCH_ROWS = 1 << 16


class PlanError(ValueError):
    """The descriptor cannot be run here; the operator must stay on stock Flink."""


class StagePlan:
    """Build once per stage from its descriptor; `execute` once per decoded batch."""

    def __init__(self, descriptor: dict[str, Any] | str):
        if isinstance(descriptor, str):
            descriptor = json.loads(descriptor)
        if descriptor.get("protocol") != PROTOCOL:
            raise PlanError(f"stage descriptor protocol {descriptor.get('protocol')!r}, this sidecar speaks {PROTOCOL}")
        self._open(descriptor["name"], decoded_schema(descriptor), output_schema(descriptor), descriptor["plan"])

    @classmethod
    def of(cls, name: str, decoded: pa.Schema, output: pa.Schema, plan: dict[str, Any]) -> "StagePlan":
        """A plan given by its parts rather than a descriptor's: the table `decoded` it reads, the
        schema `output` of its result, the Substrait plan (protobuf's JSON mapping)."""
        stage_plan = cls.__new__(cls)
        stage_plan._open(name, decoded, output, plan)
        return stage_plan

    def _open(self, name: str, decoded: pa.Schema, output: pa.Schema, plan_json: dict[str, Any]) -> None:
        self.name: str = name
        self.decoded_schema = decoded
        self.output_schema = output
        parsed = json_format.Parse(json.dumps(plan_json), plan_pb2.Plan())
        #: The decoded columns (and ROW fields) the plan reads; None: maybe all.
        self.read_fields: ReadFields | None = read_fields(parsed, self.decoded_schema)
        plan = nested_fields.rewrite(parsed, self.decoded_schema)
        self._plan = Serde.deserialize_bytes(plan.SerializeToString())
        # One partition: with more, DataFusion deals the batch's chunks round-robin to parallel
        # partitions and collect() returns them partition by partition, so rows come back out of
        # order (the Kafka sink would then write them in an order stock Flink never does).
        # One output batch per input batch up to BATCH_ROWS rows: below it, DataFusion's filter cuts
        # its output into batches of its default 8192 rows, which `execute` then copies together.
        self._ctx = SessionContext(SessionConfig().with_target_partitions(1).with_batch_size(BATCH_ROWS))
        for function in flink_udfs():
            self._ctx.register_udf(function)
        # Fail at open time, not on the first batch, if DataFusion cannot take the plan.
        self.execute(pa.RecordBatch.from_pylist([], schema=self.decoded_schema))

    def execute(self, batch: pa.RecordBatch, nested_nulls: bool = False) -> pa.RecordBatch:
        """The plan's result on `batch` (columns as in `decoded_schema`), as one batch of
        `output_schema`; an empty batch gives an empty batch. `nested_nulls`: every field of a
        NULL ROW in `batch` is NULL already (`nested_fields.with_parent_nulls` was applied, or the
        decoder made it so)."""
        if batch.schema != self.decoded_schema:
            batch = batch.cast(self.decoded_schema)
        if not nested_nulls:
            batch = nested_fields.with_parent_nulls(batch)
        self._ctx.register_record_batches(DECODED, [[batch]])
        try:
            frame = self._ctx.create_dataframe_from_logical_plan(Consumer.from_substrait_plan(self._ctx, self._plan))
            result = frame.collect()
        finally:
            self._ctx.deregister_table(DECODED)
        result = [b for b in result if b.num_rows]
        if not result:
            return pa.RecordBatch.from_pylist([], schema=self.output_schema)
        batch = result[0] if len(result) == 1 else pa.Table.from_batches(result).combine_chunks().to_batches()[0]
        columns = [timestamps.zero_parts_under_nulls(c) for c in batch.columns]
        batch = pa.RecordBatch.from_arrays(columns, names=self.output_schema.names)
        return batch if batch.schema == self.output_schema else batch.cast(self.output_schema)


def is_rows_stage(descriptor: dict[str, Any]) -> bool:
    """A rows stage (`"encode": null`) hands its plan's result rows to stock Flink operators."""
    return "encode" in descriptor and descriptor["encode"] is None


def decoded_schema(descriptor: dict[str, Any]) -> pa.Schema:
    """The table the plan reads: the table's physical columns (decoded from the value, and the
    key when it has one), then the input's metadata columns, then, in a rows stage, `MESSAGE`;
    in an encode stage (no `decode`), the input's columns, the rows of stock Flink operators."""
    if descriptor.get("decode") is None:
        return pa.schema([types.to_arrow_field(f["name"], types.parse(f["type"])) for f in descriptor["input"]["fields"]])
    key = descriptor.get("decode_key")
    fields = table_fields(descriptor["decode"], key)
    message_columns = {descriptor["decode"]["column"], key["column"] if key else None}
    for f in descriptor["input"]["fields"]:
        if f["name"] not in message_columns:
            fields.append(types.to_arrow_field(f["name"], types.parse(f["type"])))
    if is_rows_stage(descriptor):
        fields.append(MESSAGE_FIELD)
    return pa.schema(fields)


def output_schema(descriptor: dict[str, Any]) -> pa.Schema:
    """The plan's result: the row the `encode` spec writes, or a rows stage's output fields, each
    in the Arrow layout of its Flink type (`types.to_arrow`, which the shim's column vectors
    read), `MESSAGE` last."""
    if not is_rows_stage(descriptor):
        # Nullable whatever the sink declares: a NULL in a NOT NULL sink column is the not-null
        # enforcer's to drop or fail on (the shim's SinkNotNullColumns, sidecar.sink_checks).
        return pa.schema([f.with_nullable(True) for f in table_fields(descriptor["encode"], descriptor.get("encode_key"))]
                         + [types.to_arrow_field(f["name"], types.parse(f["type"]))
                            for f in written_metadata(descriptor)])
    return _rows_schema(descriptor, descriptor["output"]["fields"], "output")


#: The output fields of a stage that writes messages that hold the message bytes; the others are
#: the Kafka metadata the sink writes (`timestamp`, `headers`, `topic`), handed through from the
#: plan's result column of that name.
MESSAGE_OUTPUT_FIELDS = ("value", "key")


def written_metadata(descriptor: dict[str, Any]) -> list[dict[str, Any]]:
    """The output fields after the message bytes: metadata columns the sink writes."""
    return [f for f in descriptor["output"]["fields"] if f["name"] not in MESSAGE_OUTPUT_FIELDS]


def watermark_plan(descriptor: dict[str, Any], decoded: pa.Schema) -> StagePlan | None:
    """The plan of a rows stage's `watermark` section (None without one), opened over the same
    table `decoded` as the stage's plan: its result is the section's `fields`, each a TIMESTAMP or
    TIMESTAMP_LTZ, then `MESSAGE`."""
    section = descriptor.get("watermark")
    if section is None:
        return None
    name = descriptor.get("name")
    if not is_rows_stage(descriptor):
        raise PlanError(f"stage {name!r}: only a rows stage may have a watermark section")
    fields = section["fields"]
    schema = _rows_schema(descriptor, fields, "watermark")
    if len(fields) < 2:
        raise PlanError(f"stage {name!r}: the watermark section names no column before {MESSAGE!r}")
    for f in fields[:-1]:
        if types.parse(f["type"]).root not in ("TIMESTAMP", types.TIMESTAMP_LTZ):
            raise PlanError(f"stage {name!r}: watermark field {f['name']!r} is {f['type']}, not a TIMESTAMP"
                            f" or TIMESTAMP_LTZ")
    return StagePlan.of(f"{name}/watermark", decoded, schema, section["plan"])


def branch_plans(descriptor: dict[str, Any], decoded: pa.Schema) -> list[StagePlan]:
    """The plans of a rows stage's `branches` (a source several operators read: one more output
    per branch after the stage's own), each opened over the same table `decoded` as the stage's
    plan, its result the branch's `output` fields, `MESSAGE` last."""
    branches = descriptor.get("branches") or []
    name = descriptor.get("name")
    if branches and not is_rows_stage(descriptor):
        raise PlanError(f"stage {name!r}: only a rows stage may have branches")
    return [StagePlan.of(f"{name}/branch-{i}", decoded, _rows_schema(descriptor, b["output"]["fields"], "output"),
                         b["plan"]) for i, b in enumerate(branches, start=1)]


def _rows_schema(descriptor: dict[str, Any], fields: list[dict[str, Any]], section: str) -> pa.Schema:
    """A rows stage's result columns (`output` or `watermark` fields) in the Arrow layout of their
    Flink types, `MESSAGE` last."""
    if not fields or fields[-1]["name"] != MESSAGE:
        raise PlanError(f"stage {descriptor.get('name')!r}: a rows stage's last {section} field must be {MESSAGE!r},"
                        f" got {[f['name'] for f in fields]}")
    return pa.schema([types.to_arrow_field(f["name"], types.parse(f["type"])) for f in fields[:-1]]
                     + [MESSAGE_FIELD])


def table_fields(value: dict[str, Any], key: dict[str, Any] | None) -> list[pa.Field]:
    """The table's physical columns as Arrow fields: the value format's row, or, with a key, the
    key spec's `columns` in order, each typed by the value row when it carries it, else by the key
    row (whose field i is the column `fields[i]`)."""
    value_row = types.parse(value["row_type"])
    if key is None:
        return list(types.to_arrow_schema(value_row))
    typed = {f.name: f.type for f in types.parse(key["row_type"]).fields}
    by_column = {column: typed[name] for column, name in zip(key["fields"], typed)}
    by_column.update({f.name: f.type for f in value_row.fields})
    return [types.to_arrow_field(name, by_column[name]) for name in key["columns"]]
