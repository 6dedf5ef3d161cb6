"""What the sidecar does with a batch: a `Stage`, made from a stage descriptor by its kind.

This is the seam for the real work. A module that decodes, runs a plan and encodes calls
`register("<kind>", factory)` at import time and is imported below; the transport, the control
calls and the error replies stay as they are. A stage raises to fail a batch: an exception with an
integer `row` attribute (like `accelerator.formats.FormatError`) names the offending row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Callable, Protocol, TypeVar

import pyarrow as pa

#: Version of the stage descriptor format (its "protocol" field).
DESCRIPTOR_PROTOCOL = 1

#: The kind of a descriptor without a "kind" field: what the planner exports (`segment_stage`).
DEFAULT_KIND = "segment"


class Stage(Protocol):
    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch | Sequence[pa.RecordBatch]:
        """The output batch for one input batch (or several, which the response body holds as
        one stream each, in order). Called for one batch at a time."""


StageFactory = Callable[[dict], Stage]
T = TypeVar("T")

_FACTORIES: dict[str, StageFactory] = {}


class DescriptorError(ValueError):
    """The stage descriptor cannot be run by this sidecar."""


#: Makes the DescriptorError of one reason a stage cannot be run: `raise refuse("...")`.
Refuse = Callable[[str], DescriptorError]


def refusal(name: str | None) -> Refuse:
    """The `Refuse` of the stage named `name`: its errors start with the stage's name."""
    def refuse(reason: str) -> DescriptorError:
        return DescriptorError(f"stage {name!r}: {reason}")
    return refuse


def parse_descriptor(descriptor: dict, kind: str, parse: Callable[[dict, str | None, Refuse], T]) -> T:
    """`parse(descriptor, name, refuse)` with the stage's name and `refusal`, its missing keys and
    wrong types reported as a malformed `kind` descriptor of that stage (a DescriptorError names
    the stage already)."""
    name = descriptor.get("name")
    refuse = refusal(name)
    try:
        return parse(descriptor, name, refuse)
    except DescriptorError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise refuse(f"malformed {kind} descriptor ({type(exc).__name__}: {exc})") from exc


def register(kind: str, factory: StageFactory) -> None:
    """Makes descriptors with `"kind": kind` run as `factory(descriptor)`."""
    if kind in _FACTORIES:
        raise ValueError(f"stage kind {kind!r} is registered twice")
    _FACTORIES[kind] = factory


def create(descriptor: dict) -> Stage:
    """The stage a parsed descriptor asks for."""
    if not isinstance(descriptor, dict):
        raise DescriptorError("a stage descriptor is a JSON object")
    protocol = descriptor.get("protocol")
    if protocol != DESCRIPTOR_PROTOCOL:
        raise DescriptorError(f"descriptor protocol {protocol!r}; this sidecar runs protocol"
                              f" {DESCRIPTOR_PROTOCOL}. Install the accelerator package that"
                              f" matches the flink-accelerator jar")
    kind = descriptor.get("kind", DEFAULT_KIND)
    if kind not in _FACTORIES:
        raise DescriptorError(f"unknown stage kind {kind!r}; this sidecar runs {sorted(_FACTORIES)}")
    return _FACTORIES[kind](descriptor)


class IdentityStage:
    """Hands every batch back unchanged; it exercises the transport without any plan. Like a real
    stage it refuses a batch whose columns are not the descriptor's input fields."""

    def __init__(self, descriptor: dict):
        fields = descriptor.get("input", {}).get("fields")
        self._names = None if fields is None else [f["name"] for f in fields]

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        if self._names is not None and batch.schema.names != self._names:
            raise ValueError(f"batch columns {batch.schema.names} are not the stage's input fields"
                             f" {self._names}")
        return batch


register("identity", IdentityStage)


# Register the default kind, the encode kind, the window and group aggregates, the deduplication, the Top-N,
# the join, the OVER aggregate, the group window aggregate and the window join; imported last because they register themselves through this module.
from accelerator.sidecar import encode_stage, segment_stage  # noqa: E402,F401
from accelerator.windowagg import stage as window_agg_stage  # noqa: E402,F401
from accelerator.groupagg import stage as group_agg_stage  # noqa: E402,F401
from accelerator.dedup import stage as dedup_stage  # noqa: E402,F401
from accelerator.rank import stage as top_n_stage  # noqa: E402,F401
from accelerator.join import stage as join_stage  # noqa: E402,F401
from accelerator.over import stage as over_agg_stage  # noqa: E402,F401
from accelerator.groupwindow import stage as group_window_stage  # noqa: E402,F401
from accelerator.windowjoin import stage as window_join_stage  # noqa: E402,F401
