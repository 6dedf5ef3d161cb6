"""Kafka message values -> Arrow rows, exactly as Flink's `json` format decodes them.

Two paths give the same answer. The fast one decodes the whole batch in native code, but only
for row types it is proven on (`json_fast_path`) and only for the messages it can vouch for;
every other message goes through `json_converters`, a token-for-token model of Flink's decoder
that also reproduces how Flink fails, or skips, or nulls bad data.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import FormatError, json_fast_path
from accelerator.formats.json_converters import MessageDecoder, Unreproducible
from accelerator.formats.json_options import JsonOptions
from accelerator.formats.types import DataType, to_arrow_field
from accelerator.formats.value_columns import column as _column

REMEDY = "set 'json.ignore-parse-errors' = 'true' to skip such records"
UNREPRODUCIBLE_REMEDY = ("run this job without the accelerator ('accelerator.enabled' = 'false'), "
                         "where stock Flink decodes this record")


@dataclass(frozen=True)
class DecodeResult:
    """The decoded rows of one batch of message values.

    `kept[i]` is the input message that row i came from (None when every message gave exactly
    one row, in order), so the caller can line up Kafka metadata. `skipped` counts the bad
    messages that gave no row under json.ignore-parse-errors; `null_rows` counts those of them
    for which Flink's decoder emitted a null row rather than nothing (Flink's Kafka source drops
    a null row or fails on it depending on the table's key and metadata columns). `exact_path`
    counts the messages the fast path left to the exact one: where the decoder's time goes.
    `nested_nulls`: every field of a NULL ROW value is NULL already (the native kernel's rows, and
    its unread columns), so a plan need not null them again (`nested_fields.with_parent_nulls`).
    """

    batch: pa.RecordBatch
    kept: pa.Array | None
    skipped: int
    null_rows: int = 0
    first_null_row: int | None = None  # the first message that gave a null row
    exact_path: int = 0
    nested_nulls: bool = False


def project(row_type: DataType, projection: list[str] | None) -> DataType:
    """The row type Flink's decoder produces when the source pushes `projection` into it."""
    if projection is None:
        return row_type
    by_name = {f.name: f for f in row_type.fields}
    missing = [n for n in projection if n not in by_name]
    if missing:
        raise ValueError(f"projected fields {missing} are not in the row type {row_type.serializable()}")
    return DataType("ROW", row_type.nullable, fields=tuple(by_name[n] for n in projection))


class JsonDecoder:
    """Decodes batch after batch of one row type with one set of options (a stage's value or key
    format), with the fast path's per-type work done once."""

    def __init__(self, row_type: DataType, options: JsonOptions, projection: list[str] | None = None):
        self._produced = project(row_type, projection)
        self._options = options
        self._schema = pa.schema([to_arrow_field(f.name, f.type) for f in self._produced.fields])
        self._fast = json_fast_path.FastDecoder(self._produced, options)

    def decode(self, values: pa.Array) -> DecodeResult:
        """Decode one batch of message values (BinaryArray or LargeBinaryArray, nulls are tombstones)."""
        produced, schema = self._produced, self._schema
        fast = self._fast.decode(values)
        if fast is not None and fast.leftover is None:
            _check_not_null(fast.batch, produced, None)
            return DecodeResult(fast.batch, None, 0, nested_nulls=True)

        leftover = range(len(values)) if fast is None else fast.leftover.to_pylist()
        decoder = MessageDecoder(produced, self._options)
        rows, sources, skipped, null_rows, first_null_row = [], [], 0, 0, None
        for i in leftover:
            try:
                outcome = decoder.decode(values[i].as_py())
            except Unreproducible as e:
                raise FormatError(i, f"Flink's json format decodes this record in a way the accelerator "
                                     f"does not reproduce: {e}", UNREPRODUCIBLE_REMEDY) from None
            if outcome.failure is not None:
                raise FormatError(i, f"Flink's json format cannot decode this record: {outcome.failure}", REMEDY)
            emitted = [r for r in outcome.rows if r is not None]
            nulls = len(outcome.rows) - len(emitted)
            skipped += outcome.swallowed or nulls > 0
            null_rows += nulls
            if nulls and first_null_row is None:
                first_null_row = i
            rows.extend(emitted)
            sources.extend([i] * len(emitted))
        exact = pa.RecordBatch.from_arrays(
            [_column([r[i] for r in rows], f.type) for i, f in enumerate(produced.fields)], schema=schema)
        if fast is None:
            batch, kept = exact, pa.array(sources, pa.int32())
        else:
            batch, kept = _merge(fast, exact, sources)
        _check_not_null(batch, produced, kept)
        if skipped == 0 and len(kept) == len(values) and kept.equals(pa.array(range(len(values)), pa.int32())):
            kept = None
        return DecodeResult(batch, kept, skipped, null_rows, first_null_row, exact_path=len(leftover))


def decode(values: pa.Array, row_type: DataType, options: JsonOptions,
           projection: list[str] | None = None) -> DecodeResult:
    """Decode one batch of message values (BinaryArray or LargeBinaryArray, nulls are tombstones)."""
    return JsonDecoder(row_type, options, projection).decode(values)


def _merge(fast: json_fast_path.FastResult, exact: pa.RecordBatch, sources: list[int]):
    """Both paths' rows in message order."""
    fast_sources = fast.vouched
    all_sources = pa.concat_arrays([fast_sources.cast(pa.int32()), pa.array(sources, pa.int32())])
    order = pc.sort_indices(all_sources)
    combined = pa.Table.from_batches([fast.batch, exact]).combine_chunks().to_batches()
    batch = combined[0] if combined else exact
    return batch.take(order), all_sources.take(order)


def _check_not_null(batch: pa.RecordBatch, t: DataType, kept: pa.Array | None) -> None:
    """Flink's decoder leaves a NOT NULL field null when the JSON has null for it; the rest of
    a Flink job then fails on that null, so the accelerator fails here, naming the message."""
    for i, f in enumerate(t.fields):
        column = batch.column(i)
        if not f.type.nullable and column.null_count:
            row = pc.index(column.is_null(), True).as_py()
            raise FormatError(row if kept is None else kept[row].as_py(), f"field '{f.name}' is declared NOT NULL but the record has no value for it",
                              "make the column nullable or fix the producer")

