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


@pytest.mark.services
def test_digests_cover_keys_headers_and_timestamps(kafka_broker, new_topic):
    base = [Record(value=f"v{i}".encode(), key=f"k{i}".encode(), headers=(("h", f"{i}".encode()),),
                   timestamp=1_700_000_000_000 + i, partition=0) for i in range(50)]
    last = base[-1]
    variants = {
        "same": base,
        "key": base[:-1] + [Record(last.value, b"other", 0, last.timestamp, last.headers)],
        "no key": base[:-1] + [Record(last.value, None, 0, last.timestamp, last.headers)],
        "header": base[:-1] + [Record(last.value, last.key, 0, last.timestamp, (("h", b"other"),))],
        "header name": base[:-1] + [Record(last.value, last.key, 0, last.timestamp, (("g", b"49"),))],
        "timestamp": base[:-1] + [Record(last.value, last.key, 0, last.timestamp + 1, last.headers)],
    }
    topics = {name: new_topic("digest", 1) for name in variants}
    # The broker stamps these itself: same messages, another timestamp type.
    topics["log append time"] = new_topic("digest", 1, {"message.timestamp.type": "LogAppendTime"})
    variants["log append time"] = base
    original = new_topic("digest", 1)
    kafka_broker.produce(original, base)
    for name, records in variants.items():
        kafka_broker.produce(topics[name], records)

    def digests(timestamps):
        return {name: outputs.digest(kafka_broker, topic, ordered=True, timestamps=timestamps)
                for name, topic in {"original": original, **topics}.items()}

    without, with_ = digests(False), digests(True)
    differ = {name for name in variants if without[name] != without["original"]}
    assert differ == {"key", "no key", "header", "header name", "log append time"}
    differ = {name for name in variants if with_[name] != with_["original"]}
    assert differ == {"key", "no key", "header", "header name", "timestamp", "log append time"}
    assert "key b'other'" in outputs.first_difference(kafka_broker, original, topics["key"])


def test_every_query_file_has_a_kind_and_renders():
    for name in queries.DEFAULT:
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
    modes = sorted((r["query"], r["mode"]) for r in report["runs"])
    assert modes == [("floor_read", "read-floor"), ("q0", "accelerated"), ("q0", "stock"), ("q0", "write-floor"),
                     ("q1", "accelerated"), ("q1", "stock"), ("q1", "write-floor")]
    per_request = []
    for q in report["queries"]:
        write = q["floor"]["write"]
        assert write["output_messages"] == bids and write["cpu_s_per_m"] > 0
        # A job that ends within the metric fetcher's interval may leave no reading (docs: "n/a").
        per_request += [q[side]["producer"]["records-per-request-avg"] for side in ("stock", "accelerated")
                        if "records-per-request-avg" in q[side]["producer"]]
    assert per_request and all(v >= 1 for v in per_request), per_request
    assert report["read_floors"]["nexmark"]["cpu_s_per_m"] > 0
    assert report_path.with_suffix(".png").read_bytes().startswith(PNG_MAGIC)
    table = report_path.with_suffix(".md").read_text()
    assert "| q0 |" in table and "| q1 |" in table and "floor" in table
    page = (tmp_path / "performance.md").read_text()
    assert "accelerator bench --events 20000" in page and report["host"] in page


@pytest.mark.parametrize("column, writes", [
    ("ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'", True),
    ("`timestamp` TIMESTAMP_LTZ(3) METADATA", True),
    ("ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL", False),
    ("ts TIMESTAMP(3)", False),
])
def test_only_a_sink_that_writes_the_timestamp_column_has_its_timestamps_compared(column, writes):
    script = f"-- kind: stateless\nCREATE TABLE out (v BIGINT, {column}) WITH (${{sink}});\nINSERT INTO out SELECT 1;"
    assert queries.Query("q", "stateless", "nexmark", script).writes_timestamps is writes
