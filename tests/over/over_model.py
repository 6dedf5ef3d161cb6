"""A row-at-a-time model of Flink 2.2.1's `RowTimeUnboundedPrecedingOverFunctionV2`, written from
its code: rows later than the watermark are held per (key, timestamp), each such pair has one
event-time timer; a fired timer accumulates its rows in arrival order into the key's accumulators
(made on its first firing) and emits each row with the values (ROWS: after the row, RANGE: after
all rows of the timestamp). The accumulators follow the generated code's Java arithmetic."""

from __future__ import annotations

import math


def wrap(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


class JavaAggregate:
    """One aggregate's accumulator: `function` is count1, count, sum, sum0, min, max or avg;
    `kind` is "int", "bigint" or "double" (the argument's)."""

    def __init__(self, function: str, kind: str):
        self.function, self.kind = function, kind
        self.bits = 32 if kind == "int" else 64
        self.acc = 0 if function in ("count1", "count") else (0.0 if kind == "double" else 0) \
            if function == "sum0" else None
        self.count = 0

    def add(self, x) -> None:
        f = self.function
        if f == "count1":
            self.acc = wrap(self.acc + 1, 64)
            return
        if x is None:
            return
        if f == "count":
            self.acc = wrap(self.acc + 1, 64)
        elif f in ("sum", "sum0"):
            if self.acc is None:
                self.acc = x
            elif self.kind == "double":
                self.acc = self.acc + x
            else:
                self.acc = wrap(self.acc + x, self.bits)
        elif f in ("min", "max"):
            if self.acc is None or (x < self.acc if f == "min" else x > self.acc):
                self.acc = x
        elif f == "avg":  # AvgAggFunction: sum from 0 (BIGINT or DOUBLE), count
            if self.acc is None:
                self.acc = 0.0 if self.kind == "double" else 0
            self.acc = self.acc + x if self.kind == "double" else wrap(self.acc + x, 64)
            self.count += 1

    def value(self):
        if self.function != "avg":
            return self.acc
        if self.count == 0:
            return None
        if self.kind == "double":
            return self.acc / self.count
        quotient = abs(self.acc) // self.count * (1 if self.acc * self.count >= 0 else -1)  # Java long division
        return wrap(quotient, self.bits)


class OverModel:
    def __init__(self, aggregates: list[tuple[str, str, str]], frame: str):
        """`aggregates`: (function, argument column, argument kind)."""
        self.aggregates, self.frame = aggregates, frame
        self.watermark = -2 ** 63
        self.held: dict[object, dict[int, list[dict]]] = {}
        self.accs: dict[object, list[JavaAggregate]] = {}
        self.dropped = 0

    def element(self, key, ts: int, row: dict) -> None:
        if ts <= self.watermark:
            self.dropped += 1
            return
        self.held.setdefault(key, {}).setdefault(ts, []).append(row)

    def advance(self, watermark: int) -> dict[tuple, list[tuple]]:
        """The rows each (key, timestamp) timer emits at `watermark`: the row's values then the aggregates."""
        self.watermark = max(self.watermark, watermark)
        out = {}
        for key, by_time in self.held.items():
            for ts in sorted(t for t in by_time if t <= self.watermark):
                accs = self.accs.setdefault(key, [JavaAggregate(f, kind) for f, _, kind in self.aggregates])
                rows = by_time.pop(ts)
                emitted = []
                for row in rows:
                    for acc, (_, arg, _) in zip(accs, self.aggregates):
                        acc.add(None if arg is None else row[arg])
                    if self.frame == "rows":
                        emitted.append(tuple(row.values()) + tuple(a.value() for a in accs))
                if self.frame == "range":
                    emitted = [tuple(row.values()) + tuple(a.value() for a in accs) for row in rows]
                out[(key, ts)] = emitted
        return out


def same(a, b) -> bool:
    """Equal as Java's bits would be: NaN equals NaN, 0.0 differs from -0.0."""
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    return a == b and type(a) is type(b)
