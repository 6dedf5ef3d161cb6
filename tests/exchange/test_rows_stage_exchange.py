"""A rows stage with an `exchange` section: its rows come back as the keyed operator's batch rows,
each with the subtask Flink's keyed shuffle sends it to, grouped by subtask in arrival order."""

import json

import pyarrow as pa
import pytest

from accelerator.exchange import key_groups, key_rows
from accelerator.exchange.split import ExchangeError
from accelerator.formats import FormatError, types
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


# A rows stage over a shared source: each output feeds its own consumer, through a batch exchange
# or one row at a time.

def shared_source(main=None, branch=None):
    """The golden shared-source stage (two outputs of (auction BIGINT, EXPR$1 BIGINT)) with an
    exchange on `auction` for the outputs given a (parallelism, max parallelism)."""
    d = json.loads((GOLDEN / "rows_shared_source.json").read_text(encoding="utf-8"))
    for section, target in ((d, main), (d["branches"][0], branch)):
        if target:
            section["exchange"] = {"keys": [{"name": "auction", "type": "BIGINT"}],
                                   "fields": [{"name": "$key", "type": "VARBINARY(2147483647) NOT NULL"},
                                              {"name": "$key_group", "type": "INT NOT NULL"},
                                              {"name": "EXPR$1", "type": "BIGINT"}],
                                   "parallelism": target[0], "max_parallelism": target[1]}
    return d


def shared_bids(n):
    """Bids both outputs keep some of (price > 100; channel <> 'b'), NULL auctions among them."""
    return pa.RecordBatch.from_arrays([pa.array(
        [json.dumps({"auction": None if i % 7 == 3 else i % 11, "price": 30 * i, "channel": "ab"[i % 2]}).encode()
         for i in range(n)], pa.binary())], names=["value"])


def assert_split(out, plain, parallelism, max_parallelism):
    """`out` is `plain` (the output's rows without an exchange) as the exchange's rows: each row's
    key bytes and key group as Flink computes them, grouped by subtask, arrival order within one."""
    assert out.schema.names == [MESSAGE, "$channel", "$key", "$key_group", "EXPR$1"]
    assert out.num_rows == plain.num_rows > 0
    keys = key_rows.binary_key_rows([plain.column("auction")], [types.parse("BIGINT")])
    groups = key_groups.key_groups(keys, max_parallelism)
    expected = sorted(zip(key_groups.operator_indexes(groups, max_parallelism, parallelism).tolist(),
                          plain.column(MESSAGE).to_pylist(), keys.to_pylist(), groups.tolist(),
                          plain.column("EXPR$1").to_pylist()))
    got = list(zip(*(out.column(c).to_pylist() for c in ["$channel", MESSAGE, "$key", "$key_group", "EXPR$1"])))
    assert got == expected  # grouped by subtask, each subtask's rows in message order
    assert parallelism == 1 or len({c for c, *_ in got}) > 1  # the rows do go to several subtasks


@pytest.mark.parametrize("parallelism", [1, 2, 3])
def test_a_branch_feeding_a_batch_exchange_is_split_while_the_other_output_keeps_its_rows(parallelism):
    plain_main, plain_branch = stages.create(shared_source()).process(shared_bids(60))
    main, branch = stages.create(shared_source(branch=(parallelism, 128))).process(shared_bids(60))
    assert main == plain_main
    assert_split(branch, plain_branch, parallelism, 128)


def test_each_output_is_split_for_its_own_consumer():
    plain_main, plain_branch = stages.create(shared_source()).process(shared_bids(60))
    main, branch = stages.create(shared_source(main=(2, 128), branch=(3, 256))).process(shared_bids(60))
    assert_split(main, plain_main, 2, 128)
    assert_split(branch, plain_branch, 3, 256)
    main, branch = stages.create(shared_source(main=(3, 128))).process(shared_bids(60))
    assert_split(main, plain_main, 3, 128)
    assert branch == plain_branch


def test_an_empty_batch_answers_each_output_in_its_own_schema():
    empty = pa.RecordBatch.from_arrays([pa.array([], pa.binary())], names=["value"])
    main, branch = stages.create(shared_source(branch=(2, 128))).process(empty)
    assert main.num_rows == branch.num_rows == 0
    assert main.schema.names == ["auction", "EXPR$1", MESSAGE]
    assert branch.schema.names == [MESSAGE, "$channel", "$key", "$key_group", "EXPR$1"]


def test_a_branch_exchange_with_a_key_type_without_a_layout_is_refused_at_open_naming_the_branch():
    d = shared_source(branch=(2, 128))
    d["branches"][0]["exchange"]["keys"][0]["type"] = "DOUBLE"
    with pytest.raises(ExchangeError, match="branch-1.*DOUBLE"):
        stages.create(d)


def window_descriptor(time_field):
    """The golden rows stage over bids feeding a group window's batch exchange on `bidder`."""
    d = json.loads((GOLDEN / "rows_regexp.json").read_text(encoding="utf-8"))
    d["exchange"] = {"keys": [{"name": "bidder", "type": "BIGINT"}],
                     "fields": [{"name": "$key", "type": "VARBINARY(2147483647) NOT NULL"},
                                {"name": "$key_group", "type": "INT NOT NULL"},
                                dict({"name": "$time", "type": "BIGINT NOT NULL"}, **time_field),
                                {"name": "price", "type": "BIGINT"}],
                     "max_parallelism": 128, "parallelism": 2}
    return d


def join_descriptor(side, null_filtered):
    """The rows stage feeding one input of a regular join of (channel, $f1) with a two-field other input."""
    d = json.loads((GOLDEN / "rows_group_aggregate.json").read_text(encoding="utf-8"))
    row = [{"name": "channel", "type": "VARCHAR(2147483647)"}, {"name": "$f1", "type": "BIGINT"}]
    other = [{"name": "id", "type": "BIGINT"}, {"name": "name", "type": "VARCHAR(2147483647)"}]
    mine = [{"name": "l_channel", "type": "VARCHAR(2147483647)"}, {"name": "l_f1", "type": "BIGINT"}]
    joined = mine + other if side == 0 else other + mine
    d["exchange"] = {"keys": [row[0]],
                     "fields": [{"name": "$key", "type": "VARBINARY(2147483647) NOT NULL"},
                                {"name": "$key_group", "type": "INT NOT NULL"},
                                {"name": "$side", "type": "TINYINT NOT NULL"},
                                {"name": "$order", "type": "VARBINARY(2147483647) NOT NULL"}] + joined,
                     "join": {"side": side, "left_arity": 2, "row": row, "null_filtered": null_filtered},
                     "max_parallelism": 128, "parallelism": 2}
    return d


def timed_bids(times):
    return pa.RecordBatch.from_arrays([pa.array(
        [json.dumps({"auction": 1, "bidder": i % 3, "price": i, "channel": "c", "url": "u", "dateTime": t,
                     "extra": ""}).encode() for i, t in enumerate(times)], pa.binary())], names=["value"])


def test_a_window_operators_time_is_the_rowtimes_epoch_millisecond():
    times = ["1969-12-31 23:59:59.999", "1970-01-01 00:00:00.000", "2024-02-29 12:00:00.123"]
    out = stages.create(window_descriptor({"millis_of": "dateTime"})).process(timed_bids(times))
    assert out.schema.field("$time").type == pa.int64()
    by_message = dict(zip(out.column(MESSAGE).to_pylist(), out.column("$time").to_pylist()))
    assert by_message == {0: -1, 1: 0, 2: 1709208000123}


def test_a_processing_time_windows_time_waits_for_the_operator():
    out = stages.create(window_descriptor({"arrival": True})).process(timed_bids(["2024-02-29 12:00:00.123"] * 4))
    assert out.column("$time").to_pylist() == [0] * 4


def test_a_null_rowtime_fails_naming_its_message():
    batch = pa.RecordBatch.from_arrays([pa.array(
        [json.dumps({"auction": 1, "bidder": 1, "price": 1, "dateTime": t}).encode()
         for t in ["2024-02-29 12:00:00.000", None]], pa.binary())], names=["value"])
    with pytest.raises(FormatError, match="RowTime field should not be null") as failure:
        stages.create(window_descriptor({"millis_of": "dateTime"})).process(batch)
    assert failure.value.row == 1


def test_a_consumer_field_can_be_another_column_of_the_rows():
    out = stages.create(window_descriptor({"from": "auction"})).process(timed_bids(["2024-02-29 12:00:00.123"] * 3))
    assert out.column("$time").to_pylist() == [1, 1, 1]


@pytest.mark.parametrize("side", [0, 1])
@pytest.mark.parametrize("null_filtered", [[0], []])
def test_a_join_input_gets_its_side_binary_rows_and_the_other_input_null(side, null_filtered):
    out = stages.create(join_descriptor(side, null_filtered)).process(bids(40))
    plain = stages.create(json.loads((GOLDEN / "rows_group_aggregate.json").read_text())).process(bids(40))
    by_message = {m: (c, v) for m, c, v in zip(plain.column(MESSAGE).to_pylist(), plain.column("channel").to_pylist(),
                                               plain.column("$f1").to_pylist())}
    # A NULL channel (the key) joins nothing: left out where the join would not send it.
    expected = sorted(m for m, (c, _) in by_message.items() if c is not None or not null_filtered)
    assert sorted(out.column(MESSAGE).to_pylist()) == expected
    assert out.schema.names[4:6] == ["$side", "$order"]
    assert set(out.column("$side").to_pylist()) == {side}
    mine = ["l_channel", "l_f1"]
    other = ["id", "name"]
    assert all(out.column(n).null_count == out.num_rows for n in other)
    row_types = [types.parse("VARCHAR(2147483647)"), types.parse("BIGINT")]
    for i, m in enumerate(out.column(MESSAGE).to_pylist()):
        channel, f1 = by_message[m]
        assert [out.column(n)[i].as_py() for n in mine] == [channel, f1]
        order = key_rows.binary_key_rows([pa.array([channel], pa.string()), pa.array([f1], pa.int64())], row_types)
        assert out.column("$order")[i].as_py() == order[0].as_py()
        key = key_rows.binary_key_rows([pa.array([channel], pa.string())], row_types[:1])
        assert out.column("$key")[i].as_py() == key[0].as_py()
