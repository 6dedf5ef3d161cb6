"""A rows stage with an `exchange` section: its rows come back as the keyed operator's batch rows,
each with the subtask Flink's keyed shuffle sends it to, grouped by subtask in arrival order."""

import json

import pyarrow as pa
import pytest

from accelerator.exchange import key_groups, key_rows
from accelerator.exchange.split import ExchangeError
from accelerator.formats import types
from accelerator.plans.stage import MESSAGE
from accelerator.sidecar import stages
from accelerator.testing import locations

GOLDEN = locations.REPO_ROOT / "substrait-plans"


def descriptor(parallelism=2, max_parallelism=128, keys=None):
    d = json.loads((GOLDEN / "rows_group_aggregate.json").read_text(encoding="utf-8"))
    d["exchange"] = {"keys": keys or [{"name": "channel", "type": "VARCHAR(2147483647)"}],
                     "fields": [{"name": "$key", "type": "VARBINARY(2147483647) NOT NULL"},
                                {"name": "$key_group", "type": "INT NOT NULL"},
                                {"name": "$f1", "type": "BIGINT"}],
                     "max_parallelism": max_parallelism, "parallelism": parallelism}
    return d


def bids(n):
    channels = ["apple", "a much longer channel name", "", None, "b"]
    return pa.RecordBatch.from_arrays([pa.array(
        [json.dumps({"auction": i, "price": 101 + i, "channel": channels[i % 5]}).encode() for i in range(n)],
        pa.binary())], names=["value"])


@pytest.mark.parametrize("parallelism", [1, 2, 3])
def test_rows_are_grouped_by_the_subtask_of_their_key_group_in_arrival_order(parallelism):
    out = stages.create(descriptor(parallelism)).process(bids(40))
    plain = stages.create(json.loads((GOLDEN / "rows_group_aggregate.json").read_text())).process(bids(40))
    assert out.schema.names == [MESSAGE, "$channel", "$key", "$key_group", "$f1"]
    assert sorted(out.column(MESSAGE).to_pylist()) == plain.column(MESSAGE).to_pylist()
    expected_keys = key_rows.binary_key_rows([plain.column("channel")], [types.parse("VARCHAR(2147483647)")])
    expected_groups = key_groups.key_groups(expected_keys, 128)
    by_message = {m: (k, g, v) for m, k, g, v in zip(plain.column(MESSAGE).to_pylist(), expected_keys.to_pylist(),
                                                     expected_groups.tolist(), plain.column("$f1").to_pylist())}
    channels = out.column("$channel").to_pylist()
    assert channels == sorted(channels)
    for m, c, k, g, v in zip(*(out.column(i).to_pylist() for i in range(5))):
        assert (k, g, v) == by_message[m]
        assert c == g * parallelism // 128
    for channel in set(channels):
        messages = [m for m, c in zip(out.column(MESSAGE).to_pylist(), channels) if c == channel]
        assert messages == sorted(messages)


def test_an_empty_batch_has_the_exchange_schema():
    out = stages.create(descriptor()).process(pa.RecordBatch.from_arrays([pa.array([], pa.binary())], names=["value"]))
    assert out.num_rows == 0 and out.schema.names == [MESSAGE, "$channel", "$key", "$key_group", "$f1"]


def test_a_key_type_without_a_layout_is_refused_at_open():
    with pytest.raises(ExchangeError, match="DOUBLE"):
        stages.create(descriptor(keys=[{"name": "channel", "type": "DOUBLE"}]))
