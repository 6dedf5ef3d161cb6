"""A rows stage's answer for a batch exchange: its result rows as the rows of the keyed operator
after the shuffle (`$key`, `$key_group`, then the columns that operator's stage reads), each with
the subtask Flink's keyed shuffle would send it to (`$channel`), grouped by that subtask.

The descriptor's `exchange` section names the key fields (in key order, with their Flink types)
and the consumer's batch fields (for one input of a regular join, its `join` part says how they
are made, `join_input`); the operator adds, when it opens the stage, the consumer's
parallelism and max parallelism. Over a shared source each output has its own section (the
descriptor's for the stage's own output, a `branches` entry's for that branch), and each output
with one answers its rows split for its own consumer. Rows keep their order within each subtask
(a stable sort), and `$message` stays, so the operator can cut every subtask's rows where a
watermark goes out.

A consumer field is the rows' column of its name, or one the stage computes from them (a window
operator's `$time`): `"from": <column>`, that column of the rows as it is (a local window
aggregate's slice end); `"millis_of": <column>`, the epoch milliseconds of a TIMESTAMP column (as
Flink's `TimestampData.getMillisecond()`; a NULL fails the batch naming its message, as the
operator's `RowTime field should not be null` fails stock's), or `"arrival": true`, zeros the
operator overwrites with the processing time at which the batch arrives.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from accelerator.exchange import key_groups, key_rows
from accelerator.exchange.join_input import JoinInput
from accelerator.formats import FormatError, timestamps, types

#: The descriptor's (or a branch's) section naming the exchange an output feeds.
SECTION = "exchange"
CHANNEL = "$channel"
KEY = "$key"
KEY_GROUP = "$key_group"


class ExchangeError(ValueError):
    """An exchange section this sidecar cannot run."""


@dataclass(frozen=True)
class Exchange:
    keys: tuple[str, ...]
    key_types: tuple[types.DataType, ...]
    #: The consumer's batch fields after `$key` and `$key_group`: (name, Flink type).
    columns: tuple[tuple[str, types.DataType], ...]
    #: How the stage computes a consumer field that is no column of the rows: name -> the field's
    #: section (`from`, `millis_of` or `arrival`).
    derived: dict
    max_parallelism: int
    parallelism: int
    #: For one input of a regular join: how its rows become the join's update rows; else None.
    join: JoinInput | None = None

    @classmethod
    def parse(cls, stage: str, section: dict) -> "Exchange":
        try:
            keys = tuple(k["name"] for k in section["keys"])
            key_types = tuple(types.parse(k["type"]) for k in section["keys"])
            fields = [(f["name"], types.parse(f["type"])) for f in section["fields"]]
            max_parallelism, parallelism = int(section["max_parallelism"]), int(section["parallelism"])
        except (KeyError, TypeError, ValueError) as e:
            raise ExchangeError(f"stage {stage!r}: exchange section {section!r} is incomplete: {e!r}") from e
        if [name for name, _ in fields[:2]] != [KEY, KEY_GROUP]:
            raise ExchangeError(f"stage {stage!r}: the exchange's fields start with {KEY} and {KEY_GROUP},"
                                f" not {[name for name, _ in fields[:2]]}")
        refused = [t.serializable() for t in key_types if not key_rows.supported(t)]
        if refused:
            raise ExchangeError(f"stage {stage!r}: no batch exchange for keys of type {refused}")
        if not 0 < parallelism <= max_parallelism:
            raise ExchangeError(f"stage {stage!r}: parallelism {parallelism} is not within max parallelism"
                                f" {max_parallelism}")
        derived = {f["name"]: f for f in section["fields"] if "from" in f or "millis_of" in f or f.get("arrival")}
        join = JoinInput.parse(stage, section["join"], len(fields) - 4) if "join" in section else None
        return cls(keys, key_types, tuple(fields[2:]), derived, max_parallelism, parallelism, join)

    def schema(self, message: pa.Field) -> pa.Schema:
        """The answer's columns: `$message`, `$channel`, `$key`, `$key_group`, the consumer's."""
        return pa.schema([message, pa.field(CHANNEL, pa.int32(), nullable=False),
                          pa.field(KEY, pa.binary(), nullable=False), pa.field(KEY_GROUP, pa.int32(), nullable=False)]
                         + [types.to_arrow_field(name, t) for name, t in self.columns])

    def split(self, result: pa.RecordBatch, message: str) -> pa.RecordBatch:
        """`result` (a rows stage's rows, with `message`) as the exchange's rows, grouped by subtask."""
        key_columns = [result.column(name) for name in self.keys]
        joins = self.join.joins(key_columns) if self.join else None
        if joins is not None:
            result = result.filter(pa.array(joins))
            key_columns = [result.column(name) for name in self.keys]
        keys = key_rows.binary_key_rows(key_columns, list(self.key_types))
        groups = key_groups.key_groups(keys, self.max_parallelism)
        channels = key_groups.operator_indexes(groups, self.max_parallelism, self.parallelism)
        order = pa.array(np.argsort(channels, kind="stable"))
        schema = self.schema(result.schema.field(message))
        consumer = self.join.columns(result, list(schema)[4:]) if self.join \
            else [self._column(result, name, message) for name, _ in self.columns]
        columns = [result.column(message), pa.array(channels, pa.int32()), keys.cast(pa.binary()),
                   pa.array(groups, pa.int32())] + consumer
        return pa.RecordBatch.from_arrays([c.take(order) for c in columns], schema=schema)

    def _column(self, result: pa.RecordBatch, name: str, message: str) -> pa.Array:
        """The consumer's column `name` of `result`: the rows' own, or the one derived from them."""
        field = self.derived.get(name)
        if field is None:
            return result.column(name)
        if "from" in field:
            return result.column(field["from"])
        if field.get("arrival"):
            return pa.array(np.zeros(result.num_rows, dtype=np.int64))
        time = result.column(field["millis_of"])
        if time.null_count:
            row = int(np.flatnonzero(time.is_null().to_numpy(zero_copy_only=False))[0])
            raise FormatError(int(result.column(message)[row].as_py()),
                              f"the rowtime {field['millis_of']!r} of a row of this message is NULL: Flink's window"
                              f" operator fails the job on it (\"RowTime field should not be null, please convert it"
                              f" to a non-null long value.\")",
                              "give the row a rowtime, or filter out rows without one before the window")
        return timestamps.millis(time).cast(pa.int64())
