"""Throughput of the avro codecs on Nexmark-like bids: `python -m accelerator.formats.avro_bench [rows ...]`.

Prints messages per second for our vectorized encode and decode (lockstep path) and, as the
per-record baseline, fastavro's schemaless reader and writer on the same datums, one thread.
Bids have 7 fields (3 BIGINT, 3 VARCHAR, TIMESTAMP(3)), all nullable as in a DDL, ~130 bytes.
"""

from __future__ import annotations

import io
import sys
import time

import fastavro
import pyarrow as pa

from accelerator.formats import avro, types

BID = types.parse(
    "ROW<`auction` BIGINT, `bidder` BIGINT, `price` BIGINT, `channel` VARCHAR(2147483647), "
    "`url` VARCHAR(2147483647), `dateTime` TIMESTAMP(3), `extra` VARCHAR(2147483647)>")
#: The schema Flink derives for BID (nullable unions, timestamp-millis), for the fastavro baseline.
FASTAVRO_SCHEMA = fastavro.parse_schema({
    "type": "record", "name": "record", "namespace": "org.apache.flink.avro.generated", "fields": [
        {"name": n, "type": ["null", t], "default": None} for n, t in [
            ("auction", "long"), ("bidder", "long"), ("price", "long"), ("channel", "string"),
            ("url", "string"), ("dateTime", {"type": "long", "logicalType": "timestamp-millis"}),
            ("extra", "string")]]})


def bids(rows: int) -> pa.RecordBatch:
    columns = [
        pa.array([1000 + i % 5000 for i in range(rows)], pa.int64()),
        pa.array([i % 997 for i in range(rows)], pa.int64()),
        pa.array([100 + i * 7 for i in range(rows)], pa.int64()),
        pa.array([("Apple", "Google", "channel-7")[i % 3] for i in range(rows)]),
        pa.array([f"https://www.nexmark.com/a/b/item.htm?query={i}" for i in range(rows)]),
        pa.array([1_767_225_600_000_000_000 + i * 1_000_000 for i in range(rows)], pa.int64()).cast(pa.timestamp("ns")),
        pa.array(["x" * (i % 20) for i in range(rows)]),
    ]
    return pa.RecordBatch.from_arrays(columns, schema=types.to_arrow_schema(BID))


def rate(action, messages: int, seconds: float = 2.0) -> float:
    """Messages per second, repeating `action` for about `seconds`."""
    action()
    runs, start = 0, time.perf_counter()
    while True:
        action()
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return runs * messages / elapsed


def main(sizes: list[int]) -> None:
    options = avro.parse_options({})
    for rows in sizes:
        batch = bids(rows)
        encoded = avro.encode(batch, BID, options)
        decoder = avro.AvroDecoder(BID, options)
        records = [dict(zip(BID_NAMES, r)) for r in zip(*[c.to_pylist() for c in batch.columns])]

        def fastavro_read():
            for m in encoded.to_pylist():
                fastavro.schemaless_reader(io.BytesIO(m), FASTAVRO_SCHEMA, FASTAVRO_SCHEMA)

        def fastavro_write():
            for r in records:
                out = io.BytesIO()
                fastavro.schemaless_writer(out, FASTAVRO_SCHEMA, r)

        print(f"{rows:>7} rows, {encoded.nbytes / rows:.0f} B/message:"
              f" encode {rate(lambda: avro.encode(batch, BID, options), rows) / 1e3:,.0f}k msg/s,"
              f" decode {rate(lambda: decoder.decode(encoded), rows) / 1e3:,.0f}k msg/s;"
              f" fastavro per record: read {rate(fastavro_read, rows, 1) / 1e3:,.0f}k,"
              f" write {rate(fastavro_write, rows, 1) / 1e3:,.0f}k msg/s", flush=True)


BID_NAMES = [f.name for f in BID.fields]

if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [8192, 65536, 262144])
