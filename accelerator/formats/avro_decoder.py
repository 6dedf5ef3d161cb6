"""Kafka message values -> Arrow rows, exactly as Flink's `avro` format decodes them.

Flink's AvroRowDataDeserializationSchema reads each message as one schemaless Avro datum of the
schema it derives from the row type (`avro_schema`). The whole batch is read natively first
(`avro_fast_path`); messages it flags, and every message that starts with bytes an earlier one
left unread, go through the exact reader (`avro_values`). Flink's avro format has no
ignore-parse-errors option: a datum Flink cannot read fails the job, so here it raises
FormatError naming the message. A tombstone (null value) gives no row and leaves the decoder
as it was.

One `AvroDecoder` is one Flink deserializer: it keeps, across batches, the bytes Flink's
buffered decoder still holds after a datum (`leftover`), which the next message's datum starts
with; the exact reader models when that decoder pulls a message in (`avro_values.DatumReader`),
so a message it never reads gives its follower's row, as in Flink. While nothing is held, a
message is read alone from its first byte, natively when the kernel vouches for it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import FormatError
from accelerator.formats import avro_fast_path
from accelerator.formats.avro_options import AvroOptions
from accelerator.formats.avro_schema import derive
from accelerator.formats.avro_values import DatumReader, Malformed, Unreproducible
from accelerator.formats.types import DataType, to_arrow_schema
from accelerator.formats.value_columns import column

REMEDY = ("Flink's avro format has no option to skip such records: fix the producer, or check that it"
          " writes plain Avro datums of the table's schema (not the Confluent wire format, which is"
          " the 'avro-confluent' format)")
UNREPRODUCIBLE_REMEDY = ("run this job without the accelerator ('accelerator.enabled' = 'false'), "
                         "where stock Flink decodes this record")


@dataclass(frozen=True)
class DecodeResult:
    """The decoded rows of one batch. `kept[i]` is the message row i came from, or None when
    every message gave exactly one row, in order (tombstones give none)."""

    batch: pa.RecordBatch
    kept: pa.Array | None
    skipped: int = 0
    null_rows: int = 0
    first_null_row: int | None = None


class AvroDecoder:
    """Flink's avro deserializer for one row type: decode batch after batch, in message order."""

    def __init__(self, row_type: DataType, options: AvroOptions):
        if options.encoding != "binary":
            raise ValueError("only 'avro.encoding' = 'binary' is reproduced; check avro.supported() first")
        self.row_type = row_type
        self.schema = derive(row_type, options.legacy_timestamp_mapping)
        self.arrow_schema = to_arrow_schema(row_type)
        self.leftover = b""
        # MAP entries take Java's hash-map order, which only the exact reader models.
        self._exact_only = _has_map(self.schema)

    def decode(self, values: pa.Array) -> DecodeResult:
        n = len(values)
        present = values.is_valid().to_numpy(zero_copy_only=False) if values.null_count else np.ones(n, bool)
        rows = np.nonzero(present)[0]
        if self._exact_only:
            return self._mixed(values, present, rows, None, np.zeros(n, dtype=bool))
        columns, regular = avro_fast_path.decode(values, self.schema)
        if not self.leftover and regular[rows].all():
            batch = pa.RecordBatch.from_arrays(columns, schema=self.arrow_schema)
            kept = None if values.null_count == 0 else pa.array(rows, pa.int32())
            self._check_not_null(batch, kept)
            return DecodeResult(batch, kept)
        return self._mixed(values, present, rows, columns, regular)

    def _mixed(self, values, present, rows, columns, regular) -> DecodeResult:
        """Rows of the native read where it is valid, the exact reader's elsewhere, in order."""
        fast_batch = None if columns is None else pa.RecordBatch.from_arrays(columns, schema=self.arrow_schema)
        slot_of = np.cumsum(regular) - 1  # the native row of each regular message
        chunks: list[pa.RecordBatch] = []
        kept: list[int] = []
        exact_rows: list[tuple] = []
        fast_slots: list[int] = []

        def flush_fast():
            if fast_slots:
                chunks.append(fast_batch.take(pa.array(fast_slots, pa.int64())))
                fast_slots.clear()

        def flush_exact():
            if exact_rows:
                chunks.append(pa.RecordBatch.from_arrays(
                    [column([r[i] for r in exact_rows], f.type) for i, f in enumerate(self.row_type.fields)],
                    schema=self.arrow_schema))
                exact_rows.clear()

        for i in range(len(values)):
            if not present[i]:
                continue
            if not self.leftover and regular[i]:
                flush_exact()
                fast_slots.append(int(slot_of[i]))
                kept.append(i)
                continue
            flush_fast()
            exact_rows.append(self._exact(i, values[i].as_py()))
            kept.append(i)
        flush_fast()
        flush_exact()
        batch = (pa.Table.from_batches(chunks, schema=self.arrow_schema).combine_chunks().to_batches() or
                 [pa.RecordBatch.from_pylist([], schema=self.arrow_schema)])[0]
        kept_array = pa.array(kept, pa.int32())
        plain = len(kept) == len(values)
        self._check_not_null(batch, None if plain else kept_array)
        return DecodeResult(batch, None if plain else kept_array)

    def _exact(self, index: int, message: bytes) -> tuple:
        reader = DatumReader(message, self.leftover)
        try:
            row = reader.read(self.schema)
        except Malformed as e:
            raise FormatError(index, f"Flink's avro format cannot decode this record (Failed to deserialize"
                                     f" Avro record: {e})", REMEDY) from None
        except Unreproducible as e:
            raise FormatError(index, f"Flink's avro format decodes this record in a way the accelerator"
                                     f" does not reproduce: {e}", UNREPRODUCIBLE_REMEDY) from None
        self.leftover = reader.leftover()
        return row

    def _check_not_null(self, batch: pa.RecordBatch, kept: pa.Array | None) -> None:
        """A DECIMAL with more digits than its precision decodes to null even in a NOT NULL column;
        the rest of a Flink job then fails on it, so the accelerator fails here, naming the message."""
        for i, f in enumerate(self.row_type.fields):
            col = batch.column(i)
            if not f.type.nullable and col.null_count:
                row = pc.index(col.is_null(), True).as_py()
                raise FormatError(row if kept is None else kept[row].as_py(),
                                  f"field '{f.name}' is declared NOT NULL but Flink's avro format reads"
                                  f" null for it (a DECIMAL value with more digits than its precision)",
                                  "make the column nullable or fix the producer")


def _has_map(node) -> bool:
    return node.kind == "map" or any(_has_map(c) for c in node.children)
