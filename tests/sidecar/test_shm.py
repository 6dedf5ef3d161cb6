"""Shared-memory regions: layout, commit protocol, growth, permissions and clean-up."""

import errno
import os
import stat
import struct
from decimal import Decimal

import pyarrow as pa
import pytest

from accelerator.formats import timestamps
from accelerator.sidecar import PROTOCOL_VERSION, shm
from accelerator.sidecar.shm import RegionError, SharedRegion


def kafka_records(rows: int, value_bytes: int = 200) -> pa.RecordBatch:
    return pa.record_batch({
        "value": pa.array([os.urandom(value_bytes) for _ in range(rows)], pa.binary()),
        "partition": pa.array([i % 4 for i in range(rows)], pa.int32()),
        "offset": pa.array(range(rows), pa.int64()),
    })


def every_type(rows: int) -> pa.RecordBatch:
    def column(values, type_):
        return pa.array([None if i % 7 == 3 else v for i, v in enumerate(values)], type_)
    r = range(rows)
    return pa.record_batch({
        "binary": column([bytes([i % 256, 0, 255]) for i in r], pa.binary()),
        "string": column([f"röw {i} 😀" for i in r], pa.string()),
        "boolean": column([i % 2 == 0 for i in r], pa.bool_()),
        "tinyint": column([i % 100 - 50 for i in r], pa.int8()),
        "smallint": column([i - 30_000 for i in r], pa.int16()),
        "int": column([-2**31 + i for i in r], pa.int32()),
        "bigint": column([2**63 - 1 - i for i in r], pa.int64()),
        "float": column([i / 3 for i in r], pa.float32()),
        "double": column([i * 1e300 for i in r], pa.float64()),
        "decimal": column([Decimal(i).scaleb(-2) for i in r], pa.decimal128(10, 2)),
        "date": column(list(r), pa.date32()),
        # Flink's years 0000-9999 with nanoseconds of the millisecond, nulls as null struct slots.
        "timestamp": timestamps.from_parts([-62_167_219_200_000 + i * 3_155_695_200_000 for i in r],
                                           [i * 9_999 % 1_000_000 for i in r], [i % 7 != 3 for i in r]),
    })


@pytest.fixture
def region():
    writer = SharedRegion.create("test")
    reader = SharedRegion.attach(writer.path)
    yield writer, reader
    reader.close()
    writer.close()


def test_every_type_round_trips(region):
    writer, reader = region
    for sequence, batch in enumerate([every_type(100), every_type(0), kafka_records(1000)], start=1):
        writer.write_batch(sequence, batch)
        assert reader.read_batch(sequence).equals(batch)


def test_read_is_zero_copy_over_the_mapping(region):
    writer, reader = region
    writer.write_batch(1, kafka_records(100))
    value = reader.read_batch(1).column("value")
    mapping = reader._map
    start = pa.py_buffer(mapping).address
    assert start <= value.buffers()[2].address < start + reader.size


def test_header_is_the_documented_layout(region):
    writer, _ = region
    length = writer.write_batch(7, kafka_records(3))
    with open(writer.path, "rb") as f:
        header = f.read(shm.HEADER_SIZE)
    magic, version, header_size, region_size, sequence, committed = struct.unpack_from("<8sIIQQQ", header)
    assert (magic, version, header_size) == (b"FLKACSHM", PROTOCOL_VERSION, 64)
    assert (region_size, sequence, committed) == (os.path.getsize(writer.path), 7, length)
    assert header[40:64] == bytes(24)


def test_reader_only_reads_the_sequence_it_asked_for(region):
    writer, reader = region
    with pytest.raises(RegionError, match="asked for batch 1 but nothing committed"):
        reader.read_batch(1)
    writer.write_batch(1, kafka_records(5))
    with pytest.raises(RegionError, match="asked for batch 2 but batch 1 is committed"):
        reader.read_batch(2)


def test_reader_never_sees_a_half_written_batch(region, monkeypatch):
    """At every header store of a write, the new sequence is either refused or complete."""
    writer, reader = region
    writer.write_batch(1, kafka_records(10))
    batch = kafka_records(20_000)
    seen = []
    store = SharedRegion._store

    def store_and_look(self, offset, value):
        store(self, offset, value)
        try:
            seen.append(reader.read_batch(2).equals(batch))
        except RegionError:
            seen.append("refused")

    monkeypatch.setattr(SharedRegion, "_store", store_and_look)
    writer.write_batch(2, batch)
    assert seen[-1] is True and set(seen[:-1]) == {"refused"}, seen


def test_a_write_that_fails_midway_is_never_read(region, monkeypatch):
    writer, reader = region
    writer.write_batch(1, kafka_records(10))
    monkeypatch.setattr(shm, "streams_size", lambda batches: 1000)  # too small: the IPC writer overflows
    with pytest.raises(Exception):
        writer.write_batch(2, kafka_records(100))
    for sequence in (1, 2):
        with pytest.raises(RegionError, match="nothing committed"):
            reader.read_batch(sequence)


def test_writer_grows_the_region_and_the_reader_remaps(region):
    writer, reader = region
    start = writer.size
    writer.write_batch(1, kafka_records(10))
    small = reader.read_batch(1)
    large = kafka_records(65_536)
    writer.write_batch(2, large)
    assert writer.size > start and writer.size == os.path.getsize(writer.path)
    assert reader.read_batch(2).equals(large)
    assert reader.size == writer.size
    assert small.num_rows == 10  # the old mapping stays valid while a batch points into it


def test_region_shrinks_back_once_a_batch_fits_its_initial_size(region):
    """One large message must not keep its memory for the region's life (tmpfs frees truncated
    pages); the reader follows the shrink and the region grows again when needed."""
    writer, reader = region
    initial = writer.size
    large, small = kafka_records(65_536), kafka_records(10)
    writer.write_batch(1, large)
    assert reader.read_batch(1).equals(large)
    assert writer.size > initial
    writer.write_batch(2, small)
    assert writer.size == initial == os.path.getsize(writer.path)
    assert os.stat(writer.path).st_blocks * 512 <= initial
    assert reader.read_batch(2).equals(small)
    assert reader.size == initial
    writer.write_batch(3, large)
    assert reader.read_batch(3).equals(large) and reader.size == writer.size > initial


def test_region_is_private_unguessable_and_removed_on_close():
    first, second = SharedRegion.create("test"), SharedRegion.create("test")
    try:
        assert stat.S_IMODE(os.stat(first.path).st_mode) == 0o600
        assert os.path.dirname(first.path) == "/dev/shm"
        name = os.path.basename(first.path)
        assert name.startswith(f"flink-accelerator-test-{os.getpid()}-") and len(name.rsplit("-", 1)[1]) == 32
        assert first.path != second.path
    finally:
        first.close()
        second.close()
    assert not os.path.exists(first.path) and not os.path.exists(second.path)
    first.close()


def test_closing_a_reader_keeps_the_file_and_remove_is_idempotent():
    writer = SharedRegion.create("test")
    SharedRegion.attach(writer.path).close()
    assert os.path.exists(writer.path)
    shm.remove(writer.path)
    shm.remove(writer.path)
    writer.close()


def test_readers_do_not_write_and_refuse_foreign_files(tmp_path):
    with SharedRegion.create("test") as writer, SharedRegion.attach(writer.path) as reader:
        with pytest.raises(RegionError, match="only its creator writes it"):
            reader.write_batch(1, kafka_records(1))
    foreign = tmp_path / "not-a-region"
    foreign.write_bytes(b"x" * 8192)
    with pytest.raises(RegionError, match="not a flink-accelerator region"):
        SharedRegion.attach(str(foreign))
    other_version = tmp_path / "other-version"
    other_version.write_bytes(struct.pack("<8sII", b"FLKACSHM", PROTOCOL_VERSION + 1, 64).ljust(8192, b"\0"))
    with pytest.raises(RegionError, match=f"written with transport protocol {PROTOCOL_VERSION + 1}"):
        SharedRegion.attach(str(other_version))


def test_full_shared_memory_is_a_clear_error_not_a_crash(region, monkeypatch):
    writer, reader = region
    writer.write_batch(1, kafka_records(10))

    def no_space(fd, offset, length):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "posix_fallocate", no_space)
    with pytest.raises(RegionError, match=r"/dev/shm is full: .* needs \d+ bytes.*docker --shm-size"):
        writer.write_batch(2, kafka_records(20_000))
    with pytest.raises(RegionError, match="nothing committed"):
        reader.read_batch(2)
