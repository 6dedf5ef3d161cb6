"""The benchmark's method without running it: job order over the rounds, spreads, the floors'
SQL and arithmetic, the watermark-free table and the producer-batching note."""

from __future__ import annotations

import pytest

from accelerator.bench import queries, report, runner
from accelerator.testing.bench_report import invented_report, invented_run


def _round_jobs():
    query_list = [queries.load(n) for n in ("q0", "q1", "q2", "q0@bid")]
    floors = [queries.load(runner.read_floor_name(d)) for d in ("nexmark", "bid")]
    return runner.jobs(query_list, floors)


def _key(job):
    query, mode, _ = job
    return query.name, mode


def test_round_0_makes_each_reference_before_the_jobs_that_need_it():
    order = [_key(j) for j in runner.schedule(_round_jobs(), 0, 5)]
    assert order[:2] == [("floor_read", runner.READ_FLOOR), ("floor_read@bid", runner.READ_FLOOR)]
    for name in ("q0", "q1", "q2", "q0@bid"):
        stock = order.index((name, runner.STOCK))
        assert stock < order.index((name, runner.ACCELERATED)) and stock < order.index((name, runner.WRITE_FLOOR))


def test_later_rounds_move_every_job_and_swap_who_runs_first():
    round_jobs = _round_jobs()
    orders = [[_key(j) for j in runner.schedule(round_jobs, r, 5)] for r in range(5)]
    for order in orders:
        assert sorted(order) == sorted(_key(j) for j in round_jobs), "each round runs every job once"
    assert len({order[0] for order in orders}) == 5, "another job runs first in every round"
    for job in map(_key, round_jobs):
        assert len({order.index(job) for order in orders}) >= 3, job
    for name in ("q0", "q1", "q2", "q0@bid"):
        stock_first = {o.index((name, runner.STOCK)) < o.index((name, runner.ACCELERATED)) for o in orders}
        assert stock_first == {True, False}, name


def test_spread_is_min_median_max_over_the_rounds():
    runs = [invented_run("q0", runner.STOCK, r, cpu) for r, cpu in enumerate((2.0, 8.0, 4.0, 5.0, 10.0))]
    summary = runner.summarize(runs)
    assert summary["spread"]["events_per_cpu_s"] == [100_000, 200_000, 500_000]
    assert summary["events_per_cpu_s"] == 200_000 and summary["cpu_s_per_m"] == 5.0


def test_the_floor_sums_read_and_write_of_the_same_round():
    read = [invented_run("floor_read", runner.READ_FLOOR, r, cpu) for r, cpu in enumerate((1.0, 3.0, 2.0))]
    write = [invented_run("q0", runner.WRITE_FLOOR, r, cpu) for r, cpu in enumerate((3.0, 1.0, 2.0))]
    floor = runner.summarize_floor(read, write[::-1])
    # Every round's read + write is 4 CPU-s per million events; pairing sorted values would not be.
    assert floor["spread"]["events_per_cpu_s"] == [250_000, 250_000, 250_000]
    assert floor["cpu_s_per_m"] == 4.0 and floor["runs"] == 3


def test_each_query_is_compared_with_its_own_floor():
    rendered = invented_report(("q0", "q0@bid"), rounds=3)
    for q in rendered["queries"]:
        # invented: stock 10, accelerated 4, read floor 1 and write floor 1.5 CPU-s per million events
        assert q["stock_cpu_vs_floor"] == pytest.approx(10 / 2.5)
        assert q["accelerated_cpu_vs_floor"] == pytest.approx(4 / 2.5)
        assert q["floor"]["read"]["runs"] == q["floor"]["write"]["runs"] == 3
    assert set(rendered["read_floors"]) == {"nexmark", "bid"}
    table = report.markdown(rendered)
    assert "| q0 | stateless | accelerated |" in table and "(333,333–400,000)" in table


def _rendered(script: str) -> str:
    for key, value in queries.render_params("b:1", "src", "out", "json").items():
        script = script.replace("${" + key + "}", value)
    return script


def test_the_read_floor_reads_the_source_topic_raw_into_a_blackhole():
    sql = _rendered(queries.load("floor_read@bid").script)
    assert "'topic' = 'src'" in sql and "'format' = 'raw'" in sql and "'connector' = 'blackhole'" in sql
    assert "'topic' = 'out'" not in sql and "INSERT INTO floor_sink" in sql


def test_the_write_floor_copies_a_topic_raw_into_another():
    sql = _rendered(queries.load(queries.WRITE_FLOOR).script)
    assert "'topic' = 'src'" in sql and "'topic' = 'out'" in sql and sql.count("'format' = 'raw'") == 2


def test_the_table_without_watermark_is_the_standard_table_less_its_watermark():
    with_, without = queries.load("q0").script, queries.load("q0@nexmark_no_watermark").script
    assert "WATERMARK FOR" in with_ and "WATERMARK" not in without
    assert without.replace(" ", "") in with_.replace(" ", "").replace(
        ",\nWATERMARKFOR`dateTime`AS`dateTime`-INTERVAL'4'SECOND", "")
    assert queries.load("q0@nexmark_no_watermark").data == "nexmark"
    with pytest.raises(ValueError, match="no event time"):
        queries.load("q5@nexmark_no_watermark")


@pytest.mark.parametrize("stock, accelerated, noted", [(10.0, 25.0, True), (10.0, 11.0, False)])
def test_the_page_says_when_batching_explains_part_of_the_gain(stock, accelerated, noted):
    rendered = invented_report(("q0",), rounds=1)
    rendered["queries"][0]["stock"]["producer"] = {"records-per-request-avg": stock}
    rendered["queries"][0]["accelerated"]["producer"] = {"records-per-request-avg": accelerated}
    text = report.markdown(rendered)
    assert ("larger Kafka requests" in text) is noted
    assert f"| q0 | – / {stock:.1f} / {accelerated:.1f} |" in text


def test_the_page_gives_the_exact_path_share_and_what_reshaped_json_costs():
    rendered = invented_report(("q0", "q0@nexmark_reshaped"), rounds=1)
    plain, reshaped = rendered["queries"]
    reshaped["accelerated"]["exact_path_share"] = 0.25
    reshaped["accelerated"]["cpu_s_per_m"] = 2 * plain["accelerated"]["cpu_s_per_m"]
    reshaped["stock"]["cpu_s_per_m"] = 1.5 * plain["stock"]["cpu_s_per_m"]
    text = report.markdown(rendered)
    assert "q0@nexmark_reshaped 25.0%" in text
    assert "costs 2.00x the CPU per event of Flink-written JSON (`q0`) accelerated, 1.50x stock" in text
