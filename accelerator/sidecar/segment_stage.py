"""The stage a planner-exported descriptor runs: decode the message values (and keys), run the
segment's Substrait plan, encode the result. Decode and encode each use their spec's format, any
of `FORMATS` in any combination. A rows stage (`"encode": null`) returns the plan's result rows
instead, for stock Flink operators, each with the index of the message it came from; with a
`watermark` section it also returns each message's timestamps for the operator's watermarks
(`marks`). A rows stage over a source several operators read has `branches`: the messages are
decoded once and each branch's plan runs over them, one more output each.

Descriptors written by the shim carry no "kind"; they run as this stage (kind "segment"). The
input batch has the `value` column (message bytes), the `key` column when the descriptor has a
`decode_key` spec, and the metadata columns the descriptor names; the output batch has one binary
`value` column, one message per result row, in order (a null value is a tombstone), and a `key`
column when it has an `encode_key` spec (`kafka_rows` says how keys and values make table rows).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from types import ModuleType

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.exchange.split import SECTION as EXCHANGE_SECTION, Exchange
from accelerator.formats import FormatError, native_arrays, timestamps, types
from accelerator.plans import nested_fields, read_fields, udfs
from accelerator.plans.stage import MESSAGE, MESSAGE_FIELD, StagePlan, branch_plans, is_rows_stage, watermark_plan, written_metadata
from accelerator.sidecar import kafka_rows
from accelerator.sidecar.sink_checks import SinkChecks
from accelerator.sidecar.stages import DescriptorError, register
from accelerator.windowagg import local_phase

KIND = "segment"
OUTPUT_SCHEMA = pa.schema([pa.field("value", pa.binary())])
#: With message keys: the value bytes, then the key bytes (the raw sink's row).
KEYED_OUTPUT_SCHEMA = pa.schema([pa.field("value", pa.binary()), pa.field("key", pa.binary())])
#: Schema metadata of each answer: how many of the batch's messages were dropped because a format's
#: 'ignore-parse-errors' skipped them (the operator counts them in a metric; Flink's formats count
#: nothing).
SKIPPED_METADATA = b"accelerator.skipped"
#: Schema metadata of each answer: how many of the batch's values the decoder's fast path left to
#: its exact path (only the json decoder tells; the operator counts them in a metric).
EXACT_PATH_METADATA = b"accelerator.exact-path"

#: Formats whose decoders read text as Jackson does, where a message can hold a lone UTF-16
#: surrogate (a \uD800 escape, or encoded surrogate bytes), which Flink stores as '?'.
_SURROGATE_FORMATS = ("json", "csv")
#: Of those, the formats whose decoder refuses a string with a lone surrogate when told to
#: (`keep_lone_surrogates=False`).
_SURROGATE_REFUSING = ("json",)
#: Sink formats whose Flink serializer writes the decoded Java string, a lone surrogate included
#: (json writes it as an escape), where the sidecar holds the '?' Flink stores.
_JAVA_STRING_SINKS = ("json", "csv")
#: Sidecar UDFs whose result differs from Flink's when a string held such a surrogate (`udfs.BATCH`).
_SURROGATE_SENSITIVE = ("flink_regexp_extract",)

#: decode(values) -> DecodeResult (rows, which message each came from, how many were skipped)
Decode = Callable[[pa.Array], object]
#: encode(result batch) -> one message value per row
Encode = Callable[[pa.RecordBatch], pa.Array]


@dataclass(frozen=True)
class Format:
    """One message format the sidecar runs: its module (with `supported` and `parse_options`) and
    how to make a decoder and an encoder for a row type and parsed options. A decoder is made
    once per stage, as Flink makes one deserializer per source subtask (it may carry state)."""

    load: Callable[[], ModuleType]
    decoder: Callable[[object, types.DataType, object], Decode]
    encoder: Callable[[object, types.DataType, object], Encode]
    #: Whether the sidecar asks the module's `supported` before opening a stage (json predates
    #: it: the shim exports every json table, and its decoders check each record instead).
    checked: bool = True


FORMATS: dict[str, Format] = {
    "json": Format(lambda: importlib.import_module("accelerator.formats.json"),
                   lambda m, t, o: m.JsonDecoder(t, o).decode,
                   lambda m, t, o: lambda batch: m.encode(batch, t, o), checked=False),
    "avro": Format(lambda: importlib.import_module("accelerator.formats.avro"),
                   lambda m, t, o: m.AvroDecoder(t, o).decode,
                   lambda m, t, o: lambda batch: m.encode(batch, t, o)),
    "raw": Format(lambda: importlib.import_module("accelerator.formats.raw"),
                  lambda m, t, o: lambda values: m.decode(values, t, o),
                  lambda m, t, o: lambda batch: m.encode(batch, t, o)),
    "csv": Format(lambda: importlib.import_module("accelerator.formats.csv"),
                  lambda m, t, o: lambda values: m.decode(values, t, o),
                  lambda m, t, o: lambda batch: m.encode(batch, t, o)),
    "protobuf": Format(lambda: importlib.import_module("accelerator.formats.protobuf"),
                       lambda m, t, o: m.ProtobufDecoder(t, o).decode,
                       lambda m, t, o: m.Encoder(t, o).encode),
}


def _open(stage: str, spec: dict, direction: str):
    """The format module, row type and parsed options of a spec, or DescriptorError when this
    sidecar cannot reproduce them (the shim keeps such segments stock; this is the backstop)."""
    name = spec.get("format")
    if name not in FORMATS:
        raise DescriptorError(f"stage {stage!r}: {direction[:-1]}ing format {name!r} is not supported by this sidecar"
                              f" (only {sorted(FORMATS)})")
    entry = FORMATS[name]
    try:
        module = entry.load()
    except ImportError as e:
        raise DescriptorError(f"stage {stage!r}: the accelerator's {name} format cannot be loaded ({e});"
                              f" install the flink-accelerator package with its dependencies") from None
    row_type = types.parse(spec["row_type"])
    options = spec.get("options") or {}
    if entry.checked:
        reason = module.supported(row_type, options, direction)
        if reason:
            raise DescriptorError(f"stage {stage!r}: {name} {direction}: {reason}")
    return entry, module, row_type, module.parse_options(options)


def _decoder(stage: str, spec: dict, keep_lone_surrogates: bool = True, read_fields: dict | None = None) -> Decode:
    """`keep_lone_surrogates=False`: a message whose string holds a lone UTF-16 surrogate fails the
    batch (json), for stages whose output would differ from Flink's on it. `read_fields`: the
    fields the plan reads (None: all), for formats that decode only those (json)."""
    entry, module, row_type, options = _open(stage, spec, "decode")
    if not keep_lone_surrogates and hasattr(options, "keep_lone_surrogates"):
        options = replace(options, keep_lone_surrogates=False)
    if read_fields is not None and hasattr(options, "read_fields"):
        options = replace(options, read_fields=read_fields)
    return entry.decoder(module, row_type, options)


def _encoder(stage: str, spec: dict) -> Encode:
    entry, module, row_type, options = _open(stage, spec, "encode")
    return entry.encoder(module, row_type, options)


class MessageEncoder:
    """The messages a stage writes for its result rows: one value (and key) per row, in the sink
    formats of the descriptor's `encode` (and `encode_key`) spec, as the output batch."""

    def __init__(self, stage: str, descriptor: dict):
        encode, encode_key = descriptor["encode"], descriptor.get("encode_key")
        self._encode_value = _encoder(stage, encode)
        self._value_fields = [f.name for f in types.parse(encode["row_type"]).fields]
        self._encode_key = _encoder(stage, encode_key) if encode_key else None
        if encode_key:
            self._key_fields = list(encode_key["fields"])
            self._key_names = [f.name for f in types.parse(encode_key["row_type"]).fields]
        #: What Flink's sink fails on: a NULL in a NOT NULL column (ERROR), then a NULL rowtime.
        self._checks = SinkChecks.of(descriptor)
        metadata = written_metadata(descriptor)
        #: The Kafka metadata the sink writes, handed through from the plan's result unchanged.
        self._metadata = [f["name"] for f in metadata]
        self.schema = pa.schema(list(KEYED_OUTPUT_SCHEMA if encode_key else OUTPUT_SCHEMA)
                                + [types.to_arrow_field(f["name"], types.parse(f["type"])) for f in metadata])

    def encode(self, result: pa.RecordBatch) -> pa.RecordBatch:
        if result.num_rows == 0:
            return pa.RecordBatch.from_pylist([], schema=self.schema)
        self._checks.check(result)
        rows = kafka_rows.project(result, self._value_fields, self._value_fields) if self._metadata else result
        if self._encode_key is None:
            columns = [self._encode_value(rows)]
        else:
            values = self._encode_value(kafka_rows.project(result, self._value_fields, self._value_fields))
            columns = [values, self._encode_key(kafka_rows.project(result, self._key_fields, self._key_names))]
        columns += [result.column(name) for name in self._metadata]
        return pa.RecordBatch.from_arrays(columns, schema=self.schema)


class SegmentStage:
    """Runs one accelerated segment (Kafka value (and key) formats -> Calc* -> Kafka value (and
    key) formats) on each batch."""

    def __init__(self, descriptor: dict):
        self.name = descriptor.get("name")
        decode, encode = descriptor.get("decode"), descriptor.get("encode")
        self._rows = is_rows_stage(descriptor)
        if not decode or not (encode or self._rows):
            raise DescriptorError(f"stage {self.name!r} has no decode or encode spec; this sidecar only runs"
                                  f" segments that read message bytes and write message bytes or rows")
        decode_key, encode_key = descriptor.get("decode_key"), descriptor.get("encode_key")
        self._input_names = [f["name"] for f in descriptor["input"]["fields"]]
        self._value_column = decode.get("column", "value")
        self._key_column = decode_key.get("column", "key") if decode_key else None
        for column in (self._value_column, self._key_column):
            if column is not None and column not in self._input_names:
                raise DescriptorError(f"stage {self.name!r}: decode column {column!r} is not an input"
                                      f" field {self._input_names}")
        self._metadata = [n for n in self._input_names if n not in (self._value_column, self._key_column)]
        # The stock operators after a rows stage may hand the Java string to such a sink as well.
        keep = not self._rows and not any(spec and spec.get("format") in _JAVA_STRING_SINKS
                                          for spec in (encode, descriptor.get("encode_key")))
        self._plan = StagePlan(descriptor)
        #: A rows stage's other outputs' plans, over the same decoded table (empty: one output).
        self._branches = branch_plans(descriptor, self._plan.decoded_schema)
        #: A rows stage's watermark plan, over the same decoded table (None: no watermark section).
        self._watermarks = watermark_plan(descriptor, self._plan.decoded_schema)
        read = self._plan.read_fields
        for plan in self._branches + ([self._watermarks] if self._watermarks else []):
            read = read_fields.union(read, plan.read_fields)
        self._decode_value = _decoder(self.name, decode, keep, read)
        value_options = decode.get("options") or {}
        self._value_ignores_errors = value_options.get(f"{decode['format']}.ignore-parse-errors", "false").lower() == "true"
        self._decode_key = _decoder(self.name, decode_key, keep) if decode_key else None
        #: The running Flink drops a record whose key its json key format could not read (1.20's
        #: format hands its Kafka source no key row), instead of failing on a null key row.
        self._unreadable_key_drops_record = bool(decode_key and decode_key.get("unreadable_key_drops_record"))
        self._key_layout = kafka_rows.KeyLayout.of(decode_key) if decode_key else None
        plans = ([descriptor["plan"]] + [b["plan"] for b in descriptor.get("branches") or []]
                 + ([descriptor["watermark"]["plan"]] if self._watermarks else []))
        functions = {e.get("extensionFunction", {}).get("name") for plan in plans for e in plan.get("extensions", [])}
        # Only where a decoded string may still hold a lone surrogate: not behind a decoder that refuses them.
        self._surrogate_columns = [column for column, spec in ((self._value_column, decode), (self._key_column, decode_key))
                                   if spec and spec.get("format") in _SURROGATE_FORMATS
                                   and (keep or spec.get("format") not in _SURROGATE_REFUSING)] \
            if functions & set(_SURROGATE_SENSITIVE) else []
        self._encoder = None if self._rows else MessageEncoder(self.name, descriptor)
        self._output_schema = self._plan.output_schema if self._rows else self._encoder.schema
        #: Per output of a rows stage (the stage's own, then each branch's), the local window
        #: aggregate folded into it (None: its rows go out).
        self._local_phases = [local_phase.of(self.name, descriptor.get(local_phase.SECTION), self._plan.output_schema)
                              if self._rows else None]
        self._local_phases += [local_phase.of(self.name, spec.get(local_phase.SECTION), plan.output_schema)
                               for spec, plan in zip(descriptor.get("branches") or [], self._branches)]
        #: Per output of a rows stage, the batch exchange it feeds (None: its rows go out one by
        #: one): its rows go out split by the keyed operator's subtask.
        sections = [descriptor.get(EXCHANGE_SECTION)] + [spec.get(EXCHANGE_SECTION)
                                                          for spec in descriptor.get("branches") or []]
        self._exchanges = [Exchange.parse(self.name if b == 0 else f"{self.name}/branch-{b}", section)
                           if self._rows and section else None for b, section in enumerate(sections)]
        plans = [self._plan] + self._branches
        #: Per output, the schema of its answer: the rows, the partials, or either split for the exchange.
        self._answer_schemas = [exchange.schema(MESSAGE_FIELD) if exchange else local.schema if local
                                else plan.output_schema
                                for plan, exchange, local in zip(plans, self._exchanges, self._local_phases)]
        if self._rows:
            self._output_schema = self._answer_schemas[0]
        #: With a watermark section: one int64 column of epoch milliseconds per watermark plan column.
        self._marks_schema = pa.schema([pa.field(f.name, pa.int64()) for f in self._watermarks.output_schema
                                        if f.name != MESSAGE]) if self._watermarks else None

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch | tuple[pa.RecordBatch, ...]:
        """The answer for one batch; a rows stage with branches answers each branch's rows after
        its own, and with a watermark section the `marks` last."""
        if batch.schema.names != self._input_names:
            raise ValueError(f"stage {self.name!r}: batch columns {batch.schema.names} are not the stage's"
                             f" input fields {self._input_names}")
        if batch.num_rows == 0:
            answers = [pa.RecordBatch.from_pylist([], schema=self._output_schema)]
            answers += [pa.RecordBatch.from_pylist([], schema=schema) for schema in self._answer_schemas[1:]]
        else:
            decoded, skipped, exact_path = self._decode(batch)
            table_in = self._table(batch, decoded)
            udfs.BATCH.lone_surrogates_possible = any(_may_hold_lone_surrogates(batch.column(c))
                                                      for c in self._surrogate_columns)
            answers = [self._run(table_in)] + [p.execute(table_in, nested_nulls=True) for p in self._branches]
            if self._rows:
                answers = [self._output(b, rows, batch.num_rows) for b, rows in enumerate(answers)]
            counts = {key: str(n).encode() for key, n in ((SKIPPED_METADATA, skipped),
                                                          (EXACT_PATH_METADATA, exact_path)) if n}
            if counts:
                answers[0] = answers[0].replace_schema_metadata(counts)
        if self._watermarks:
            answers.append(self._marks(table_in, batch.num_rows) if batch.num_rows
                           else pa.RecordBatch.from_pylist([], schema=self._marks_schema))
        return answers[0] if len(answers) == 1 else tuple(answers)

    def _table(self, batch: pa.RecordBatch, decoded) -> pa.RecordBatch:
        """The table the plans read: the decoded rows with the batch's metadata columns (and, in a
        rows stage, `MESSAGE`), every field of a NULL ROW NULL (done here once for all the plans
        over it, unless the decoder's rows are so already)."""
        columns = list(decoded.batch.columns)
        names = list(decoded.batch.schema.names)
        for name in self._metadata:
            column = batch.column(name)
            columns.append(column if decoded.kept is None else column.take(decoded.kept))
            names.append(name)
        if self._rows:
            columns.append(pa.array(np.arange(batch.num_rows, dtype=np.int32)) if decoded.kept is None
                           else decoded.kept.cast(pa.int32()))
            names.append(MESSAGE)
        table = pa.RecordBatch.from_arrays(columns, names=names)
        return table if getattr(decoded, "nested_nulls", False) else nested_fields.with_parent_nulls(table)

    def _run(self, table_in: pa.RecordBatch) -> pa.RecordBatch:
        """The encoded messages of the decoded rows, or a rows stage's result rows."""
        result = self._plan.execute(table_in, nested_nulls=True)
        return result if self._rows else self._encoder.encode(result)

    def _output(self, output: int, rows: pa.RecordBatch, messages: int) -> pa.RecordBatch:
        """What output `output` of a rows stage answers for its result `rows` of a batch of
        `messages` messages: the rows, or the partials of the local window aggregate folded into
        it, split for the batch exchange it feeds if it feeds one (the partials cross the
        exchange as they cross stock's)."""
        exchange, local = self._exchanges[output], self._local_phases[output]
        answer = local.partials(rows, messages) if local else rows
        return exchange.split(answer, MESSAGE) if exchange else answer

    def _marks(self, table_in: pa.RecordBatch, messages: int) -> pa.RecordBatch:
        """One row per message of the batch: each watermark plan column's value for the message's
        last row, in epoch milliseconds (floored, as Flink's TimestampData.getMillisecond()), null
        when the value is null or the message made no row."""
        result = self._watermarks.execute(table_in, nested_nulls=True)
        message = result.column(MESSAGE).to_numpy()
        rows = np.arange(len(message))
        if len(message) > 1 and not np.all(message[1:] >= message[:-1]):
            rows = np.argsort(message, kind="stable")  # row order kept within each message
            message = message[rows]
        # The last row of each run of one message (`message` is now in order).
        last = np.ones(len(message), dtype=bool)
        last[:-1] = message[1:] != message[:-1]
        rows, message = rows[last], message[last]
        columns = []
        for field in self._marks_schema:
            values = result.column(field.name).take(rows)
            millis = np.zeros(messages, dtype=np.int64)
            valid = np.zeros(messages, dtype=bool)
            millis[message] = pc.fill_null(timestamps.millis(values), 0).to_numpy(zero_copy_only=False)
            valid[message] = values.is_valid().to_numpy(zero_copy_only=False)
            columns.append(pa.array(millis, pa.int64(), mask=~valid))
        return pa.RecordBatch.from_arrays(columns, schema=self._marks_schema)

    def _decode(self, batch: pa.RecordBatch):
        """The table rows of the batch's messages (value rows, joined with key rows when the table
        reads keys; the key is decoded first, as Flink does, so a bad key fails before its value),
        how many values and keys 'ignore-parse-errors' skipped, and how many values the decoder's
        exact path read (0 from decoders that do not tell)."""
        keys = self._decode_key(batch.column(self._key_column)) if self._decode_key else None
        values = self._decode_value(batch.column(self._value_column))
        if keys is not None and keys.null_rows and not (self._value_ignores_errors or self._unreadable_key_drops_record):
            # Flink 2's key format emits a null key row for a key it cannot read; joining it to the
            # value row throws inside Flink's value deserializer, which swallows it only when the
            # value format itself ignores parse errors (the record is then dropped, as here, and
            # as 1.20 always drops it).
            raise FormatError(keys.first_null_row, "Flink's key format cannot read this record's key and, under"
                                                   " 'ignore-parse-errors', hands Flink's Kafka source a null key row,"
                                                   " on which the job fails with a NullPointerException",
                              "fix the key, or also set the value format's 'ignore-parse-errors' = 'true' to"
                              " drop such records")
        exact_path = getattr(values, "exact_path", 0)
        if keys is None:
            return values, values.skipped, exact_path
        return (kafka_rows.join(kafka_rows.Rows(values.batch, values.kept), kafka_rows.Rows(keys.batch, keys.kept),
                                batch.num_rows, self._key_layout), values.skipped + keys.skipped, exact_path)


register(KIND, SegmentStage)


def _may_hold_lone_surrogates(messages: pa.Array) -> bool:
    """False when every message is ASCII without a \\u escape: then no decoded string holds a '?'
    that stands for a lone surrogate. Scans the bytes once (memchr-fast, unlike a decode)."""
    if len(messages) == 0:
        return False
    if pc.any(pc.match_substring(messages, "\\u")).as_py():
        return True
    _, offsets, data, offset, length, wide = native_arrays.message_buffers(messages)
    start, end = np.frombuffer(offsets, dtype=np.int64 if wide else np.int32)[[offset, offset + length]]
    return bool(data is not None and end > start
                and np.frombuffer(data, dtype=np.uint8, count=end - start, offset=start).max() >= 0x80)
