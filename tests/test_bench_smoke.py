"""`accelerator bench` end to end at a tiny size, and the output digests it compares runs by."""

import json

import pytest

from accelerator.bench import outputs, queries, runner
from accelerator.testing.kafka import Record

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.mark.services
def test_digests_tell_order_and_content_apart(kafka_broker, new_topic):
    values = [f"message {i}".encode() for i in range(2500)]
    same, reordered, changed = new_topic("digest", 2), new_topic("digest", 2), new_topic("digest", 2)
    original = new_topic("digest", 2)
    placed = [Record(value=v, partition=i % 2) for i, v in enumerate(values)]
    for topic, records in ((original, placed), (same, placed), (reordered, placed[::-1]),
                           (changed, placed[:-1] + [Record(value=b"message X", partition=1)])):
        kafka_broker.produce(topic, records)
    digest = {t: (outputs.digest(kafka_broker, t, ordered=True), outputs.digest(kafka_broker, t, ordered=False))
              for t in (original, same, reordered, changed)}
    assert digest[original][0].messages == 2500
    assert digest[original] == digest[same]
    # Reversed: each partition holds the same messages as before, in the opposite order.
    assert digest[reordered][0] != digest[original][0] and digest[reordered][1] == digest[original][1]
    assert digest[changed][0] != digest[original][0] and digest[changed][1] != digest[original][1]
    assert "partition 1, message 1249" in outputs.first_difference(kafka_broker, original, changed)


def test_every_query_file_has_a_kind_and_renders():
    for name in (*queries.DEFAULT, queries.FLOOR):
        q = queries.load(name)
        text = q.script
        for key, value in queries.render_params("b:1", "src", "out", "json").items():
            text = text.replace("${" + key + "}", value)
        assert "${" not in text, name
        assert "INSERT INTO" in text and "'topic' = 'out'" in text, name


@pytest.mark.services
def test_bench_runs_stock_and_accelerated_and_writes_the_report(tmp_path):
    report_path = tmp_path / "report.json"
    lines = []
    code = runner.main(20_000, ["q0", "q1"], 1, "json", 1, report_path, tmp_path / "performance.md",
                       "accelerator bench --events 20000 --queries q0,q1 --rounds 1 --no-warm-up", warm_up=False,
                       out=lines.append)
    assert code == 0, "\n".join(lines)
    report = json.loads(report_path.read_text())
    assert (report["events"], report["parallelism"], report["rounds"]) == (20_000, 1, 1)
    assert [q["query"] for q in report["queries"]] == ["q0", "q1"]
    bids = 20_000 * 46 // 50
    for q in report["queries"]:
        assert q["outputs_identical"] is True
        assert q["stock"]["output_messages"] == q["accelerated"]["output_messages"] == bids
        assert q["acceleration"] in ("stock", "partial", "accelerated")
        for side in ("stock", "accelerated"):
            assert q[side]["events_per_s"] > 0 and q[side]["cpu_s_per_m"] > 0 and q[side]["peak_rss_mb"] > 100
    assert report["floor"]["output_messages"] == 20_000
    modes = sorted((r["query"], r["mode"]) for r in report["runs"])
    assert modes == [("floor", "floor"), ("q0", "accelerated"), ("q0", "stock"), ("q1", "accelerated"),
                     ("q1", "stock")]
    assert report_path.with_suffix(".png").read_bytes().startswith(PNG_MAGIC)
    table = report_path.with_suffix(".md").read_text()
    assert "| q0 |" in table and "| q1 |" in table and "floor" in table
    page = (tmp_path / "performance.md").read_text()
    assert "accelerator bench --events 20000" in page and report["host"] in page
