"""The `join` stage: the sidecar half of an accelerated regular join.

The JVM operator keeps Flink's control flow (keys, watermarks, checkpoints) and sends both inputs'
rows in one batch, in arrival order; the stage keeps every key's rows of both inputs and answers
each batch with what stock Flink's StreamingJoinOperator emits for its rows, in the order of the
job's state backend (`hashmap_backend` for the hashmap backend, `matches` for RocksDB). Calls,
named in the request schema's metadata as every stateful stage's are
(`accelerator.sidecar.state_calls`):

- `update`: rows in arrival order (`$key`, `$key_group`, `$side`, `$order`, then the joined row's
  fields with the other input's left NULL); answers `$row` (the batch row), `$kind` and the
  joined row of every row to emit, in emission order: with a non-equi condition, only the joined
  rows it holds for (`condition`). An INNER join emits +I only; a LEFT, RIGHT or FULL join also
  null-padded +I rows and the -D retracting them at an outer row's first match (`outer`); a SEMI
  or ANTI join emits left rows only, +I, and for ANTI the -D of a left row at its first match
  (`semi_anti`).
- `snapshot` / `restore`: the state as Arrow rows (`$key_group`, `$key`, `$side`, `$count`,
  `$associations`, `$order`, then, at a restore and in a snapshot of a descriptor's `state.format`
  3, the joined row's fields with the other input's NULL: from format 4 the operator writes the
  rows without them and reads them back from `$order`), one per distinct row of a key and
  side, grouped by key group and within it by key, for Flink's raw keyed state, each key's rows of a side in its HashMap's
  iteration order on the hashmap backend; restore takes only key groups of the subtask's range and
  refills each key's HashMap in that order as a heap restore does, so rescaling needs nothing else
  (the RocksDB order is the rows' bytes').
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import timestamps
from accelerator.join import gather, hashmap_backend, matches, outer, semi_anti, spec as specs
from accelerator.join.condition import open_condition
from accelerator.join.spec import LEFT, ORDER, RIGHT, SIDE
from accelerator.join.state import SLOT, JoinState, SideRows
from accelerator.sidecar import keyed_state, snapshot_pieces, state_calls
from accelerator.sidecar.row_kinds import INSERT
from accelerator.sidecar.stages import register

KIND = "join"
ROW, CHANGE, EMPTY = keyed_state.ROW, keyed_state.CHANGE, keyed_state.EMPTY
#: How often a state row arrived on its side.
COUNT = "$count"
#: An outer side's row's number of associations (stock's numOfAssociations; 0 on an inner side).
ASSOCIATIONS = "$associations"
#: The state payload format this sidecar writes (JoinStateFormat.VERSION in the jar): 2 writes each
#: key's rows of a side in its hashmap backend iteration order, 3 adds each row's number of
#: associations, 4 leaves out the rows' keys and fields, which their `$order` bytes give (half of a
#: checkpoint's bytes): the operator makes them again at a restore (JoinStateRows), so a restore
#: call carries format 3's rows whichever of the two the checkpoint holds. A descriptor of
#: `state.format` 3 (a jar before 4) still gets format 3's snapshots.
STATE_FORMAT_VERSION = 4
#: The formats whose rows a restore call carries (the same rows).
RESTORED_FORMATS = (3, 4)


class JoinStateError(ValueError):
    """State that cannot be restored into this stage."""


class JoinStage:
    def __init__(self, descriptor: dict):
        self.spec = specs.parse(descriptor)
        self.name = self.spec.name
        self.state = JoinState(self.spec)
        self.condition = open_condition(self.name, self.spec.condition, self.spec.joined_schema)
        self.key_maps = hashmap_backend.KeyMaps(self.state) if self.spec.backend == specs.HASHMAP else None
        self.state_schema = pa.schema(
            [pa.field(specs.KEY_GROUP, pa.int32(), nullable=False), pa.field(specs.KEY, pa.binary(), nullable=False),
             pa.field(SIDE, pa.int8(), nullable=False), pa.field(COUNT, pa.int64(), nullable=False),
             pa.field(ASSOCIATIONS, pa.int64(), nullable=False), pa.field(ORDER, pa.binary(), nullable=False)]
            + list(self.spec.input_schema)[len(specs.TRANSPORT):])
        self.answer_schema = pa.schema([pa.field(ROW, pa.int32(), nullable=False),
                                        pa.field(CHANGE, pa.int8(), nullable=False)] + list(self.spec.output_schema))
        self._calls = {"update": self.update, "snapshot": self.snapshot, "restore": self.restore}

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        return keyed_state.run_call(self.name, KIND, self._calls, self.state, batch)

    def update(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        keyed_state.check_columns(self.name, batch, self.spec.input_schema, "update")
        sides = self._sides(batch)
        slots, _ = self.state.key_slots.slots(batch.column(specs.KEY),
                                              batch.column(specs.KEY_GROUP).to_numpy(zero_copy_only=False))
        orders = batch.column(ORDER)
        out = matches.emit(self.state, slots, sides, orders) if self.key_maps is None \
            else hashmap_backend.emit(self.state, self.key_maps, slots, sides, orders)
        table = pa.Table.from_batches([batch])
        pools = [self._pool(table, side) for side in (LEFT, RIGHT)]
        keep = None if self.condition is None else self.condition.holds(
            pa.RecordBatch.from_arrays(self._values(pools, out.left, out.right), schema=self.spec.joined_schema))
        if self.spec.semi_anti:
            rows, kinds, values = self._semi_anti(batch, table, sides, slots, orders, out, keep, pools)
        elif self.spec.outer_join:
            rows, kinds, values = self._outer(batch, table, sides, slots, orders, out, keep, pools)
        else:
            rows, left, right = (out.rows, out.left, out.right) if keep is None \
                else (out.rows[keep], out.left[keep], out.right[keep])
            kinds, values = np.full(len(rows), INSERT, dtype=np.int8), self._values(pools, left, right)
            self._add(table, slots, sides)
        self._check_budget(batch)
        columns = [pa.array(rows.astype(np.int32), pa.int32()), pa.array(kinds, pa.int8())] + values
        return pa.RecordBatch.from_arrays(columns, schema=self.answer_schema)

    def _outer(self, batch: pa.RecordBatch, table: pa.Table, sides: np.ndarray, slots: np.ndarray, orders: pa.Array,
               candidates: matches.Emission, keep: np.ndarray | None, pools: list[tuple[SideRows, pa.Table]]):
        """An outer join's rows, kinds and values for the batch (`outer`), its rows then added to
        the state with their sides' new numbers of associations."""
        pairs, own_places, new_rows = self._associated(batch, sides, slots, orders, candidates, keep)
        emission, associations = outer.resolve(self.spec, self.state, sides, own_places, new_rows, pairs)
        values = self._values(pools, emission.left, emission.right)
        self._add_with_associations(table, slots, sides, associations)
        return emission.rows, emission.kinds, values

    def _semi_anti(self, batch: pa.RecordBatch, table: pa.Table, sides: np.ndarray, slots: np.ndarray,
                   orders: pa.Array, candidates: matches.Emission, keep: np.ndarray | None, pools: list[tuple[SideRows, pa.Table]]):
        """A SEMI or ANTI join's rows, kinds and left rows for the batch (`semi_anti`), its rows then
        added to the state with the left side's new numbers of associations."""
        pairs, own_places, new_rows = self._associated(batch, sides, slots, orders, candidates, keep)
        emission, associations = semi_anti.resolve(self.spec, self.state, sides, own_places, new_rows, pairs)
        values = _pool_rows(pools[LEFT], emission.left)
        self._add_with_associations(table, slots, sides, associations)
        return emission.rows, emission.kinds, values

    def _associated(self, batch: pa.RecordBatch, sides: np.ndarray, slots: np.ndarray, orders: pa.Array,
                    candidates: matches.Emission, keep: np.ndarray | None):
        """Each batch row's associated records (`candidates` the condition holds for, none for a row
        whose key has a NULL where the join compares with `=`), each row's place in its side's state
        and how many new distinct rows each side gets."""
        joins = ~self.spec.null_keyed(batch, sides)[candidates.rows]
        keep = joins if keep is None else keep & joins
        pairs = matches.Emission(candidates.rows[keep], candidates.left[keep], candidates.right[keep])
        own_places = np.zeros(len(sides), dtype=np.int64)
        new_rows = [0, 0]
        for side in (LEFT, RIGHT):
            mine = np.flatnonzero(sides == side)
            own_places[mine], first = self.state.sides[side].places(slots[mine],
                                                                    orders.take(pa.array(mine, pa.int64())))
            new_rows[side] = int(first.sum())
        return pairs, own_places, (new_rows[LEFT], new_rows[RIGHT])

    def _add_with_associations(self, table: pa.Table, slots: np.ndarray, sides: np.ndarray,
                               associations: tuple[np.ndarray, np.ndarray]) -> None:
        self._add(table, slots, sides)
        for side in (LEFT, RIGHT):
            if len(associations[side]) != self.state.sides[side].num_rows:
                raise AssertionError(f"stage {self.name!r}: {len(associations[side])} association numbers for"
                                     f" {self.state.sides[side].num_rows} rows of side {side}")
            self.state.sides[side].associations = associations[side]

    def _pool(self, table: pa.Table, side: int) -> tuple[SideRows, pa.Table]:
        """A side's values by pool index: its held rows, then the batch's rows (its fields)."""
        return self.state.sides[side], table.select(self.spec.side_schema(side).names)

    def _values(self, pools: list[tuple[SideRows, pa.Table]], left: np.ndarray, right: np.ndarray) -> list[pa.Array]:
        """The joined rows' columns: each side's pool rows at `left` / `right` (outer.NULL: NULLs)."""
        return _pool_rows(pools[LEFT], left) + _pool_rows(pools[RIGHT], right)

    def _add(self, table: pa.Table, slots: np.ndarray, sides: np.ndarray) -> None:
        for side in (LEFT, RIGHT):
            mine = np.flatnonzero(sides == side)
            self.state.sides[side].add(self._side_rows(self._own(table, side).take(pa.array(mine, pa.int64())), slots[mine], side),
                                       np.ones(len(mine), dtype=np.int64))

    def snapshot(self, batch: pa.RecordBatch) -> pa.RecordBatch | snapshot_pieces.Deferred:
        sides = (self.state.sides[LEFT], self.state.sides[RIGHT])
        at, slots = self._written_order()
        numbers = {specs.KEY_GROUP: self.state.key_slots.key_group[slots].astype(np.int32),
                   SIDE: (at >= sides[LEFT].num_rows).astype(np.int8),
                   COUNT: np.concatenate([rows.count for rows in sides])[at],
                   ASSOCIATIONS: np.concatenate([rows.associations for rows in sides])[at]}
        if self.spec.state_format < STATE_FORMAT_VERSION:
            return self._snapshot_with_fields(at, slots, numbers)
        # Format 4 leaves each row's key and fields out: its `$order` bytes give them (JoinStateRows
        # in the jar). Those are gathered a piece at a time, as the JVM asks for each.
        schema = pa.schema([self.state_schema.field(name) for name in [*numbers, ORDER]],
                           metadata=keyed_state.state_metadata(STATE_FORMAT_VERSION, self.spec.fingerprint))
        left, right = sides[LEFT].batches, sides[RIGHT].batches
        columns = [b.column(ORDER) for b in left[0] + right[0]]
        ends = np.concatenate([left[1], sides[LEFT].num_rows + right[1]])

        def rows(first: int, count: int) -> pa.RecordBatch:
            part = slice(first, first + count)
            orders = gather.binary(columns, ends, at[part])
            return pa.RecordBatch.from_arrays([pa.array(values[part]) for values in numbers.values()] + [orders],
                                              schema=schema)

        # A row's Arrow bytes: its numbers, its `$order` offset and bytes.
        fixed = sum(values.itemsize for values in numbers.values()) + 4
        lengths = np.concatenate([rows.order_lengths() for rows in sides])[at]
        return snapshot_pieces.Deferred(numbers[specs.KEY_GROUP], fixed + lengths, rows)

    def _snapshot_with_fields(self, at: np.ndarray, slots: np.ndarray,
                              numbers: dict[str, np.ndarray]) -> pa.RecordBatch:
        """A snapshot of format 3: the rows `at` (places of both sides, the right side's after the
        left's; their key slots `slots`) with their `numbers`, keys, `$order` and fields."""
        sides = (self.state.sides[LEFT], self.state.sides[RIGHT])
        first_of_key = np.diff(slots, prepend=-1) != 0  # a key's rows are next to each other
        keys = self.state.key_slots.keys(slots[first_of_key]).take(pa.array(np.cumsum(first_of_key) - 1))
        columns = {specs.KEY_GROUP: pa.array(numbers[specs.KEY_GROUP]), specs.KEY: keys,
                   **{name: pa.array(numbers[name]) for name in (SIDE, COUNT, ASSOCIATIONS)}}
        for f in list(self.state_schema)[len(columns):]:
            parts = []
            for side, rows in ((LEFT, sides[LEFT]), (RIGHT, sides[RIGHT])):
                if f.name == ORDER or f.name in self.spec.side_schema(side).names:
                    parts += rows.table.column(f.name).cast(f.type).chunks
                else:
                    parts.append(timestamps.nulls(f.type, rows.num_rows))
            columns[f.name] = gather.column(pa.chunked_array(parts, f.type), at)
        metadata = keyed_state.state_metadata(3, self.spec.fingerprint)
        return pa.RecordBatch.from_arrays(list(columns.values()), schema=self.state_schema.with_metadata(metadata))

    def _written_order(self) -> tuple[np.ndarray, np.ndarray]:
        """The rows in the order a snapshot writes them, as places of both sides (the right side's
        after the left's), and their key slots: by key group, a key's rows next to each other (a
        restore cut by rows gathers them again, `restore_pieces`), its left rows then its right
        ones, each side's in the order written (its HashMap's iteration order on the hashmap
        backend, else place order)."""
        key_slots = self.state.key_slots
        by_group = np.argsort(key_slots.key_group, kind="stable")
        rank = np.empty(len(by_group), dtype=np.int64)
        rank[by_group] = np.arange(len(by_group))  # each slot's place in (key group, slot) order
        places = []
        for side in (LEFT, RIGHT):
            rows = self.state.sides[side]
            places.append(np.argsort(rank[rows.slots], kind="stable") if self.key_maps is None
                          else self.key_maps.iteration_order(side, rank))
        held_left = self.state.sides[LEFT].num_rows
        slots = np.concatenate([self.state.sides[side].slots[places[side]] for side in (LEFT, RIGHT)])
        # Two runs, each by rank: a stable sort merges them, a key's left rows first.
        merged = np.argsort(rank[slots], kind="stable")
        return np.concatenate([places[LEFT], held_left + places[RIGHT]])[merged], slots[merged]

    def restore(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        written = state_calls.long(batch, state_calls.STATE_FORMAT)
        if written not in RESTORED_FORMATS:
            by = "a newer" if written > STATE_FORMAT_VERSION else "an older"
            formats = " and ".join(map(str, RESTORED_FORMATS))
            raise JoinStateError(f"stage {self.name!r}: state written by {by} flink-accelerator in state format"
                                 f" {written}; this sidecar restores formats {formats}: restore it with the release"
                                 f" that wrote it, or start the job without state")
        keyed_state.check_state_format(self.name, batch, written, self.spec.fingerprint,
                                       JoinStateError, "join", "keys, either input's row or the state backend")
        keyed_state.check_columns(self.name, batch, self.state_schema, "restore")
        key_groups = keyed_state.restored_key_groups(self.name, batch, JoinStateError)
        keys = batch.column(specs.KEY)
        keyed_state.check_new_keys(self.name, pc.unique(keys), self.state.key_slots.holds, JoinStateError)
        sides = self._sides(batch)
        slots, _ = self.state.key_slots.slots(keys, key_groups)
        table = pa.Table.from_batches([batch])
        counts = batch.column(COUNT).to_numpy(zero_copy_only=False)
        associations = batch.column(ASSOCIATIONS).to_numpy(zero_copy_only=False)
        for side in (LEFT, RIGHT):
            mine = np.flatnonzero(sides == side)
            held = self.state.sides[side].num_rows
            self.state.sides[side].add(self._side_rows(self._own(table, side).take(pa.array(mine, pa.int64())), slots[mine], side), counts[mine])
            self.state.sides[side].associations[held:] = associations[mine]
            if self.key_maps is not None:
                self.key_maps.restore(side, slots[mine], held + np.arange(len(mine)), batch.column(ORDER).take(pa.array(mine)))
        self._check_budget(batch)
        return EMPTY

    def _sides(self, batch: pa.RecordBatch) -> np.ndarray:
        sides = batch.column(SIDE).to_numpy(zero_copy_only=False)
        if len(sides) and not np.isin(sides, (LEFT, RIGHT)).all():
            raise JoinStateError(f"stage {self.name!r}: a row's {SIDE} is {int(sides[~np.isin(sides, (LEFT, RIGHT))][0])},"
                                 f" neither {LEFT} (left input) nor {RIGHT} (right input)")
        return sides.astype(np.int64)

    def _own(self, table: pa.Table, side: int) -> pa.Table:
        """The batch's `$order` and the side's own fields (the other side's are NULL on its rows)."""
        return table.select([ORDER] + self.spec.side_schema(side).names)

    def _side_rows(self, rows: pa.Table, slots: np.ndarray, side: int) -> pa.Table:
        """`rows`' slots, `$order` and the side's own fields, as that side's state holds them."""
        held = self.state.sides[side]
        columns = [pa.array(slots, pa.int64()), rows.column(ORDER)] + \
            [rows.column(n) for n in self.spec.side_schema(side).names]
        return pa.Table.from_arrays(columns, schema=held.schema.remove_metadata()).cast(held.schema)

    def _check_budget(self, batch: pa.RecordBatch) -> None:
        held, budget = self._held_bytes(), state_calls.long(batch, state_calls.STATE_BUDGET)
        directory = state_calls.optional_text(batch, state_calls.SPILL_DIRECTORY)
        if held > budget and self.state.spill(held, budget, directory,
                                              state_calls.optional_text(batch, state_calls.SUBTASK_INDEX)):
            held = self._held_bytes()
        keyed_state.check_budget(self.name, "the join's state", f"{self.state.entries} keys", held, batch,
                                 f"its held rows are spilled to files in {self.state.spill_files.directory}; what"
                                 f" outgrew the budget is what stays in memory: the row index, counts and key maps")

    def _held_bytes(self) -> int:
        return self.state.nbytes() + (0 if self.key_maps is None else self.key_maps.nbytes())

    def close(self) -> None:
        """Removes the stage's spill files."""
        self.state.spill_files.close()


def _pool_rows(pool: tuple[SideRows, pa.Table], at: np.ndarray) -> list[pa.Array]:
    """The columns of a pool's rows at `at` (outer.NULL: a NULL row): the held ones taken batch by
    batch (`SideRows.take`), the batch's from the batch, then put in the order asked."""
    held, batch_rows = pool
    at = np.asarray(at, dtype=np.int64)
    valid = at != outer.NULL
    from_held = np.flatnonzero(valid & (at < held.num_rows))
    from_batch = np.flatnonzero(valid & (at >= held.num_rows))
    # All from one place (an inner join's held side, its batch side): taken in the order asked, once.
    if len(from_held) == len(at):
        return [c.combine_chunks() for c in held.take(at, batch_rows.schema.names).cast(batch_rows.schema).columns]
    if len(from_batch) == len(at):
        return [c.combine_chunks() for c in batch_rows.take(pa.array(at - held.num_rows, pa.int64())).columns]
    taken = pa.concat_tables([held.take(at[from_held], batch_rows.schema.names).cast(batch_rows.schema),
                              batch_rows.take(pa.array(at[from_batch] - held.num_rows, pa.int64()))])
    position = np.zeros(len(at), dtype=np.int64)
    position[from_held] = np.arange(len(from_held))
    position[from_batch] = len(from_held) + np.arange(len(from_batch))
    return [c.combine_chunks() for c in taken.combine_chunks().take(pa.array(position, pa.int64(), mask=~valid)).columns]


register(KIND, JoinStage)
