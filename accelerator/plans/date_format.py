"""Flink's DATE_FORMAT of a TIMESTAMP: java.time's DateTimeFormatter over the value in UTC.

Flink 2.2.1 formats with `DateTimeFormatter.ofPattern(pattern)` the LocalDateTime of the value in
UTC (ISO chronology, proleptic Gregorian calendar). The Java shim reads the pattern into the
printers the JDK's builder makes of it (`DateTimePatternSubset`: numbers, a two-digit reduced year,
fraction digits, literal text) and hands them over as JSON; this module prints them over whole
columns, the calendar fields computed from Flink's (millis, nanos) pair with integer arithmetic
(floor division, so times before 1970 fall in the right day).
"""

from __future__ import annotations

import functools
import json

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.formats import timestamps

_MILLIS_PER_DAY = 86_400_000


@functools.lru_cache(maxsize=64)
def _printers(spec: str) -> tuple[dict, ...]:
    return tuple(json.loads(spec))


class _Fields:
    """The LocalDateTime fields of a column of epoch milliseconds and nanos of the millisecond,
    each computed on first use (numpy int64 arrays)."""

    def __init__(self, millis: np.ndarray, nanos: np.ndarray):
        self.millis, self.nanos = millis, nanos

    @functools.cached_property
    def date(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(proleptic year, month, day) of the epoch day: the civil-from-days algorithm (H. Hinnant)."""
        z = np.floor_divide(self.millis, _MILLIS_PER_DAY) + 719_468
        era = np.floor_divide(z, 146_097)
        doe = z - era * 146_097
        yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
        doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
        mp = (5 * doy + 2) // 153
        day = doy - (153 * mp + 2) // 5 + 1
        month = np.where(mp < 10, mp + 3, mp - 9)
        return yoe + era * 400 + (month <= 2), month, day

    @functools.cached_property
    def millis_of_day(self) -> np.ndarray:
        return np.mod(self.millis, _MILLIS_PER_DAY)

    def field(self, name: str) -> np.ndarray:
        """The ChronoField `name` (as the shim writes it) of every value."""
        return _FIELDS[name](self)

    def nano_of_second(self) -> np.ndarray:
        return self.millis_of_day % 1000 * 1_000_000 + self.nanos


def _hour_of_day(f: _Fields) -> np.ndarray:
    return f.millis_of_day // 3_600_000


_FIELDS = {
    "YEAR": lambda f: f.date[0],
    "YEAR_OF_ERA": lambda f: np.where(f.date[0] >= 1, f.date[0], 1 - f.date[0]),
    "MONTH_OF_YEAR": lambda f: f.date[1],
    "DAY_OF_MONTH": lambda f: f.date[2],
    "HOUR_OF_DAY": _hour_of_day,
    "HOUR_OF_AMPM": lambda f: _hour_of_day(f) % 12,
    "CLOCK_HOUR_OF_AMPM": lambda f: np.where(_hour_of_day(f) % 12 == 0, 12, _hour_of_day(f) % 12),
    "CLOCK_HOUR_OF_DAY": lambda f: np.where(_hour_of_day(f) == 0, 24, _hour_of_day(f)),
    "MINUTE_OF_HOUR": lambda f: f.millis_of_day // 60_000 % 60,
    "SECOND_OF_MINUTE": lambda f: f.millis_of_day // 1000 % 60,
}


def _digits(values: np.ndarray, width: int) -> pa.Array:
    """|values| in decimal, zero-padded on the left to `width` digits."""
    text = pc.cast(pa.array(np.abs(values)), pa.string())
    return pc.utf8_lpad(text, width, "0") if width > 1 else text


def _number(values: np.ndarray, width: int, sign: str) -> pa.Array:
    """Java's NumberPrinterParser of (width, 19, sign): '-' before a negative value (NOT_NEGATIVE
    fields never are), '+' under EXCEEDS_PAD before a value of more than `width` digits."""
    text = _digits(values, width)
    minus = values < 0
    plus = values >= 10 ** width if sign == "EXCEEDS_PAD" else np.zeros(len(values), bool)  # widths up to 10
    if not (minus.any() or plus.any()):
        return text
    prefix = pa.array(np.where(minus, "-", np.where(plus, "+", "")), pa.string())
    return pc.binary_join_element_wise(prefix, text, "")


def _print(printer: dict, fields: _Fields) -> pa.Array | str:
    if "literal" in printer:
        return printer["literal"]
    if "fraction" in printer:
        n = printer["fraction"]
        return _digits(fields.nano_of_second() // 10 ** (9 - n), n)
    if "reduced" in printer:
        return _digits(np.abs(fields.field(printer["reduced"])) % 100, 2)
    return _number(fields.field(printer["value"]), printer["width"], printer["sign"])


def date_format(ts: pa.Array, spec: pa.Array) -> pa.Array:
    """DATE_FORMAT(ts, pattern) for the printers the shim read from the literal pattern (`spec`,
    the same JSON on every row); NULL for a NULL timestamp."""
    if len(ts) == 0:
        return pa.array([], pa.string())
    fields = _Fields(pc.fill_null(timestamps.millis(ts), 0).to_numpy(zero_copy_only=False).astype(np.int64),
                     pc.fill_null(timestamps.nanos(ts), 0).to_numpy(zero_copy_only=False).astype(np.int64))
    pieces = [_print(p, fields) for p in _printers(spec[0].as_py())]
    columns = [p for p in pieces if not isinstance(p, str)]
    if not columns:
        text = pa.array(["".join(pieces)] * len(ts), pa.string())
    else:
        text = pc.binary_join_element_wise(*pieces, "")
    return pc.if_else(ts.is_valid(), text, pa.scalar(None, pa.string()))
