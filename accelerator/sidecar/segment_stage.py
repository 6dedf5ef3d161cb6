"""The stage a planner-exported descriptor runs: decode the message values, run the segment's
Substrait plan, encode the result. Decode and encode each use their spec's format, any of
`FORMATS` in any combination.

Descriptors written by the shim carry no "kind"; they run as this stage (kind "segment"). The
input batch has the `value` column (message bytes) and the metadata columns the descriptor
names; the output batch has one binary `value` column, one message per result row, in order (a
null value is a tombstone).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

import pyarrow as pa

from accelerator.formats import types
from accelerator.plans.stage import StagePlan
from accelerator.sidecar.stages import DescriptorError, register

KIND = "segment"
OUTPUT_SCHEMA = pa.schema([pa.field("value", pa.binary())])

#: decode(values) -> DecodeResult (rows, which message each came from, how many were skipped)
Decode = Callable[[pa.Array], object]
#: encode(result batch) -> one message value per row
Encode = Callable[[pa.RecordBatch], pa.Array]


@dataclass(frozen=True)
class Format:
    """One message format the sidecar runs: its module (with `supported` and `parse_options`) and
    how to make a decoder and an encoder for a row type and parsed options. A decoder is made
    once per stage, as Flink makes one deserializer per source subtask (it may carry state)."""

    module: str
    decoder: Callable[[object, types.DataType, object], Decode]
    encoder: Callable[[object, types.DataType, object], Encode]
    #: Whether the sidecar asks the module's `supported` before opening a stage (json predates
    #: it: the shim exports every json table, and its decoders check each record instead).
    checked: bool = True


FORMATS: dict[str, Format] = {
    "json": Format("accelerator.formats.json",
                   lambda m, t, o: lambda values: m.decode(values, t, o),
                   lambda m, t, o: lambda batch: m.encode(batch, t, o), checked=False),
    "avro": Format("accelerator.formats.avro",
                   lambda m, t, o: m.AvroDecoder(t, o).decode,
                   lambda m, t, o: lambda batch: m.encode(batch, t, o)),
    "raw": Format("accelerator.formats.raw",
                  lambda m, t, o: lambda values: m.decode(values, t, o),
                  lambda m, t, o: lambda batch: m.encode(batch, t, o)),
    "csv": Format("accelerator.formats.csv",
                  lambda m, t, o: lambda values: m.decode(values, t, o),
                  lambda m, t, o: lambda batch: m.encode(batch, t, o)),
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
        module = importlib.import_module(entry.module)
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


class SegmentStage:
    """Runs one accelerated segment (Kafka value format -> Calc* -> Kafka value format) on each batch."""

    def __init__(self, descriptor: dict):
        self.name = descriptor.get("name")
        decode, encode = descriptor.get("decode"), descriptor.get("encode")
        if not decode or not encode:
            raise DescriptorError(f"stage {self.name!r} has no decode or encode spec; this sidecar only runs"
                                  f" segments that read and write message bytes")
        decoding = _open(self.name, decode, "decode")
        encoding = _open(self.name, encode, "encode")
        self._value_column = decode.get("column", "value")
        self._input_names = [f["name"] for f in descriptor["input"]["fields"]]
        if self._value_column not in self._input_names:
            raise DescriptorError(f"stage {self.name!r}: decode column {self._value_column!r} is not an input"
                                  f" field {self._input_names}")
        self._metadata = [n for n in self._input_names if n != self._value_column]
        entry, module, row_type, options = decoding
        self._decode = entry.decoder(module, row_type, options)
        entry, module, row_type, options = encoding
        self._encode = entry.encoder(module, row_type, options)
        self._plan = StagePlan(descriptor)

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        if batch.schema.names != self._input_names:
            raise ValueError(f"stage {self.name!r}: batch columns {batch.schema.names} are not the stage's"
                             f" input fields {self._input_names}")
        if batch.num_rows == 0:
            return pa.RecordBatch.from_pylist([], schema=OUTPUT_SCHEMA)
        decoded = self._decode(batch.column(self._value_column))
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
        return pa.RecordBatch.from_arrays([self._encode(result)], schema=OUTPUT_SCHEMA)


register(KIND, SegmentStage)
