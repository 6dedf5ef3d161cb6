"""The avro format under fuzz: our AvroDecoder against Flink's AvroRowDataDeserializationSchema.

Flink's deserializer buffers what it reads, so bytes a datum leaves unread become the start of
the next message's datum. The outcome of a corpus message is therefore that of the message and
then a valid one (`FOLLOWERS`), both given to a fresh deserializer on each side: a message
that reads short, or leaves bytes behind, shows in the row that follows it. Flink's avro format
has no ignore-parse-errors option.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from accelerator.formats import avro, avro_fast_path, types
from accelerator.formats.avro_decoder import UNREPRODUCIBLE_REMEDY
import avro_datums
from fuzz_target import FAILED, FuzzTarget, flink_outcomes, our_outcome, rows_of

S = "VARCHAR(2147483647)"
#: The row type most of the corpus is written for (see make_avro_corpus.py); no MAP, so the
#: decoder's native reader runs as well as its exact one.
MAIN = (f"ROW<`id` BIGINT NOT NULL, `ok` BOOLEAN, `i` INT, `ti` TINYINT, `si` SMALLINT, `f` FLOAT, `d` DOUBLE, "
        f"`dec` DECIMAL(10, 2), `s` {S}, `b` VARBINARY(2147483647), `dt` DATE, `t` TIME(3), `ts` TIMESTAMP(3), "
        f"`tags` ARRAY<{S}>, `r` ROW<`x` INT, `y` {S}>>")
#: The same layout read with 'avro.timestamp_mapping.legacy' = 'false', `ts` as a local-time-zone timestamp.
MODERN = MAIN.replace("`ts` TIMESTAMP(3)", "`ts` TIMESTAMP(3) WITH LOCAL TIME ZONE")
#: The row type of the corpus's map messages: maps go through the exact reader only.
MAPS = f"ROW<`id` INT NOT NULL, `m` MAP<{S}, INT>, `mm` MAP<{S}, MAP<{S}, {S}>>>"

#: A valid datum of each row type, decoded after every corpus message (see the module doc).
FOLLOWERS = {MAIN: avro_datums.main(), MODERN: avro_datums.main(), MAPS: avro_datums.maps()}


class AvroTarget(FuzzTarget):
    format = "avro"
    option_sets = {"default": {}, "modern-timestamps": {"avro.timestamp_mapping.legacy": "false"}, "maps": {}}
    _row_types = {"default": MAIN, "modern-timestamps": MODERN, "maps": MAPS}
    splices = (b"\x00", b"\x01", b"\x02", b"\x03", b"\x04", b"\x7f", b"\x80", b"\xff", b"\xff\xff\xff\xff\x0f",
               b"\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", b"\xed\xa0\x80", b"\xc3")

    def __init__(self):
        self._types = {name: types.parse(t) for name, t in self._row_types.items()}

    def row_type_of(self, option_set):
        return self._row_types[option_set]

    def supported(self, option_set):
        return avro.supported(self.row_type_of(option_set), self.option_sets[option_set], "decode")

    def ours(self, option_set, message):
        t = self._types[option_set]
        follower = FOLLOWERS[self.row_type_of(option_set)]
        decoder = avro.AvroDecoder(t, avro.parse_options(self.option_sets[option_set]))
        return our_outcome(t, lambda: decoder.decode(pa.array([message, follower], pa.binary())),
                           UNREPRODUCIBLE_REMEDY)

    def flinks(self, option_set, messages):
        from accelerator.testing.flink_oracle import AvroDeserializer
        row_type, options = self.row_type_of(option_set), self.option_sets[option_set]
        follower = FOLLOWERS[row_type]
        out = []
        for message in messages:  # a fresh deserializer each, as on our side
            both = flink_outcomes(AvroDeserializer(row_type, options).deserialize([message, follower]))
            out.append(FAILED if FAILED in both else
                       {"rows": both[0]["rows"] + both[1]["rows"], "nulls": both[0]["nulls"] + both[1]["nulls"]})
        return out

    def flink_batch(self, option_set, messages):
        """A fresh deserializer over the whole batch: bytes one datum leaves unread start the next."""
        from accelerator.testing.flink_oracle import AvroDeserializer
        return flink_outcomes(AvroDeserializer(self.row_type_of(option_set), self.option_sets[option_set])
                              .deserialize(messages))

    def native_rows(self, option_set, values):
        t = self._types[option_set]
        decoder = avro.AvroDecoder(t, avro.parse_options(self.option_sets[option_set]))
        if decoder._exact_only:  # a MAP: production never runs the kernel on this row type
            return None
        columns, regular = avro_fast_path.decode(values, decoder.schema)
        batch = pa.RecordBatch.from_arrays(columns, schema=decoder.arrow_schema)
        return np.nonzero(regular)[0].tolist(), rows_of(t, batch)
