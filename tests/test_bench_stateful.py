"""The stateful benchmark's pieces without a cluster: the queries' sinks, how a job graph tells
which stateful operators ran accelerated, the q12 bound and the targets' arithmetic."""

from __future__ import annotations

import pytest

from accelerator.bench import nexmark, outputs, queries, report, runner


def _rendered(name: str, exactly_once: bool) -> str:
    text = queries.load(name).script
    for key, value in queries.render_params("b:1", "src", "out-topic", "json", exactly_once).items():
        text = text.replace("${" + key + "}", value)
    assert "${" not in text, name
    return text


@pytest.mark.parametrize("name", queries.STATEFUL)
def test_every_stateful_query_writes_to_an_exactly_once_sink_when_checkpointed(name):
    checkpointed, plain = _rendered(name, True), _rendered(name, False)
    for option in ("'sink.delivery-guarantee' = 'exactly-once'", "'sink.transactional-id-prefix' = 'out-topic'"):
        assert option in checkpointed and option not in plain, name
    # An updating query (grouped aggregate, deduplication, top-N) needs a sink that takes updates.
    updating = "PRIMARY KEY" in checkpointed
    assert ("'connector' = 'upsert-kafka'" in checkpointed) is updating, name


def test_the_stateful_jobs_of_a_round_pair_each_query_and_backend_without_floors():
    query_list = [queries.load(n) for n in ("q4_agg", "q18")]
    round_jobs = runner.jobs(query_list, [], ("hashmap", "rocksdb"))
    assert [(q.name, mode, b) for q, mode, b in round_jobs] == [
        (name, mode, backend) for name in ("q4_agg", "q18") for backend in ("hashmap", "rocksdb")
        for mode in (runner.STOCK, runner.ACCELERATED)]


# Job graph vertices as Flink 2.2.1 named them in a run of q4_agg and q12 with the stateful options on.
ACCELERATED_Q4 = ["Source: nexmark[12] -> Accelerated[nexmark-rows]",
                  "Accelerated[nexmark-group-agg] -> ConstraintEnforcer[10] -> nexmark_q4_agg[10]: Writer -> "
                  "nexmark_q4_agg[10]: Committer"]
STOCK_Q4 = ["Source: nexmark[1] -> Calc[2]",
            "GroupAggregate[4] -> ConstraintEnforcer[5] -> nexmark_q4_agg[5]: Writer -> nexmark_q4_agg[5]: Committer"]
Q12 = ["Source: nexmark[27] -> Calc[28]",
       "GroupWindowAggregate[30] -> Calc[31] -> nexmark_q12[32]: Writer -> nexmark_q12[32]: Committer"]


def test_the_job_graph_tells_which_stateful_operators_ran_stock():
    assert runner.stateful_operators(ACCELERATED_Q4) == (
        ["Accelerated[nexmark-rows]", "Accelerated[nexmark-group-agg]"], [])
    assert runner.stateful_operators(STOCK_Q4) == ([], ["GroupAggregate[4]"])
    assert runner.stateful_operators(Q12) == ([], ["GroupWindowAggregate[30]"])


def test_q12_is_checked_against_the_bids_per_bidder_of_the_input():
    query = queries.load("q12")
    assert query.totals == ("bidder", "bid_count")
    bounds = nexmark.bids_per("bidder", 5000)
    assert sum(bounds.values()) == 5000 * 46 // 50
    assert outputs.above({k: v for k, v in bounds.items()}, bounds) is None
    first = min(bounds)
    assert outputs.above({first: bounds[first] + 1}, bounds) == (
        f"1 keys above their bound; the first, {first!r}: {bounds[first] + 1} > {bounds[first]}")
    assert "1 keys above" in outputs.above({-1: 1}, bounds), "a bidder not in the input has no bids"


def _row(query, backend, ratio, runs_as="stateful accelerated", failed=None):
    return {"query": query, "backend": backend, "runs_as": runs_as, "cpu_efficiency_ratio": ratio,
            "failed": failed, "stock_stateful_operators": ["Rank[3]"] if runs_as == "partial" else [],
            "planner_notes": [], "acceleration": "partial", "accelerated": {}}


def test_the_geomeans_count_only_accelerated_rows_and_say_met_or_not_met():
    rows = [_row("q4_agg", "hashmap", 1.0), _row("q18", "hashmap", 4.0), _row("q19", "hashmap", 9.0, "partial"),
            _row("q4_agg", "rocksdb", 3.0), _row("q18", "rocksdb", 0.5),
            _row("q17", "rocksdb", None, "failed", "Flink job x ended FAILED")]
    lines = report.stateful_targets({"state_backends": ["hashmap", "rocksdb"], "queries": rows})
    text = "\n".join(lines)
    assert "- hashmap: geomean 2.00x over q4_agg, q18, met (target >= 2x)" in text
    assert "- rocksdb: geomean 1.22x over q4_agg, q18, not met (target >= 4x)" in text
    assert "q18 on rocksdb: 0.50x, below 1x" in text
    assert "- q19 on hashmap: partial, 9.00x — ran stock: Rank" in text
    assert "- q17 on rocksdb: the accelerated run failed: Flink job x ended FAILED" in text


class _Message:
    def __init__(self, key, value):
        self._key, self._value = key, value

    def key(self):
        return self._key

    def value(self):
        return self._value

    def headers(self):
        return None

    def timestamp(self):
        return 1, 0


def test_a_final_comparison_reads_the_topic_as_an_upsert_table(monkeypatch):
    """Two runs whose updates came in another order, one with a key deleted and inserted again,
    hold the same last value per key; a different last value does not compare equal."""
    topics = {
        "a": [(0, _Message(b"k1", b"1")), (0, _Message(b"k2", b"5")), (0, _Message(b"k1", b"3"))],
        "b": [(0, _Message(b"k2", b"4")), (0, _Message(b"k1", b"2")), (0, _Message(b"k2", None)),
              (0, _Message(b"k2", b"5")), (0, _Message(b"k1", b"3"))],
        "c": [(0, _Message(b"k1", b"3")), (0, _Message(b"k2", b"6"))],
    }
    monkeypatch.setattr(outputs, "_read", lambda broker, topic: iter(topics[topic]))
    final = {t: outputs.digest(None, t, ordered=False, final=True) for t in topics}
    assert final["a"] == final["b"] != final["c"]
    assert final["a"].messages == 2
    assert outputs.digest(None, "a", ordered=False) != outputs.digest(None, "b", ordered=False)


def test_only_queries_whose_updates_depend_on_input_order_compare_final_values():
    assert [name for name in queries.STATEFUL if queries.load(name).final] == ["q4"]


def test_a_replacement_jar_must_keep_a_name_that_sorts_before_the_planner_loader(tmp_path):
    good, bad = tmp_path / "flink-accelerator-handover.jar", tmp_path / "handover.jar"
    good.write_bytes(b"PK"), bad.write_bytes(b"PK")
    assert runner.accelerator_jar(good) == good
    with pytest.raises(ValueError, match="must start with flink-accelerator-"):
        runner.accelerator_jar(bad)
