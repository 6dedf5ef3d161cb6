"""The stage a planner-exported descriptor runs: decode the message values, run the segment's
Substrait plan, encode the result. Decode and encode each use their spec's format (json or avro,
in any combination).

Descriptors written by the shim carry no "kind"; they run as this stage (kind "segment"). The
input batch has the `value` column (message bytes) and the metadata columns the descriptor
names; the output batch has one binary `value` column, one message per result row, in order.
"""

from __future__ import annotations

import importlib

import pyarrow as pa

from accelerator.formats import json_encoder, types
from accelerator.formats.json_options import parse_options
from accelerator.plans.stage import StagePlan
from accelerator.sidecar.stages import DescriptorError, register

KIND = "segment"
JSON = "json"
AVRO = "avro"
FORMATS = (JSON, AVRO)
OUTPUT_SCHEMA = pa.schema([pa.field("value", pa.binary())])


def _json_decoder():
    """The json decoder module, or None while this installation has none."""
    try:
        return importlib.import_module("accelerator.formats.json_decoder")
    except ImportError:
        return None


def _avro():
    """The avro format module, or the reason this installation cannot load it (it needs numpy)."""
    try:
        return importlib.import_module("accelerator.formats.avro"), None
    except ImportError as e:
        return None, str(e)


def _avro_spec(stage: str, spec: dict, direction: str):
    """The row type and options of an avro spec, or DescriptorError when the accelerated avro
    format does not reproduce them (the shim keeps such segments stock; this is the backstop)."""
    avro, missing = _avro()
    if avro is None:
        raise DescriptorError(f"stage {stage!r}: the accelerator's avro format cannot be loaded ({missing});"
                              f" install the flink-accelerator package with its dependencies")
    row_type = types.parse(spec["row_type"])
    options = spec.get("options") or {}
    reason = avro.supported(row_type, options, direction)
    if reason:
        raise DescriptorError(f"stage {stage!r}: avro {direction}: {reason}")
    return row_type, avro.parse_options(options)


class SegmentStage:
    """Runs one accelerated segment (Kafka json|avro -> Calc* -> Kafka json|avro) on each batch."""

    def __init__(self, descriptor: dict):
        self.name = descriptor.get("name")
        decode, encode = descriptor.get("decode"), descriptor.get("encode")
        if not decode or not encode:
            raise DescriptorError(f"stage {self.name!r} has no decode or encode spec; this sidecar only runs"
                                  f" segments that read and write message bytes")
        for spec, direction in ((decode, "decoding"), (encode, "encoding")):
            if spec.get("format") not in FORMATS:
                raise DescriptorError(f"stage {self.name!r}: {direction} format {spec.get('format')!r} is not"
                                      f" supported by this sidecar (only {list(FORMATS)})")
        self._decode_format, self._encode_format = decode["format"], encode["format"]
        if self._decode_format == JSON:
            self._decoder = _json_decoder()
            if self._decoder is None:
                raise DescriptorError(f"stage {self.name!r}: this accelerator package has no json decoder"
                                      f" (accelerator.formats.json_decoder); the segment stays on stock Flink")
        self._value_column = decode.get("column", "value")
        self._input_names = [f["name"] for f in descriptor["input"]["fields"]]
        if self._value_column not in self._input_names:
            raise DescriptorError(f"stage {self.name!r}: decode column {self._value_column!r} is not an input"
                                  f" field {self._input_names}")
        self._metadata = [n for n in self._input_names if n != self._value_column]
        if self._decode_format == AVRO:
            # One deserializer per stage, as Flink has one per source subtask (it carries state).
            self._decode_type, avro_options = _avro_spec(self.name, decode, "decode")
            self._avro_decoder = _avro()[0].AvroDecoder(self._decode_type, avro_options)
        else:
            self._decode_type = types.parse(decode["row_type"])
            self._decode_options = parse_options(decode.get("options") or {})
        if self._encode_format == AVRO:
            self._encode_type, self._encode_options = _avro_spec(self.name, encode, "encode")
            self._avro_encode = _avro()[0].encode
        else:
            self._encode_type = types.parse(encode["row_type"])
            self._encode_options = parse_options(encode.get("options") or {})
        self._plan = StagePlan(descriptor)

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        if batch.schema.names != self._input_names:
            raise ValueError(f"stage {self.name!r}: batch columns {batch.schema.names} are not the stage's"
                             f" input fields {self._input_names}")
        if batch.num_rows == 0:
            return pa.RecordBatch.from_pylist([], schema=OUTPUT_SCHEMA)
        values = batch.column(self._value_column)
        if self._decode_format == AVRO:
            decoded = self._avro_decoder.decode(values)
        else:
            decoded = self._decoder.decode(values, self._decode_type, self._decode_options)
        columns = list(decoded.batch.columns)
        names = list(decoded.batch.schema.names)
        for name in self._metadata:
            column = batch.column(name)
            columns.append(column if decoded.kept is None else column.take(decoded.kept))
            names.append(name)
        table_in = pa.RecordBatch.from_arrays(columns, names=names)
        result = self._plan.execute(table_in)
        if result.num_rows == 0:
            return pa.RecordBatch.from_pylist([], schema=OUTPUT_SCHEMA)
        if self._encode_format == AVRO:
            encoded = self._avro_encode(result, self._encode_type, self._encode_options)
        else:
            encoded = json_encoder.encode(result, self._encode_type, self._encode_options)
        return pa.RecordBatch.from_arrays([encoded], schema=OUTPUT_SCHEMA)


register(KIND, SegmentStage)
