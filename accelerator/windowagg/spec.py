"""A `window_agg` descriptor, read and checked once when the stage opens.

The planner exports what stock Flink's exec node derived (docs/design/stateful-window-aggregate.md
§2); this module refuses anything this sidecar would not compute exactly as Flink does, so a
mismatch between the jar and the sidecar shows at open, not as different output.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pyarrow as pa

from accelerator.formats import types
from accelerator.sidecar.keyed_state import KEY, KEY_GROUP
from accelerator.sidecar.stages import Refuse, parse_descriptor

TIME = "$time"
WINDOW_END = "window_end"

PHASES = ("single", "global")
FUNCTIONS = ("count1", "count", "sum", "min", "max", "avg", "sum_retract")
#: Functions only a group aggregate over an updating input runs (`SumWithRetractAggFunction`).
RETRACTING_FUNCTIONS = ("sum_retract",)
#: Argument types SUM runs on (DECIMAL at any precision and scale).
SUM_ROOTS = ("TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL")
#: Argument types MIN/MAX run on: the numbers and the types `ordered_extremes` compares.
EXTREME_ROOTS = SUM_ROOTS + ("BOOLEAN", "CHAR", "VARCHAR", "DATE", "TIME", "TIMESTAMP", types.TIMESTAMP_LTZ)
#: AVG's argument types by the type of its sum (`AvgAggFunction.getSumType`); the result is the
#: argument's type, DECIMAL's `LogicalTypeMerging.findAvgAggType`.
AVG_SUM_ROOTS = {"TINYINT": "BIGINT", "SMALLINT": "BIGINT", "INT": "BIGINT", "BIGINT": "BIGINT",
                 "FLOAT": "DOUBLE", "DOUBLE": "DOUBLE", "DECIMAL": "DECIMAL"}
#: AVG's count field (`AvgAggFunction.getAggBufferTypes`), and a retracting SUM's.
AVG_COUNT = types.DataType("BIGINT")
WINDOW_PROPERTIES = ("window_start", "window_end", "window_time")
#: Flink's largest DECIMAL precision: a DECIMAL sum's accumulator (`LogicalTypeMerging.findSumAggType`).
MAX_DECIMAL_PRECISION = 38


WINDOW_TYPES = ("tumble", "hop", "cumulate")


@dataclass(frozen=True)
class Window:
    """A TUMBLE, HOP or CUMULATE window in Flink's shifted ("UTC wall clock") millisecond space,
    cut into slices as Flink's `SliceAssigners` cut it: a TUMBLE window is its one slice; a HOP
    window of `size` sliding by `slide` (a divisor of the size) is `size / slide` slices of `slide`
    ms, each shared by as many windows; a CUMULATE window of max size `size` and step `slide` is
    `size / slide` slices of `slide` ms, and its windows [start, start + k * slide) share the
    first slice, into which each fired window's last slice is merged."""

    size_ms: int
    offset_ms: int
    zone_offset_ms: int
    slide_ms: int
    cumulative: bool = False

    @property
    def shared(self) -> bool:
        """Whether slices are shared between windows (stock's `SliceSharedAssigner`)."""
        return self.slide_ms != self.size_ms

    @property
    def hopping(self) -> bool:
        return self.shared and not self.cumulative

    @property
    def slices_per_window(self) -> int:
        return self.size_ms // self.slide_ms


@dataclass(frozen=True)
class Aggregate:
    """One aggregate call: its function, the input column it reads (None for COUNT(*) in phase
    single; in phase global its partial accumulator's first field, `count_arg` AVG's partial
    count), its accumulator type (AVG: of its sum), whether its value is part of the output row
    and that value's type (the accumulator's but for AVG)."""

    function: str
    arg: str | None
    acc: types.DataType
    emit: bool
    result: types.DataType
    count_arg: str | None = None
    #: The BOOLEAN input column of a FILTER (WHERE ...) clause (phase single): only rows where it
    #: is TRUE are accumulated; the global phase merges partials the local phase filtered.
    filter: str | None = None

    @property
    def acc_arrow(self) -> pa.DataType:
        return types.to_arrow(self.acc)

    @property
    def acc_types(self) -> tuple[types.DataType, ...]:
        """The accumulator's fields, as checkpoints and partials hold them."""
        return (self.acc, AVG_COUNT) if self.function in ("avg", "sum_retract") else (self.acc,)

    @property
    def result_arrow(self) -> pa.DataType:
        return types.to_arrow(self.result)


@dataclass(frozen=True)
class WindowAggSpec:
    name: str | None
    phase: str
    window: Window
    input_schema: pa.Schema
    aggregates: tuple[Aggregate, ...]
    window_properties: tuple[str, ...]
    #: The emitted values then the window properties (the output row without its keys), as the
    #: fire answer carries them after `$key` and `$window_end`.
    output_fields: tuple[pa.Field, ...]
    #: The Flink type of each window property (window_time is TIMESTAMP_LTZ(3) for an LTZ rowtime).
    property_types: tuple[types.DataType, ...]
    state_format: int
    fingerprint: str | None

    @property
    def count_star(self) -> int | None:
        """Index of the COUNT(*) aggregate whose zero marks an empty window (stock's
        `WindowIsEmptySupplier`), or None. `AggregateInfoList.getIndexOfCountStar()` is -1 for a
        TUMBLE or CUMULATE window aggregate, which derives no input count, so a query's own COUNT(*)
        at 0 (merged partials) is emitted there; a HOP aggregate always derives one (the query's
        first COUNT(*), else a hidden one), and its empty windows are neither emitted nor followed
        by the next window's timer."""
        if self.window.hopping:
            return next((i for i, a in enumerate(self.aggregates) if a.function == "count1"), None)
        return next((i for i, a in enumerate(self.aggregates) if a.function == "count1" and not a.emit), None)


def parse(descriptor: dict) -> WindowAggSpec:
    return parse_descriptor(descriptor, "window_agg", _parse)


def window_of(w: dict) -> Window:
    """The window of a descriptor's `window` section (the planner's `SlicedWindow` tree); a
    missing or malformed field raises KeyError or ValueError."""
    size = int(w["size_ms"])
    # The slice length: a HOP window's slide, a CUMULATE window's step, a TUMBLE window's size.
    slide = int(w["slide_ms"] if w["type"] == "hop" else w["step_ms"] if w["type"] == "cumulate" else size)
    return Window(size, int(w.get("offset_ms", 0)), int(w.get("zone_offset_ms", 0)), slide, w["type"] == "cumulate")


def _parse(descriptor: dict, name: str | None, refuse: Refuse) -> WindowAggSpec:
    phase = descriptor["phase"]
    if phase not in PHASES:
        raise refuse(f"phase {phase!r}; this sidecar runs {list(PHASES)}")
    w = descriptor["window"]
    if w.get("type") not in WINDOW_TYPES:
        raise refuse(f"window type {w.get('type')!r}; this sidecar runs {list(WINDOW_TYPES)}")
    window = window_of(w)
    if window.size_ms <= 0 or window.slide_ms <= 0:
        raise refuse(f"window size {window.size_ms} ms or slide {window.slide_ms} ms is not positive")
    if window.size_ms % window.slide_ms != 0:
        raise refuse(f"window size {window.size_ms} ms is no multiple of the slide {window.slide_ms} ms;"
                     f" stock Flink's slicing refuses such a {w['type'].upper()} window")
    if (window.offset_ms - window.zone_offset_ms) % window.slide_ms != 0:
        raise refuse("window ends are not epoch-aligned to the slide ((offset - zone offset) mod slide != 0);"
                     " stock Flink fires such windows late, so the planner keeps them stock")

    fields = [(f["name"], types.parse(f["type"])) for f in descriptor["input"]["fields"]]
    input_schema = pa.schema([types.to_arrow_field(n, t) for n, t in fields])
    input_types = dict(fields)
    expected_head = [KEY, KEY_GROUP, TIME]
    if [n for n, _ in fields[:3]] != expected_head:
        raise refuse(f"input fields start {[n for n, _ in fields[:3]]}, not {expected_head}")

    aggregates = tuple(_aggregate(a, phase, input_types, refuse) for a in descriptor["aggregates"])
    if any(a.function in RETRACTING_FUNCTIONS for a in aggregates):
        raise refuse(f"a window aggregate has no retracting input; {list(RETRACTING_FUNCTIONS)} are the group"
                     " aggregate's")
    properties = tuple(descriptor.get("window_properties") or ())
    for p in properties:
        if p not in WINDOW_PROPERTIES:
            raise refuse(f"window property {p!r}; this sidecar emits {list(WINDOW_PROPERTIES)}")

    # The exec node's output row: the keys, the emitted values, the window properties. The JVM
    # emits Flink's own key object before the values, so the fire answer carries the rest.
    keys = [k["name"] for k in descriptor.get("keys", [])]
    output = [(f["name"], types.parse(f["type"])) for f in descriptor["output"]["fields"]]
    if [n for n, _ in output[:len(keys)]] != keys:
        raise refuse(f"output fields start {[n for n, _ in output[:len(keys)]]}, not the keys {keys}")
    output = output[len(keys):]
    emitted = [a for a in aggregates if a.emit]
    if len(output) != len(emitted) + len(properties):
        raise refuse(f"{len(output)} output fields for {len(emitted)} emitted aggregates and"
                     f" {len(properties)} window properties")
    results = iter(output)
    aggregates = tuple(with_result(a, next(results), input_types, refuse) if a.emit else a for a in aggregates)
    for (field_name, field_type), prop in zip(output[len(emitted):], properties):
        if field_type.root not in ("TIMESTAMP", types.TIMESTAMP_LTZ) or field_type.params != (3,):
            raise refuse(f"window property {prop!r} as {field_type.serializable()}; Flink emits TIMESTAMP(3)"
                         f" (window_time of an LTZ rowtime: TIMESTAMP_LTZ(3))")
    output_fields = tuple(types.to_arrow_field(n, t) for n, t in output)

    state = descriptor.get("state") or {}
    if window.hopping and not any(a.function == "count1" for a in aggregates):
        raise refuse("a HOP window aggregate without COUNT(*); Flink derives one to tell empty windows")
    return WindowAggSpec(name, phase, window, input_schema, aggregates, properties, output_fields,
                         tuple(t for _, t in output[len(emitted):]), int(state.get("format", 1)), state.get("fingerprint"))


def with_result(agg: Aggregate, field: tuple[str, types.DataType], input_types: dict[str, types.DataType],
                 refuse) -> Aggregate:
    """`agg` with its output field's type as its result, which must be the one Flink's function has."""
    name, result = field
    if agg.function != "avg":
        if types.to_arrow(result) != agg.acc_arrow:
            raise refuse(f"output field {name!r} is {result.serializable()} but {agg.function}'s"
                         f" accumulator is {agg.acc.serializable()}")
        return agg
    if agg.acc.root == "DECIMAL":
        expected = {types.to_arrow(_avg_decimal(agg.acc.scale))}
    elif agg.count_arg is None:
        expected = {types.to_arrow(input_types[agg.arg])}
    else:
        expected = {types.to_arrow(types.DataType(r)) for r, s in AVG_SUM_ROOTS.items() if s == agg.acc.root}
    if types.to_arrow(result) not in expected:
        raise refuse(f"output field {name!r} is {result.serializable()}, which is not Flink's AVG result over a"
                     f" {agg.acc.serializable()} sum")
    return dataclasses.replace(agg, result=result)


def _avg_decimal(scale: int) -> types.DataType:
    """`LogicalTypeMerging.findAvgAggType` of a DECIMAL of this scale: DECIMAL(38, max(6, s))."""
    return types.DataType("DECIMAL", params=(MAX_DECIMAL_PRECISION, max(6, scale)))


def _aggregate(a: dict, phase: str, input_types: dict[str, types.DataType], refuse) -> Aggregate:
    function, arg, count_arg = a["function"], a.get("arg"), a.get("count_arg")
    if function not in FUNCTIONS:
        raise refuse(f"aggregate function {function!r}; this sidecar runs {list(FUNCTIONS)}")
    acc = types.parse(a["acc"])
    if arg is not None and arg not in input_types:
        raise refuse(f"{function} reads {arg!r}, which is no input field")
    if phase == "global" and arg is None:
        raise refuse(f"{function} in phase global names no partial accumulator column (its 'arg')")
    if function == "count1" and phase == "single" and arg is not None:
        raise refuse("count1 takes no argument")
    if function in ("count", "sum", "min", "max", "avg", "sum_retract") and arg is None:
        raise refuse(f"{function} needs an argument")
    expected = _acc_type(function, input_types[arg] if arg is not None else None, phase)
    if expected is not None and types.to_arrow(acc) != types.to_arrow(expected):
        raise refuse(f"{function}({arg}) accumulates as {acc.serializable()}, but Flink's accumulator for it"
                     f" is {expected.serializable()}")
    if phase == "global" and types.to_arrow(input_types[arg]) != types.to_arrow(acc):
        raise refuse(f"partial accumulator {arg!r} is {input_types[arg].serializable()}, not the"
                     f" {function} accumulator {acc.serializable()}")
    if function in ("sum", "sum_retract") and acc.root not in SUM_ROOTS:
        raise refuse(f"{function} over {acc.serializable()}; this sidecar runs {list(SUM_ROOTS)}")
    if function in ("min", "max") and acc.root not in EXTREME_ROOTS:
        raise refuse(f"{function} over {acc.serializable()}; this sidecar runs {list(EXTREME_ROOTS)}")
    if function == "avg" and phase == "single" and input_types[arg].root not in AVG_SUM_ROOTS:
        raise refuse(f"avg over {input_types[arg].serializable()}; this sidecar runs {list(AVG_SUM_ROOTS)}")
    if function == "avg" and acc.root not in AVG_SUM_ROOTS.values():
        raise refuse(f"avg sums as {acc.serializable()}; Flink's AVG sums as BIGINT, DOUBLE or DECIMAL")
    if (count_arg is not None) != (function == "avg" and phase == "global"):
        raise refuse(f"{function} in phase {phase} {'names' if count_arg else 'needs'} a partial count column"
                     f" ('count_arg'); only AVG in phase global has one")
    if count_arg is not None and input_types.get(count_arg, AVG_COUNT).root != "BIGINT":
        raise refuse(f"avg's partial count {count_arg!r} is {input_types[count_arg].serializable()}, not BIGINT")
    if count_arg is not None and count_arg not in input_types:
        raise refuse(f"avg reads the partial count {count_arg!r}, which is no input field")
    # Flink declares COUNT's accumulator as a nullable BIGINT (its state serializer's type) and
    # starts it at 0, so it is never null; both spellings are the same accumulator.
    if function in ("count1", "count") and acc.root != "BIGINT":
        raise refuse(f"{function} accumulates as {acc.serializable()}, not BIGINT")
    where = a.get("filter")
    if where is not None and (phase != "single" or where not in input_types or input_types[where].root != "BOOLEAN"):
        raise refuse(f"{function}'s FILTER column {where!r} is no BOOLEAN input field of phase single")
    return Aggregate(function, arg, acc, bool(a.get("emit", True)), acc, count_arg, where)


def _acc_type(function: str, arg: types.DataType | None, phase: str) -> types.DataType | None:
    """Flink's accumulator type for a single-phase argument type (None: only the declared one
    can be checked, as in phase global where the argument is the accumulator)."""
    if function in ("count1", "count"):
        return types.DataType("BIGINT", nullable=False)
    if phase == "global" or arg is None:
        return None
    if function == "avg":
        root = AVG_SUM_ROOTS.get(arg.root, arg.root)
        return types.DataType(root, params=(MAX_DECIMAL_PRECISION, arg.scale) if root == "DECIMAL" else ())
    if function in ("sum", "sum_retract") and arg.root == "DECIMAL":
        return types.DataType("DECIMAL", params=(MAX_DECIMAL_PRECISION, arg.scale))
    return types.DataType(arg.root, params=arg.params)


def parse_aggregate(a: dict, input_types: dict[str, types.DataType], refuse) -> Aggregate:
    """One single-phase aggregate of a descriptor, checked as the window aggregate's are: the entry
    point of the other operators whose aggregates read input rows (the group aggregate)."""
    return _aggregate(a, "single", input_types, refuse)
