"""The local phase of a two-phase window aggregate, folded into a rows stage.

Stock Flink runs `LocalSlicingWindowAggOperator` right after the rows a rows stage hands on: it
buffers each row under (grouping key, slice end), accumulates it into a fresh accumulator per
buffered pair (`LocalAggCombiner`) and, at a watermark that fires its smallest slice and before
each checkpoint barrier, emits one row per pair, (keys, accumulators, slice end), in the order the
pairs were first buffered, without a record timestamp. A branch of a rows stage with a
`local_window_agg` section answers those partial rows for its batch instead of the rows
themselves: the planner folds the local phase into the stage only when no watermark falls inside
a batch and every merge of partials is associative and commutative (counts, and wrapping integer
sums, minima and maxima), so that the global phase's result does not depend on where the partials
are split (docs/design/stateful-window-aggregate.md, "Increment 2: the local phase in the rows
stage").

Section (written by the shim's `planner/windowagg/LocalPhaseFold`):

    {"keys": ["auction"], "time": "dateTime",
     "window": {"type": "hop", "size_ms": 10000, "slide_ms": 2000, "offset_ms": 0, ...,
                "zone_offset_ms": 0},
     "aggregates": [{"function": "count1", "arg": null, "acc": "BIGINT"}, ...],
     "output": {"fields": [{"name": "auction", "type": "BIGINT"}, {"name": "count1$0", ...},
                           {"name": "$slice_end", "type": "BIGINT NOT NULL"}]}}
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import FormatError, types
from accelerator.plans.stage import MESSAGE
from accelerator.sidecar.stages import DescriptorError
from accelerator.windowagg import windows
from accelerator.windowagg.spec import window_of

SECTION = "local_window_agg"
#: Functions whose partials merge associatively and commutatively (wrapping integer arithmetic,
#: total orders): the only ones folded, since the split into partials is not stock's.
FUNCTIONS = ("count1", "count", "sum", "min", "max")
#: Integer types, whose sums wrap in their own width as Java's do (the accumulator's type).
_INTEGERS = {"TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INT": pa.int32(), "BIGINT": pa.int64()}
#: Key types whose value equality is the byte equality of Flink's BinaryRowData key.
_KEY_TYPES = (pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.string(), pa.bool_(), pa.date32())
_SLICE = "$slice"
_ROW = "$row"


@dataclass(frozen=True)
class LocalAggregate:
    """One aggregate of the local phase: `function` (of FUNCTIONS) over input column `arg` (None for
    COUNT(*)), accumulating into a value of arrow type `acc`."""

    function: str
    arg: str | None
    acc: pa.DataType


class LocalPhase:
    """The partial rows of one branch's batch, as stock's local window aggregate emits them."""

    def __init__(self, stage: str, section: dict, rows: pa.Schema):
        self._stage = stage
        try:
            self._window = window_of(section["window"])
            self._keys = list(section["keys"])
            self._time = section["time"]
            aggregates = section["aggregates"]
            output = [types.to_arrow_field(f["name"], types.parse(f["type"])) for f in section["output"]["fields"]]
        except (KeyError, TypeError, ValueError) as e:
            raise DescriptorError(f"stage {stage!r}: malformed {SECTION} section ({e!r})") from None
        for name in self._keys + [self._time]:
            if name not in rows.names:
                raise DescriptorError(f"stage {stage!r}: {SECTION} reads column {name!r}, which the branch's rows"
                                      f" {rows.names} lack")
        for name in self._keys:
            if rows.field(name).type not in _KEY_TYPES:
                raise DescriptorError(f"stage {stage!r}: {SECTION} key {name!r} of type {rows.field(name).type}"
                                      f" is not grouped here (only integers, strings, booleans and dates)")
        if self._window.slide_ms <= 0:
            raise DescriptorError(f"stage {stage!r}: {SECTION} slices of {self._window.slide_ms} ms")
        if len(output) != len(self._keys) + len(aggregates) + 1 or output[-1].type != pa.int64():
            raise DescriptorError(f"stage {stage!r}: {SECTION} output {[f.name for f in output]} is not the keys,"
                                  f" one accumulator per aggregate and the slice end")
        self._aggregates = []
        for spec, field in zip(aggregates, output[len(self._keys):-1]):
            aggregate = LocalAggregate(spec.get("function"), spec.get("arg"), types.to_arrow(types.parse(spec["acc"])))
            self._check(aggregate, field, rows)
            self._aggregates.append(aggregate)
        self.schema = pa.schema(output + [pa.field(MESSAGE, pa.int32(), nullable=False)])

    def _check(self, aggregate: LocalAggregate, field: pa.Field, rows: pa.Schema) -> None:
        where = f"stage {self._stage!r}: {SECTION} aggregate {aggregate.function}({aggregate.arg or '*'})"
        if aggregate.function not in FUNCTIONS:
            raise DescriptorError(f"{where} is not folded (only {', '.join(FUNCTIONS)})")
        if field.type != aggregate.acc:
            raise DescriptorError(f"{where}: output column {field.name!r} is {field.type}, its accumulator"
                                  f" {aggregate.acc}")
        if aggregate.function in ("count1", "count"):
            if aggregate.acc != pa.int64() or (aggregate.function == "count") == (aggregate.arg is None):
                raise DescriptorError(f"{where}: a count accumulates into BIGINT, COUNT(x) over a column")
            return
        if aggregate.arg not in rows.names or rows.field(aggregate.arg).type != aggregate.acc \
                or aggregate.acc not in _INTEGERS.values():
            raise DescriptorError(f"{where}: only integer columns are folded, into an accumulator of their type")

    def partials(self, rows: pa.RecordBatch, messages: int) -> pa.RecordBatch:
        """The partial rows of `rows` (the branch's rows of a batch of `messages` messages, each with
        its `MESSAGE`): one per (keys, slice end) in first-occurrence order, all named the batch's
        last message, so that they leave after every row's turn and before whatever watermark the
        batch's last message causes."""
        if rows.num_rows == 0:
            return pa.RecordBatch.from_pylist([], schema=self.schema)
        columns = {f"k{i}": rows.column(name) for i, name in enumerate(self._keys)}
        columns[_SLICE] = pa.array(self._slice_ends(rows), pa.int64())
        columns[_ROW] = pa.array(np.arange(rows.num_rows, dtype=np.int64))
        aggregations = [(_ROW, "min")]
        for i, aggregate in enumerate(self._aggregates):
            if aggregate.function == "count1":
                aggregations.append((_ROW, "count"))
                continue
            columns[f"a{i}"] = rows.column(aggregate.arg)
            if aggregate.function == "count":
                aggregations.append((f"a{i}", "count", pc.CountOptions(mode="only_valid")))
            elif aggregate.function == "sum":
                aggregations.append((f"a{i}", "sum", pc.ScalarAggregateOptions(min_count=1)))
            else:
                aggregations.append((f"a{i}", aggregate.function))
        table = pa.table(columns)
        keys = [f"k{i}" for i in range(len(self._keys))] + [_SLICE]
        grouped = table.group_by(keys, use_threads=False).aggregate(aggregations)
        grouped = grouped.sort_by(f"{_ROW}_min")
        out = [grouped.column(f"k{i}").combine_chunks() for i in range(len(self._keys))]
        for i, aggregate in enumerate(self._aggregates):
            name = f"{_ROW}_count" if aggregate.function == "count1" else f"a{i}_{aggregate.function}"
            # Integer sums come back as int64: narrowed to the accumulator's width they wrap as Java's.
            out.append(grouped.column(name).combine_chunks().cast(aggregate.acc, safe=False))
        out.append(grouped.column(_SLICE).combine_chunks())
        out.append(pa.array(np.full(grouped.num_rows, messages - 1, dtype=np.int32)))
        return pa.RecordBatch.from_arrays(out, schema=self.schema)

    def _slice_ends(self, rows: pa.RecordBatch) -> np.ndarray:
        """Each row's slice end as stock's `SliceAssigner.assignSliceEnd`: the rowtime's epoch
        millisecond shifted into the window's zone, floored to the slice, plus the slice."""
        time = rows.column(self._time)
        if time.null_count:
            row = int(pc.index(time.is_null(), True).as_py())
            raise FormatError(int(rows.column(MESSAGE)[row].as_py()),
                              f"the rowtime {self._time!r} of a row of this message is NULL: Flink's local window"
                              f" aggregate fails the job on it (\"RowTime field should not be null, please convert"
                              f" it to a non-null long value.\")",
                              "give the row a rowtime, or filter out rows without one before the window")
        millis = pc.struct_field(time, "millis").to_numpy(zero_copy_only=False).astype(np.int64)
        return windows.slice_ends(millis, self._window)


def of(stage: str, section: dict | None, rows: pa.Schema) -> LocalPhase | None:
    """The branch's local phase, or None when it has no such section."""
    return None if section is None else LocalPhase(stage, section, rows)
