"""A join stage's held rows moved out of its memory budget: Arrow IPC files in a local directory
(the TaskManager's `io.tmp.dirs`, which the JVM operator sends with each call), read back
memory-mapped, so the OS pages them in and out and only the row index and counts stay in the
stage's memory. Files are named after the stage, the subtask and the sidecar's pid; they are
removed when the stage closes, when the process exits, when they are merged, and, left
behind by a process that died, when a later attempt of the same stage and subtask first spills."""

from __future__ import annotations

import itertools
import logging
import os
import re
import tempfile
import weakref
from pathlib import Path

import pyarrow as pa

log = logging.getLogger(__name__)

#: A spilled side's files beyond this many are merged into one (each file holds open a mapping).
MAX_FILES_PER_SIDE = 8
#: Held rows are written in record batches of about this many bytes (one combined at a time).
BATCH_BYTES = 16 << 20
#: Numbers the files of every stage in the process, so a restored stage's never reuse a name.
_numbers = itertools.count(1)


class SpillFiles:
    """The spill files of one stage in one sidecar process, per side: written, mapped, merged, removed."""

    def __init__(self, stage: str):
        self.stage = stage
        self.directory: Path | None = None
        self._prefix = ""
        self._files: dict[int, list[Path]] = {}
        self._finalizer = weakref.finalize(self, _remove, self._files)

    def place(self, directory: str | None, subtask: str | None) -> Path:
        """Where the files go: `directory` (the JVM's io.tmp.dirs entry; the process's temp
        directory when the call names none), set by the first spill; removes the files a dead
        process of this stage and subtask left there."""
        if self.directory is None:
            self.directory = Path(directory or tempfile.gettempdir())
            self.directory.mkdir(parents=True, exist_ok=True)
            owner = re.sub(r"[^A-Za-z0-9_.-]+", "_",
                           f"join-spill-{self.stage[:80]}-subtask{subtask if subtask is not None else 'unknown'}")
            _remove_orphans(self.directory, owner)
            self._prefix = f"{owner}-pid{os.getpid()}"
        return self.directory

    def write(self, side: int, table: pa.Table) -> pa.Table:
        """`table` in a new file of `side`, mapped back; merges the side's files when there are many."""
        path = self._write(side, table)
        self._files.setdefault(side, []).append(path)
        return _mapped(path)

    def merged(self, side: int, parts: list[pa.Table]) -> list[pa.Table]:
        """`side`'s spilled rows, one mapped table per file (`parts`, oldest first): when the side
        has more than MAX_FILES_PER_SIDE files, the newer ones merged into one file, the oldest as
        well unless it is larger than all the others together (so a large old file is not written
        again for every few small new ones)."""
        files = self._files.get(side, [])
        if len(files) <= MAX_FILES_PER_SIDE:
            return parts
        sizes = [path.stat().st_size for path in files]
        keep = 1 if sizes[0] > sum(sizes[1:]) else 0
        path = self._write(side, pa.concat_tables(parts[keep:]))
        for old in files[keep:]:
            old.unlink(missing_ok=True)
        self._files[side] = files[:keep] + [path]
        return parts[:keep] + [_mapped(path)]

    def close(self) -> None:
        """Removes every file (the mappings still open stay readable until dropped)."""
        _remove(self._files)

    def _write(self, side: int, table: pa.Table) -> Path:
        path = self.directory / f"{self._prefix}-side{side}-{next(_numbers)}.arrow"
        try:
            with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
                for batch in _batches_of(table, BATCH_BYTES):
                    writer.write_batch(batch)
        except OSError as e:
            path.unlink(missing_ok=True)
            raise OSError(f"stage {self.stage!r}: cannot spill {table.num_rows} held rows ({table.nbytes} bytes)"
                          f" of side {side} to {path}: {e}; free space in that directory or point the TaskManager's"
                          f" io.tmp.dirs at a larger disk") from e
        return path


def _batches_of(table: pa.Table, target: int):
    """`table`'s rows in record batches of about `target` bytes, combining one group at a time."""
    group, size = [], 0
    for batch in table.to_batches():
        if batch.num_rows == 0:
            continue
        group.append(batch)
        size += batch.nbytes
        if size >= target:
            yield pa.Table.from_batches(group, table.schema).combine_chunks().to_batches()[0]
            group, size = [], 0
    if group:
        yield pa.Table.from_batches(group, table.schema).combine_chunks().to_batches()[0]


def _mapped(path: Path) -> pa.Table:
    return pa.ipc.open_file(pa.memory_map(str(path), "r")).read_all()


def _remove(files: dict[int, list[Path]]) -> None:
    for paths in files.values():
        for path in paths:
            path.unlink(missing_ok=True)
    files.clear()


def _remove_orphans(directory: Path, owner: str) -> None:
    """Removes `owner`'s files whose process is gone (a restarted attempt's predecessor)."""
    for path in directory.glob(f"{owner}-pid*-side*.arrow"):
        match = re.search(r"-pid(\d+)-side", path.name)
        if match and not _alive(int(match.group(1))):
            log.info("removing spill file %s left by process %s, which is gone", path, match.group(1))
            path.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
