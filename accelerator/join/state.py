"""Both inputs' rows of every key: per side, each distinct row once (its key slot, its `$order`
bytes, its fields) with how often it arrived, as stock's `InputSideHasNoUniqueKey` keeps them in a
`MapState<row, count>`, and, for an outer side, its number of associations (the
`OuterJoinRecordStateViews` value `Tuple2<count, numOfAssociations>`; 0 on an inner side). The
rows of a side live in one Arrow table, appended per batch; its older part may be spilled to
memory-mapped files (`spill`) when the state outgrows its budget. A `row_index.RowIndex` of each
row's key slot and `$order` bytes finds a batch's rows (`SideRows.places`) for every backend and
join type, at a cost per batch row rather than per held row, in 16 bytes per held row; each row's
key slot is also kept in memory (8 bytes), so the rows of given keys are found by one vectorized
pass over those (`places_of`) and a snapshot reads them without the held rows."""

from __future__ import annotations

import logging

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.join import gather
from accelerator.join.row_index import RowIndex, first_of_each, row_key_hashes
from accelerator.join.spec import LEFT, ORDER, RIGHT, JoinSpec
from accelerator.join.sorted_runs import appended
from accelerator.join.spill import SpillFiles
from accelerator.sidecar.key_slots import KeySlots

log = logging.getLogger(__name__)

SLOT = "$slot"
#: Held batches of fewer rows than this at the end of the memory part are combined into one once
#: there are more than _MAX_SMALL_BATCHES of them (each held batch costs a Python object and a
#: step of every lookup; a row is copied at most once for it). The rows of a full batch (thousands)
#: are kept as they came: combining them would copy the state again, into fresh memory.
_SMALL_BATCH_ROWS = 2048
_MAX_SMALL_BATCHES = 16


class SideRows:
    """One input's distinct rows: held as record batches (`$slot`, `$order`, the side's fields: its
    spilled rows, then those in memory; `table` is them all), `slots` (each row's key slot), `count`
    and `associations`, and a `RowIndex` of the rows, kept as rows are appended, so a batch finds
    its rows without reading the held ones, and `take` reads only the batches its places fall in
    (`gather`)."""

    def __init__(self, row_schema: pa.Schema):
        self.schema = pa.schema([pa.field(SLOT, pa.int64(), nullable=False),
                                 pa.field(ORDER, pa.binary(), nullable=False)] + list(row_schema))
        self.slots = np.zeros(0, dtype=np.int64)
        self.count = np.zeros(0, dtype=np.int64)
        self.associations = np.zeros(0, dtype=np.int64)
        self.index = RowIndex()
        #: The bytes of the rows held in memory (the spilled ones are the OS's to page).
        self.table_bytes = 0
        #: The spilled rows, one memory-mapped table per spill file, oldest first, and their batches.
        self._spilled: list[pa.Table] = []
        self._spilled_batches: list[pa.RecordBatch] = []
        #: The rows in memory, a record batch per batch that added rows (`_SMALL_BATCH_ROWS`).
        self._memory: list[pa.RecordBatch] = []
        #: All held batches (spilled, then in memory) and the row number after each.
        self._batches: list[pa.RecordBatch] = []
        #: Their `$order` columns.
        self._orders: list[pa.Array] = []
        self._ends = np.zeros(0, dtype=np.int64)
        #: The last `places` call's rows and answer, which `add` of the same rows takes over.
        self._looked_up: tuple | None = None

    @property
    def table(self) -> pa.Table:
        """Every held row, in place order (a chunk per held batch)."""
        return pa.Table.from_batches(self._batches, self.schema)

    @property
    def num_rows(self) -> int:
        return int(self._ends[-1]) if len(self._ends) else 0

    @property
    def batches(self) -> tuple[list[pa.RecordBatch], np.ndarray]:
        """The held record batches (spilled, then in memory) and the row number after each, for
        `gather.rows`."""
        return list(self._batches), self._ends

    def order_lengths(self) -> np.ndarray:
        """Each held row's `$order` length in bytes, in place order."""
        return np.concatenate([np.zeros(0, dtype=np.int64)] + [
            pc.binary_length(b.column(ORDER)).to_numpy(zero_copy_only=False).astype(np.int64) for b in self._batches])

    def take(self, at: np.ndarray, names: list[str] | None = None) -> pa.Table:
        """The held rows at places `at` (their columns `names`, all by default), one chunk a column."""
        names = self.schema.names if names is None else names
        return gather.rows(self._batches, self._ends, at, names, pa.schema([self.schema.field(n) for n in names]))

    def orders(self, at: np.ndarray) -> pa.Array:
        """The `$order` bytes of the held rows at places `at`, as one array (`gather.binary`)."""
        return gather.binary(self._orders, self._ends, at)

    @property
    def index_bytes(self) -> int:
        return self.index.nbytes

    def places_of(self, slots: np.ndarray) -> np.ndarray:
        """The places of every row held for the key slots `slots`, ascending (one vectorized pass
        over the held rows' slots: an index by slot would take more memory the spill cannot free)."""
        if len(slots) == 0 or self.num_rows == 0:
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero(np.isin(self.slots, np.asarray(slots, dtype=np.int64), kind="table"))

    @property
    def spilled_rows(self) -> int:
        return sum(part.num_rows for part in self._spilled)

    def places(self, slots: np.ndarray, orders: pa.Array) -> tuple[np.ndarray, np.ndarray]:
        """For rows of this side (their key slots and `$order` bytes, in arrival order): each row's
        place once `add` took them (a held row keeps its place, a new distinct row comes after the
        held ones in order of first arrival) and whether the row is a new distinct row's first
        arrival."""
        slots = np.asarray(slots, dtype=np.int64)
        orders = orders.combine_chunks() if isinstance(orders, pa.ChunkedArray) else orders
        hashes = row_key_hashes(slots, orders)
        places = self.index.find(hashes, lambda held, rows: self._holds(held, slots[rows], _take(orders, rows)))
        first = np.zeros(len(slots), dtype=bool)
        unknown = np.flatnonzero(places < 0)
        if len(unknown):
            firsts = first_of_each(hashes[unknown], lambda a, b: (slots[unknown[a]] == slots[unknown[b]]) & _equal(
                _take(orders, unknown[a]), _take(orders, unknown[b])))
            is_first = firsts == np.arange(len(unknown))
            new_place = self.num_rows + np.cumsum(is_first) - 1
            places[unknown] = new_place[firsts]
            first[unknown[is_first]] = True
        self._looked_up = (self.num_rows, slots, orders, hashes, places, first)
        return places, first

    def add(self, rows: pa.Table, counts: np.ndarray) -> None:
        """Adds `rows` (this side's schema), each `counts` times: a row already held (same slot and
        `$order`) counts up, another is appended after the held ones, in the order rows first came."""
        if rows.num_rows == 0:
            return
        slots = rows.column(SLOT).to_numpy()
        orders = rows.column(ORDER).combine_chunks()
        hashes, places, first = self._looked_up_again(slots, orders)
        self._looked_up = None
        arrivals = np.flatnonzero(first)
        held = self.num_rows
        self.count = appended(self.count, np.zeros(len(arrivals), dtype=np.int64))
        np.add.at(self.count, places, np.asarray(counts, dtype=np.int64))
        if len(arrivals) == 0:
            return
        # Every row new (each held row distinct, as in most batches): kept as they are, not copied.
        taken = rows.combine_chunks() if len(arrivals) == rows.num_rows \
            else rows.take(pa.array(arrivals, pa.int64())).combine_chunks()
        self._memory += [b for b in taken.to_batches() if b.num_rows]
        small = next((i for i, b in enumerate(reversed(self._memory)) if b.num_rows >= _SMALL_BATCH_ROWS),
                     len(self._memory))
        if small > _MAX_SMALL_BATCHES:
            self._memory[-small:] = pa.Table.from_batches(self._memory[-small:], self.schema).combine_chunks().to_batches()
        self._held_batches_changed()
        self.table_bytes += taken.nbytes
        self.associations = appended(self.associations, np.zeros(len(arrivals), dtype=np.int64))
        self.slots = appended(self.slots, slots[arrivals])
        self.index.insert(hashes[arrivals], held + np.arange(len(arrivals), dtype=np.int64))

    def spill(self, files: SpillFiles, side: int) -> int:
        """Moves the rows held in memory to a file of `files` (read back mapped); the bytes moved."""
        moved = self.table_bytes
        if not self._memory:
            return 0
        memory = pa.Table.from_batches(self._memory, self.schema)
        self._spilled = files.merged(side, self._spilled + [files.write(side, memory)])
        self._spilled_batches = [b for part in self._spilled for b in part.to_batches() if b.num_rows]
        self._memory = []
        self._held_batches_changed()
        self.table_bytes = 0
        return moved

    def _held_batches_changed(self) -> None:
        self._batches = self._spilled_batches + self._memory
        self._orders = [b.column(ORDER) for b in self._batches]
        self._ends = np.cumsum(np.fromiter((b.num_rows for b in self._batches), dtype=np.int64,
                                           count=len(self._batches)))

    def _looked_up_again(self, slots: np.ndarray, orders: pa.Array) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The hashes, places and first arrivals of the rows: the last `places` answer when it was
        for these same rows with nothing added since, else a new lookup."""
        if self._looked_up is not None:
            held, looked_slots, looked_orders, hashes, places, first = self._looked_up
            if held == self.num_rows and np.array_equal(looked_slots, slots) and looked_orders.equals(orders):
                return hashes, places, first
        places, first = self.places(slots, orders)
        return self._looked_up[3], places, first

    def _holds(self, held: np.ndarray, slots: np.ndarray, orders: pa.Array) -> np.ndarray:
        """Per pair, whether held row `held[i]` has key slot `slots[i]` and `$order` bytes `orders[i]`."""
        same_slot = self.slots[held] == slots
        return same_slot & _equal(self.orders(held), orders)


def _take(values: pa.Array, at: np.ndarray) -> pa.Array:
    return values.take(pa.array(at, pa.int64()))


def _equal(a: pa.Array, b: pa.Array) -> np.ndarray:
    a = a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a
    b = b.combine_chunks() if isinstance(b, pa.ChunkedArray) else b
    return pc.equal(a, b).to_numpy(zero_copy_only=False)


class JoinState:
    def __init__(self, spec: JoinSpec):
        self.spec = spec
        self.sides = (SideRows(spec.side_schema(LEFT)), SideRows(spec.side_schema(RIGHT)))
        self.key_slots = KeySlots(lambda capacity: None)
        self.spill_files = SpillFiles(spec.name)

    @property
    def entries(self) -> int:
        return self.key_slots.entries

    def nbytes(self) -> int:
        """The state's bytes in memory, counted against its budget (spilled rows are not)."""
        return self.key_slots.nbytes() + sum(s.table_bytes + s.index_bytes + s.slots.nbytes + s.count.nbytes
                                             + s.associations.nbytes for s in self.sides)

    def spill(self, held: int, budget: int, directory: str | None, subtask: str | None) -> int:
        """Moves both sides' rows held in memory to spill files in `directory` (the process's temp
        directory when None), because the state's `held` bytes outgrew its `budget`; the bytes moved."""
        first = self.spill_files.directory is None
        where = self.spill_files.place(directory, subtask)
        if first:
            log.info("stage %r (subtask %s): the join's state (%d bytes in memory) outgrew its budget of %d bytes;"
                     " its held rows now spill to Arrow files in %s, read back memory-mapped", self.spec.name,
                     subtask or "unknown", held, budget, where)
        return sum(rows.spill(self.spill_files, side) for side, rows in ((LEFT, self.sides[LEFT]),
                                                                         (RIGHT, self.sides[RIGHT])))
