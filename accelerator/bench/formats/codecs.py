"""Our formats, called per batch exactly as the sidecar's segment stage calls them
(`accelerator.sidecar.segment_stage`): a BinaryArray of message values in, an Arrow RecordBatch
out, and back to a BinaryArray of messages."""

from __future__ import annotations

import pyarrow as pa

from accelerator.formats import avro, json_decoder, json_encoder, json_options
from accelerator.formats.types import DataType


class Codec:
    """One format's decoder and encoder for one row type, with default format options."""

    def __init__(self, fmt: str, row_type: DataType):
        self.format = fmt
        self.row_type = row_type
        if fmt == "json":
            self._options = json_options.parse_options({})
        elif fmt == "avro":
            self._options = avro.parse_options({})
            # One deserializer per stage, as the sidecar keeps one per source subtask.
            self._avro_decoder = avro.AvroDecoder(row_type, self._options)
        else:
            raise ValueError(f"format {fmt!r}: only json and avro are benchmarked")

    def decode(self, values: pa.Array) -> pa.RecordBatch:
        if self.format == "json":
            result = json_decoder.decode(values, self.row_type, self._options)
        else:
            result = self._avro_decoder.decode(values)
        if result.kept is not None:
            raise ValueError(f"{self.format} decode: {len(values)} messages gave {result.batch.num_rows} rows"
                             f" ({result.skipped} skipped); the benchmark's messages must each give one row")
        return result.batch

    def encode(self, batch: pa.RecordBatch) -> pa.BinaryArray:
        if self.format == "json":
            return json_encoder.encode(batch, self.row_type, self._options)
        return avro.encode(batch, self.row_type, self._options)
