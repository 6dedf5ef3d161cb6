"""The benchmark's SQL: `benchmarks/queries/nexmark.sql` (source table and views) plus one file
per query, whose `-- kind:` line says whether it is stateless, stateful or a floor."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from accelerator.testing.locations import REPO_ROOT

QUERY_DIR = REPO_ROOT / "benchmarks" / "queries"
KINDS = ("stateless", "stateful", "floor")
KIND_LINE = re.compile(r"^--\s*kind:\s*(\w+)\s*$", re.M)
#: `-- compare: at-most-bids <key> <count>`: a query whose rows depend on the wall clock (processing
#: time) is checked by what holds on every run: each key's sum of the count column over all output
#: rows is at most the input's bids with that key (in the bid column of the same name).
TOTALS_LINE = re.compile(r"^--\s*compare:\s*at-most-bids\s+(\w+)\s+(\w+)\s*$", re.M)
#: A sink column that writes the Kafka record's timestamp (a VIRTUAL one is only read).
TIMESTAMP_METADATA = re.compile(r"METADATA\s+FROM\s+'timestamp'(?!\s+VIRTUAL)|`?timestamp`?\s+TIMESTAMP_LTZ\(\d\)\s+"
                                r"METADATA(?!\s+(FROM|VIRTUAL))", re.I)
#: The stateless queries, the stateful ones (partial acceleration: source and Calcs accelerated,
#: the stateful operators stock; `make bench-stateful` runs them alone), then q0 over the standard
#: table without its watermark and over reshaped JSON, then q0-q2 over the flat bid table.
DEFAULT = ("q0", "q1", "q2", "q14", "q21", "q22", "q3", "q5", "q7", "q8", "q11", "q0@nexmark_no_watermark",
           "q0@nexmark_reshaped", "q0@bid", "q1@bid", "q2@bid")
#: The floors: a source topic read raw into a blackhole; a query's output topic copied raw.
READ_FLOOR, WRITE_FLOOR = "floor_read", "floor_write"
#: The stateful Nexmark queries whose operators the accelerator has (issue 18), with the
#: aggregation halves of q4, q5 and q7, the regular joins (issue 19: q3, q4, q7, q20; q7 joins
#: bids with each window's highest price) and the window joins of two window aggregates (q5, q8):
#: what `make bench-stateful` runs on both state backends.
STATEFUL = ("q4_agg", "q5_agg", "q7_agg", "q11", "q12", "q15", "q16", "q17", "q18", "q19", "q3", "q4", "q7", "q20",
            "q5", "q8")
WATERMARK = re.compile(r",\s*WATERMARK FOR [^\n]*")
#: `-- compare: final`: a query whose intermediate updates depend on the order in which its
#: operators read their inputs (a join's two inputs arrive over separate channels, in stock Flink
#: too) is compared by what its upsert sink holds at the end: each key's last value.
FINAL_LINE = re.compile(r"^--\s*compare:\s*final\s*$", re.M)


@dataclass(frozen=True)
class Source:
    """A source table a query can read: the DDL file that declares it, the generated data in its
    topic (`nexmark.TABLES`), and whether it keeps the DDL's WATERMARK."""

    ddl: str
    data: str
    watermark: bool = True


SOURCES = {
    "nexmark": Source("nexmark", "nexmark"),
    # The standard table without its WATERMARK: stock Flink then computes no watermark either, so
    # q0 on it shows the kernels' speed apart from the accelerated plan dropping the watermark.
    "nexmark_no_watermark": Source("nexmark", "nexmark", watermark=False),
    # The standard table over messages other JSON producers write (fields shuffled, whitespace,
    # escapes): what the decoder's exact path takes over from its fast path, and what that costs.
    "nexmark_reshaped": Source("nexmark", "nexmark_reshaped"),
    "bid": Source("bid", "bid"),
}
DATA_TABLES = tuple(dict.fromkeys(s.data for s in SOURCES.values()))


@dataclass(frozen=True)
class Query:
    name: str  # the file's name, then `@<table>` when it reads another source table than nexmark
    kind: str
    source: str  # a key of SOURCES: nexmark (standard table and views), bid (flat), ...
    script: str  # with ${...} placeholders: bootstrap, source_topic, sink_topic, format, sink, upsert_sink

    @property
    def data(self) -> str:
        """The generated data (nexmark.TABLES) in the topic the query reads."""
        return SOURCES[self.source].data

    @property
    def ordered(self) -> bool:
        """Stateless outputs keep the source partitions' order; stateful ones (shuffles, joins
        of two inputs) do not, so those are compared as multisets of messages."""
        return self.kind != "stateful"

    @property
    def totals(self) -> tuple[str, str] | None:
        """(key column, count column) when the query's outputs are checked by per-key totals
        against the input's bids (`TOTALS_LINE`), not compared with stock's."""
        found = TOTALS_LINE.search(self.script)
        return (found.group(1), found.group(2)) if found else None

    @property
    def final(self) -> bool:
        """Whether outputs are compared by each key's last value (`FINAL_LINE`)."""
        return FINAL_LINE.search(self.script) is not None

    @property
    def writes_timestamps(self) -> bool:
        """Whether the sink sets the messages' timestamps (else the producer stamps the wall
        clock, and only the timestamp type can be compared)."""
        return TIMESTAMP_METADATA.search(self.script.rpartition("-- kind:")[2]) is not None


def load(name: str, directory: Path = QUERY_DIR) -> Query:
    """`q0` is q0.sql over the standard nexmark table; `q0@bid` the same query over the flat
    bid table; `floor_read@bid` reads that source's topic raw (the floors declare their own
    tables)."""
    stem, _, source = name.partition("@")
    source = source or "nexmark"
    path = directory / f"{stem}.sql"
    ddl_files = {s.ddl for s in SOURCES.values()}
    if not path.exists() or stem in ddl_files:
        known = sorted(p.stem for p in directory.glob("*.sql") if p.stem not in ddl_files)
        raise ValueError(f"no query {stem!r} in {directory}; known: {', '.join(known)}")
    if source not in SOURCES:
        raise ValueError(f"query {name!r}: no source table {source!r}; have {', '.join(SOURCES)}")
    text = path.read_text()
    kind = KIND_LINE.search(text)
    if kind is None or kind.group(1) not in KINDS:
        raise ValueError(f"{path}: needs a '-- kind: {'|'.join(KINDS)}' line")
    table = SOURCES[source]
    if kind.group(1) == "stateful" and (table.ddl != "nexmark" or not table.watermark):
        raise ValueError(f"query {name!r}: the {source} table has no event time; stateful queries "
                         "run on the standard nexmark table only")
    script = text if kind.group(1) == "floor" else source_ddl(source, directory) + "\n" + text
    return Query(name, kind.group(1), source, script)


def source_ddl(source: str, directory: Path = QUERY_DIR) -> str:
    table = SOURCES[source]
    text = (directory / f"{table.ddl}.sql").read_text()
    if not table.watermark:
        text, found = WATERMARK.subn("", text)
        if found != 1:
            raise ValueError(f"{table.ddl}.sql: expected one WATERMARK clause to leave out for {source}, "
                             f"found {found}")
    return text


#: Kafka transactions of an exactly-once sink: Flink's default timeout (1 h) is above the broker's
#: `transaction.max.timeout.ms` (15 min), which would refuse the producer.
TRANSACTION_TIMEOUT_MS = 600_000


def _exactly_once(topic: str) -> str:
    """Sink options for Kafka transactions committed on checkpoints; the sink topic (unique per
    run) is the transactional id prefix, so no two jobs share transactional ids."""
    return (f", 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '{topic}', "
            f"'properties.transaction.timeout.ms' = '{TRANSACTION_TIMEOUT_MS}'")


def sink_options(bootstrap: str, topic: str, fmt: str, exactly_once: bool = False) -> str:
    """The WITH clause of a query's sink: a Kafka topic, each subtask writing its own partition
    (`fixed`), so that a stateless query's output order is the same on every run."""
    return (f"'connector' = 'kafka', 'topic' = '{topic}', 'properties.bootstrap.servers' = '{bootstrap}', "
            f"'sink.partitioner' = 'fixed', 'format' = '{fmt}'" + (_exactly_once(topic) if exactly_once else ""))


def upsert_sink_options(bootstrap: str, topic: str, fmt: str, exactly_once: bool = False) -> str:
    """The WITH clause of a sink for an updating query (group aggregate, deduplication, top-N):
    `upsert-kafka`, keyed by the table's primary key in the same format as the values."""
    return (f"'connector' = 'upsert-kafka', 'topic' = '{topic}', 'properties.bootstrap.servers' = '{bootstrap}', "
            f"'key.format' = '{fmt}', 'value.format' = '{fmt}'" + (_exactly_once(topic) if exactly_once else ""))


def render_params(bootstrap: str, source_topic: str, sink_topic: str, fmt: str,
                  exactly_once: bool = False) -> dict[str, str]:
    return {"bootstrap": bootstrap, "source_topic": source_topic, "sink_topic": sink_topic, "format": fmt,
            "sink": sink_options(bootstrap, sink_topic, fmt, exactly_once),
            "upsert_sink": upsert_sink_options(bootstrap, sink_topic, fmt, exactly_once)}
