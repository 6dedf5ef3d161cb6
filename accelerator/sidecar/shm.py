"""A shared-memory region: one file in /dev/shm that carries one answer at a time: one Arrow record
batch, or (a rows stage with a watermark section) a few, one IPC stream each.

Bulk data between the JVM and the sidecar never goes over a socket. Each direction has its own
region; the side that writes a region creates it (mode 0600, unpredictable name) and is the only
one that ever writes or grows it. The other side attaches to it by path and only reads.

Layout (all integers little-endian, unsigned)::

    offset  size  field
         0     8  magic, the ASCII bytes "FLKACSHM"
         8     4  transport protocol version (PROTOCOL_VERSION)
        12     4  header size in bytes (64): where the body starts
        16     8  region size: the file's length in bytes, header included
        24     8  sequence number of the committed body; 0 while nothing is committed
        32     8  committed body length in bytes
        40    24  reserved, zero
        64     n  body: one Arrow IPC stream (schema message, one record batch message,
                  end-of-stream marker), or several such streams back to back (a rows stage
                  with a watermark section answers its rows, then its marks),
                  n = committed body length (all streams)

Commit protocol. The writer first sets the sequence to 0, grows the file if the batch does not
fit (allocating it larger and then storing the new region size), writes the body, stores the
body length and stores the new sequence number last. A reader asks for one sequence number and
reads only when the header holds exactly that number, and then only the committed length: a
batch that is half written, or stale from an earlier call, is refused, never read.

Ownership passes with the control call: the JVM writes the request region, then calls
`process(stage, sequence)`; the sidecar reads it and writes the response region before returning.
So a reader never races a writer; the header guards against crashed or mismatched calls.

A region grows for a batch that does not fit and shrinks back to its initial size as soon as a
batch fits that size again, so one large message does not keep its memory for the region's life.
The sidecar's response region does not grow by itself: an answer that does not fit is kept until
the JVM has the growth from its TaskManager's shared-memory budget (`resize`, `write_body`), and
is back at its initial size once the JVM has copied the answer out (docs/architecture.md,
"Shared-memory budget").
Shrinking truncates the file while the sequence is 0, i.e. while the reader reads nothing (the
reader is done with the previous body when the writer is called again): a reader whose mapping is
longer than the file never touches the part past its end, and re-maps when the header's region
size differs from its mapping. Reads are zero-copy: the returned batch's buffers point into the
mapping, which stays mapped for as long as the batch is alive.
"""

from __future__ import annotations

import errno
import mmap
import os
import secrets
import struct
from collections.abc import Sequence

import pyarrow as pa

from accelerator.sidecar import PROTOCOL_VERSION

MAGIC = b"FLKACSHM"
HEADER_SIZE = 64
SHM_DIRECTORY = "/dev/shm"
#: Every region's file name: `flink-accelerator-<role>-<creator pid>-<random hex>` (the JVM's too).
REGION_PREFIX = "flink-accelerator-"
DEFAULT_SIZE = 4 << 20

_HEADER = struct.Struct("<8sII")  # magic, version, header size (offset 0)
_U64 = struct.Struct("<Q")
_REGION_SIZE_AT = 16
SEQUENCE_AT = 24
_LENGTH_AT = 32
_PAGE = mmap.PAGESIZE


class RegionError(RuntimeError):
    """The region does not hold what the caller asked for (wrong sequence, bad header, ...)."""


class SharedRegion:
    """One region, as its writer (`create`) or as a reader (`attach`)."""

    def __init__(self, path: str, fd: int, writer: bool):
        self.path = path
        self._fd = fd
        self._writer = writer
        self._map: mmap.mmap | None = None
        self._mapped_size = 0
        self._map_to(os.fstat(fd).st_size)
        self._initial_size = self._mapped_size  # the writer shrinks back to it

    @classmethod
    def create(cls, role: str, size: int = DEFAULT_SIZE, directory: str = SHM_DIRECTORY) -> "SharedRegion":
        """A new region owned by this process: `role` (e.g. "response") goes into the file name so
        an operator can tell leftover files apart; the random part makes the name unguessable."""
        path = os.path.join(directory, f"{REGION_PREFIX}{role}-{os.getpid()}-{secrets.token_hex(16)}")
        flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(path, flags, 0o600)
        try:
            size = _round_up(max(size, HEADER_SIZE + _PAGE))
            _allocate(fd, 0, size, path)
            region = cls(path, fd, writer=True)
            region._write_header(size)
        except BaseException:
            os.close(fd)
            remove(path)
            raise
        return region

    @classmethod
    def attach(cls, path: str) -> "SharedRegion":
        """The region at `path`, written by another process, for reading."""
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            region = cls(path, fd, writer=False)
            region._check_header()
        except BaseException:
            os.close(fd)
            raise
        return region

    @property
    def size(self) -> int:
        """The file's current length in bytes (header included)."""
        return self._mapped_size

    # -- writing -----------------------------------------------------------------------------

    def write_batch(self, sequence: int, batch: pa.RecordBatch) -> int:
        """Writes `batch` as the body of `sequence` (one stream) and commits it; returns the body
        length."""
        return self.write_batches(sequence, (batch,))

    def write_batches(self, sequence: int, batches: Sequence[pa.RecordBatch], length: int | None = None) -> int:
        """Writes `batches`, one IPC stream each, back to back, as the body of `sequence` and
        commits it; returns the body length (all streams), which the caller may already know
        (`streams_size`)."""
        if not self._writer:
            raise RegionError(f"{self.path} was attached for reading; only its creator writes it")
        if sequence <= 0:
            raise RegionError(f"sequence numbers start at 1, got {sequence}")
        if not batches:
            raise RegionError("a body holds at least one batch")
        self._store(SEQUENCE_AT, 0)
        length = streams_size(batches) if length is None else length
        if HEADER_SIZE + length > self._mapped_size:
            self._grow(HEADER_SIZE + length)
        elif HEADER_SIZE + length <= self._initial_size < self._mapped_size:
            self._shrink()
        body = pa.py_buffer(memoryview(self._map)[HEADER_SIZE:HEADER_SIZE + length])
        _write_streams(pa.FixedSizeBufferWriter(body), batches)
        del body
        self._store(_LENGTH_AT, length)
        self._store(SEQUENCE_AT, sequence)
        return length

    def size_for(self, length: int) -> int:
        """The region size (header included, page-rounded) that a body of `length` bytes needs;
        the current size when it fits."""
        return max(self._mapped_size, _round_up(HEADER_SIZE + length))

    def resize(self, size: int) -> None:
        """Grows or shrinks the file to `size` (page-rounded, never below the initial size) and
        withdraws the committed body: only while the reader reads nothing. The sidecar sizes its
        response region this way when the JVM has granted an answer's growth, and back after the
        JVM has copied it out."""
        if not self._writer:
            raise RegionError(f"{self.path} was attached for reading; only its creator resizes it")
        size = _round_up(max(size, self._initial_size))
        if size == self._mapped_size:
            return
        self._store(SEQUENCE_AT, 0)
        if size > self._mapped_size:
            _allocate(self._fd, self._mapped_size, size, self.path)
            self._map_to(size)
        else:
            self._map_to(size)
            os.ftruncate(self._fd, size)
        self._store(_REGION_SIZE_AT, size)

    def write_body(self, sequence: int, body: pa.Buffer) -> int:
        """Commits `body`, the bytes of IPC streams written earlier (`serialize`), as `sequence`;
        the region must already hold it (`resize`). Returns its length."""
        if not self._writer:
            raise RegionError(f"{self.path} was attached for reading; only its creator writes it")
        if HEADER_SIZE + body.size > self._mapped_size:
            raise RegionError(f"{self.path}: batch {sequence} needs {HEADER_SIZE + body.size} bytes but the region"
                              f" holds {self._mapped_size}; resize it first")
        self._store(SEQUENCE_AT, 0)
        self._map[HEADER_SIZE:HEADER_SIZE + body.size] = memoryview(body)
        self._store(_LENGTH_AT, body.size)
        self._store(SEQUENCE_AT, sequence)
        return body.size

    def _grow(self, needed: int) -> None:
        size = _round_up(max(needed, 2 * self._mapped_size))
        _allocate(self._fd, self._mapped_size, size, self.path)
        self._map_to(size)
        self._store(_REGION_SIZE_AT, size)

    def _shrink(self) -> None:
        """Gives the memory past the initial size back (tmpfs frees truncated pages)."""
        self._map_to(self._initial_size)
        os.ftruncate(self._fd, self._initial_size)
        self._store(_REGION_SIZE_AT, self._initial_size)

    def _write_header(self, size: int) -> None:
        self._map[0:HEADER_SIZE] = bytes(HEADER_SIZE)
        _HEADER.pack_into(self._map, 0, MAGIC, PROTOCOL_VERSION, HEADER_SIZE)
        self._store(_REGION_SIZE_AT, size)

    def _store(self, offset: int, value: int) -> None:
        _U64.pack_into(self._map, offset, value)

    # -- reading -----------------------------------------------------------------------------

    def committed(self) -> tuple[int, int]:
        """(sequence, body length) as the header says now."""
        return self._load(SEQUENCE_AT), self._load(_LENGTH_AT)

    def read_batch(self, sequence: int) -> pa.RecordBatch:
        """The batch committed as `sequence` (a body of one stream), zero-copy over the mapping."""
        batches = self.read_batches(sequence)
        if len(batches) != 1:
            raise RegionError(f"{self.path}: batch {sequence} holds {len(batches)} streams, not one")
        return batches[0]

    def read_batches(self, sequence: int) -> list[pa.RecordBatch]:
        """The batches committed as `sequence`, one per stream of the body, zero-copy over the
        mapping."""
        committed, length = self.committed()
        if committed != sequence:
            state = "nothing committed (a write is in progress or failed)" if committed == 0 \
                else f"batch {committed} is committed"
            raise RegionError(f"{self.path}: asked for batch {sequence} but {state}")
        region_size = self._load(_REGION_SIZE_AT)
        if region_size != self._mapped_size:
            self._map_to(region_size)
        if HEADER_SIZE + length > self._mapped_size:
            raise RegionError(f"{self.path}: batch {sequence} claims {length} bytes but the region"
                              f" holds {self._mapped_size - HEADER_SIZE}")
        body = pa.BufferReader(pa.py_buffer(memoryview(self._map)[HEADER_SIZE:HEADER_SIZE + length]))
        batches = []
        while body.tell() < length:
            with pa.ipc.open_stream(body) as stream:
                read = list(stream)  # up to and past its end-of-stream marker
            if len(read) != 1:
                raise RegionError(f"{self.path}: stream {len(batches) + 1} of batch {sequence} holds"
                                  f" {len(read)} record batches, not one")
            batches.append(read[0])
        return batches

    def _check_header(self) -> None:
        magic, version, header_size = _HEADER.unpack_from(self._map, 0)
        if magic != MAGIC or header_size != HEADER_SIZE:
            raise RegionError(f"{self.path} is not a flink-accelerator region (bad header)")
        if version != PROTOCOL_VERSION:
            raise RegionError(f"{self.path} was written with transport protocol {version}; this"
                              f" sidecar speaks {PROTOCOL_VERSION}")

    def _load(self, offset: int) -> int:
        return _U64.unpack_from(self._map, offset)[0]

    # -- mapping and lifetime ----------------------------------------------------------------

    def _map_to(self, size: int) -> None:
        access = mmap.ACCESS_WRITE if self._writer else mmap.ACCESS_READ
        previous, self._map = self._map, mmap.mmap(self._fd, size, access=access)
        self._mapped_size = size
        _unmap(previous)

    def close(self) -> None:
        """Unmaps (once no batch read from the region is alive) and, for the writer, removes the
        file. Safe to call more than once."""
        if self._fd < 0:
            return
        _unmap(self._map)
        self._map = None
        os.close(self._fd)
        self._fd = -1
        if self._writer:
            remove(self.path)

    def __enter__(self) -> "SharedRegion":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def remove(path: str) -> None:
    """Removes a region file that may already be gone (exit paths clean up after the other side)."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def creator(name: str) -> int | None:
    """The pid in a region file's name, None for a name that is not a region's."""
    if not name.startswith(REGION_PREFIX):
        return None
    try:
        return int(name.rsplit("-", 2)[1])
    except (IndexError, ValueError):
        return None


def remove_regions_of(pids: set[int], directory: str = SHM_DIRECTORY) -> list[str]:
    """Removes the region files created by any of `pids` (processes known to be gone: a region's
    creator removes its own files when it can, and a killed one cannot); returns their paths."""
    return _remove(directory, lambda pid: pid in pids)


def remove_orphaned_regions(directory: str = SHM_DIRECTORY) -> list[str]:
    """Removes this user's region files whose creator no longer runs, whoever left them (a JVM or
    sidecar killed while its fork server was stopped too); returns their paths."""
    return _remove(directory, lambda pid: not alive(pid))


def _remove(directory: str, gone) -> list[str]:
    removed = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for entry in entries:
        pid = creator(entry.name)
        try:
            ours = entry.stat(follow_symlinks=False).st_uid == os.getuid() and entry.is_file(follow_symlinks=False)
        except OSError:
            continue
        if pid is not None and ours and gone(pid):
            remove(entry.path)
            removed.append(entry.path)
    return removed


def alive(pid: int) -> bool:
    """Whether process `pid` runs; a zombie (exited, not yet reaped) counts as gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _unmap(mapping: mmap.mmap | None) -> None:
    """Unmaps now, or, while batches still point into the mapping, when the last one is freed."""
    if mapping is None:
        return
    try:
        mapping.close()
    except BufferError:
        pass


def _allocate(fd: int, start: int, end: int, path: str) -> None:
    """Takes the memory now, so a full /dev/shm is an error here rather than SIGBUS on a write."""
    try:
        os.posix_fallocate(fd, start, end - start)
    except OSError as e:
        if e.errno != errno.ENOSPC:
            raise
        raise RegionError(f"{os.path.dirname(path)} is full: {path} needs {end} bytes. Give the"
                          f" TaskManager more shared memory (containers: a larger /dev/shm, e.g."
                          f" docker --shm-size) or lower accelerator.batch.max-bytes") from e


def _write_streams(sink, batches: Sequence[pa.RecordBatch]) -> None:
    """Writes each batch as one IPC stream (schema, the batch, end-of-stream marker), in order."""
    for batch in batches:
        with pa.ipc.new_stream(sink, batch.schema) as stream:
            stream.write_batch(batch)


def serialize(batches: Sequence[pa.RecordBatch]) -> pa.Buffer:
    """`batches` as one IPC stream each, back to back, in memory of this process's own (a copy that
    outlives the request region the batches may point into)."""
    sink = pa.BufferOutputStream()
    _write_streams(sink, batches)
    return sink.getvalue()


def streams_size(batches: Sequence[pa.RecordBatch]) -> int:
    """Exact length of `batches` as IPC streams, found by writing them to a byte counter."""
    counter = pa.MockOutputStream()
    _write_streams(counter, batches)
    return counter.size()


def _round_up(size: int) -> int:
    return -(-size // _PAGE) * _PAGE
