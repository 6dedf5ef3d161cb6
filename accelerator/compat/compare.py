"""Compares what stock and accelerated Flink wrote to one sink topic."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from accelerator.testing.kafka import Record

IDENTICAL, EQUIVALENT, MISMATCH, ERROR = "identical", "equivalent", "mismatch", "error"


@dataclass(frozen=True)
class Comparison:
    status: str
    passed: bool
    detail: str = ""


def _message(r: Record) -> tuple:
    """What must match: value, key and headers bytes (timestamps are the producer's clock unless
    the sink writes them, see `timestamps` of `compare`)."""
    return (r.value, r.key, r.headers)


def _message_and_timestamp(r: Record) -> tuple:
    return (r.value, r.key, r.headers, r.timestamp)


def compare(stock: list[Record], accelerated: list[Record], *, ordered: bool = True, final: bool = False,
            fmt: str | None = None, tolerate: tuple[str, ...] = (), timestamps: bool = False) -> Comparison:
    """identical: same bytes (per partition in order, or as a multiset); equivalent: same rows
    once decoded (passes only if every difference is in a tolerated column); else mismatch.
    `final` compares the tables both upsert changelogs leave behind instead of their messages.
    `timestamps`: the sink writes each record's timestamp (its `timestamp` metadata), so the
    record timestamps must match too."""
    if final:
        stock, accelerated, ordered = final_table(stock), final_table(accelerated), False
    if timestamps and not _same(stock, accelerated, ordered, _message_and_timestamp):
        if _same(stock, accelerated, ordered, _message):
            return Comparison(MISMATCH, False, "same messages, different record timestamps: "
                              + _first_difference(stock, accelerated, _message_and_timestamp))
        return Comparison(MISMATCH, False, _first_difference(stock, accelerated))
    if _same(stock, accelerated, ordered, _message):
        return Comparison(IDENTICAL, True)
    if fmt == "json":
        try:
            if _same(stock, accelerated, ordered, lambda r: _decoded(r, ())):
                return Comparison(EQUIVALENT, False, "same rows, different bytes: "
                                  + _first_difference(stock, accelerated))
            if tolerate and _same(stock, accelerated, ordered, lambda r: _decoded(r, tolerate)):
                return Comparison(EQUIVALENT, True, f"differs only in tolerated columns {list(tolerate)}")
        except ValueError:
            pass  # not JSON on one side: a plain mismatch
    return Comparison(MISMATCH, False, _first_difference(stock, accelerated))


def final_table(records: list[Record]) -> list[Record]:
    """Per key, the last message of its partition; a tombstone (null value) deletes the key.

    How many intermediate updates a changelog holds can depend on which input Flink read first
    (a left join emits a null-padded row and then its update, or only the joined row), so for
    such jobs what must match is where the changelog ends, as an upsert-kafka reader sees it."""
    table: dict[tuple, Record] = {}
    for r in records:
        if r.value is None:
            table.pop((r.partition, r.key), None)
        else:
            table[(r.partition, r.key)] = r
    return list(table.values())


def _same(a: list[Record], b: list[Record], ordered: bool, key) -> bool:
    if ordered:
        return _by_partition(a, key) == _by_partition(b, key)
    return Counter(map(key, a)) == Counter(map(key, b))


def _by_partition(records: list[Record], key) -> dict[int, list]:
    out: dict[int, list] = {}
    for r in records:
        out.setdefault(r.partition, []).append(key(r))
    return out


def _decoded(r: Record, dropped: tuple[str, ...]) -> tuple:
    value = None if r.value is None else json.loads(r.value)
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if k not in dropped}
    return (json.dumps(value, sort_keys=True), r.key, r.headers)


def _first_difference(stock: list[Record], accelerated: list[Record], key=_message) -> str:
    if len(stock) != len(accelerated):
        return f"stock wrote {len(stock)} messages, accelerated {len(accelerated)}"
    for i, (s, a) in enumerate(zip(stock, accelerated)):
        if key(s) != key(a) or s.partition != a.partition:
            return (f"message {i} (partition {s.partition}): stock {_show(s)} vs accelerated {_show(a)}")
    return "same messages in a different order"


def _show(r: Record, limit: int = 200) -> str:
    text = repr(r.value) + (f" headers {r.headers!r}" if r.headers else "") + f" at {r.timestamp}"
    return (text[:limit] + "...") if len(text) > limit else text
