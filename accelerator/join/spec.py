"""A `join` descriptor, read and checked once when the stage opens: the sections every join
descriptor has (`sections`), and the regular join's state backend and outer sides."""

from __future__ import annotations

from dataclasses import dataclass

from accelerator.join import sections
from accelerator.sidecar import keyed_state
from accelerator.sidecar.stages import Refuse, parse_descriptor

KEY = keyed_state.KEY
KEY_GROUP = keyed_state.KEY_GROUP
SIDE = sections.SIDE
#: A row's binary form as Flink's RowDataSerializer writes it (RowKind INSERT): RocksDB orders a
#: key's rows by these bytes, and equal bytes are the same row.
ORDER = "$order"
LEFT, RIGHT = sections.LEFT, sections.RIGHT
TRANSPORT = (KEY, KEY_GROUP, SIDE, ORDER)
#: The join types stock runs with StreamingSemiAntiJoinOperator: they emit left rows only (`semi_anti`).
SEMI, ANTI = sections.SEMI, sections.ANTI
#: The `state.backend.type`s whose order of a key's rows the stage reproduces: the hashmap
#: backend's per-key java.util.HashMap (`hashmap_backend`), RocksDB's serialized bytes (`matches`).
HASHMAP, ROCKSDB = "hashmap", "rocksdb"
BACKENDS = (HASHMAP, ROCKSDB)
#: The descriptor's flag for Flink 1.20's order of an outer join's rows (`JoinSpec.retractions_before_joins`).
RETRACTIONS_BEFORE_JOINS = "retractions_before_joins"


@dataclass(frozen=True)
class JoinSpec(sections.JoinSections):
    #: The job's state backend (`state.backend`), one of BACKENDS.
    backend: str
    #: Per input (LEFT, RIGHT), whether it is an outer side (stock's leftIsOuter, rightIsOuter).
    outer: tuple[bool, bool]
    #: Whether an input row's associated records retract all their null-padded rows (-D) before
    #: the first join (+I), as Flink 1.20's StreamingJoinOperator does (it collects the associated
    #: records first); 2.x's retracts each one right before its join (`outer`).
    retractions_before_joins: bool

    @property
    def outer_join(self) -> bool:
        return any(self.outer)


def parse(descriptor: dict) -> JoinSpec:
    return parse_descriptor(descriptor, "join", _parse)


def _parse(descriptor: dict, name: str | None, refuse: Refuse) -> JoinSpec:
    common = sections.read(descriptor, name, refuse, {SIDE: "TINYINT", ORDER: "VARBINARY"}, "joins",
                           "the condition reads and the state keeps (left input's fields, then the right input's)",
                           _filters_nulls)
    retractions_before_joins = descriptor.get(RETRACTIONS_BEFORE_JOINS, False)
    if not isinstance(retractions_before_joins, bool):
        raise refuse(f"{RETRACTIONS_BEFORE_JOINS} is {retractions_before_joins!r}, not true or false")
    backend = (descriptor.get("state") or {}).get("backend")
    if backend not in BACKENDS:
        raise refuse(f"state.backend is {backend!r}; this sidecar reproduces the order of a key's joined rows on"
                     f" the state backends {list(BACKENDS)}")
    return JoinSpec(**common.kwargs(), backend=backend, outer=sections.OUTER_SIDES.get(common.join_type, (False, False)),
                    retractions_before_joins=retractions_before_joins)


def _filters_nulls(join_type: str) -> bool:
    """The operator sends a row whose key has a NULL where the join compares with `=` only where
    stock emits it unmatched (an outer side, a SEMI or ANTI join's left input); an INNER join's
    never reach the stage."""
    return any(sections.OUTER_SIDES.get(join_type, (False, False))) or join_type in (SEMI, ANTI)

