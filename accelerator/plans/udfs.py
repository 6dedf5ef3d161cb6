"""Flink's semantics for the functions where DataFusion's built-ins differ.

The Java shim names these under its Flink extension URN (`flink_*`); DataFusion's Substrait
consumer finds functions by name, so registering these UDFs under the same names is all the
wiring there is. Each works on whole Arrow arrays; DataFusion hands scalar arguments over as
arrays of the batch's length.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from datafusion import ScalarUDF, udf

from accelerator import _native
from accelerator.formats import native_arrays, timestamps
from accelerator.plans.date_format import date_format

_INTEGERS = {"i8": pa.int8(), "i16": pa.int16(), "i32": pa.int32(), "i64": pa.int64()}


class FlinkArithmeticError(ArithmeticError):
    """The row would have failed the stock Flink job too (Java's ArithmeticException)."""


def divide(a: pa.Array, b: pa.Array) -> pa.Array:
    """Java integer division: truncates toward zero, MIN / -1 wraps to MIN, / 0 fails."""
    valid = pc.and_(pc.is_valid(a), pc.is_valid(b))
    if pc.any(pc.and_(valid, pc.equal(b, 0))).as_py():
        raise FlinkArithmeticError("/ by zero (Flink fails the job on this row as well)")
    minus_one = pc.fill_null(pc.equal(b, -1), False)
    safe_divisor = pc.if_else(pc.or_(minus_one, pc.invert(valid)), pa.scalar(1, b.type), b)
    quotient = pc.if_else(minus_one, pc.negate(a), pc.divide(a, safe_divisor))  # negate wraps, as Java's
    return pc.if_else(valid, quotient, pa.scalar(None, a.type))


def absolute(a: pa.Array) -> pa.Array:
    """Java's Math.abs: ABS(MIN) stays MIN (Arrow's unchecked abs wraps the same way)."""
    return pc.abs(a)


def concat(a: pa.Array, b: pa.Array) -> pa.Array:
    """Flink's CONCAT and ||: NULL if either side is NULL."""
    return pc.binary_join_element_wise(a, b, "", null_handling="emit_null")


def _constant(values: pa.Array) -> int | None:
    """The single non-null value of an array that holds only it, else None."""
    if len(values) == 0 or values.null_count:
        return None
    low, high = pc.min_max(values).values()
    return low.as_py() if low == high else None


def substring(s: pa.Array, pos: pa.Array, length: pa.Array) -> pa.Array:
    """Flink's SUBSTRING on code points: position 0 means 1, a negative position counts from the
    end (before the start gives ''), a negative length gives NULL."""
    p, n = _constant(pos), _constant(length)
    if p is None or n is None:
        return pa.array([_substring_one(*row) for row in zip(s.to_pylist(), pos.to_pylist(), length.to_pylist())],
                        pa.string())
    if n < 0:
        return pa.nulls(len(s), pa.string())
    if p >= 0:
        start = max(p - 1, 0)
        return pc.utf8_slice_codeunits(s, start, start + n)
    stop = p + n if p + n < 0 else None
    sliced = pc.utf8_slice_codeunits(s, p, stop) if stop is not None else pc.utf8_slice_codeunits(s, p)
    before_start = pc.less(pc.utf8_length(s), -p)
    return pc.if_else(before_start, pa.scalar("", pa.string()), sliced)


def _substring_one(s: str | None, pos: int | None, length: int | None) -> str | None:
    if s is None or pos is None or length is None or length < 0:
        return None
    if pos > 0:
        start = pos - 1
    elif pos < 0:
        start = len(s) + pos
        if start < 0:
            return ""
    else:
        start = 0
    return s[start:start + length]


def split_index(s: pa.Array, separator: pa.Array, index: pa.Array) -> pa.Array:
    """Flink's SPLIT_INDEX with a literal separator: the index-th piece (from 0) of splitting on
    the whole separator, keeping empty pieces; NULL for a negative or missing index; '' has no
    pieces at all. One index for the batch (a literal, as in Nexmark q22) runs natively."""
    sep = separator[0].as_py() if len(separator) else None
    if sep is None or len(s) == 0:
        return pa.nulls(len(s), pa.string())
    i = _constant(index)
    if i is not None:
        if i < 0:
            return pa.nulls(len(s), pa.string())
        return native_arrays.column(pa.string(), len(s), _native.split_index(
            native_arrays.message_buffers(s), sep.encode(), i))
    pieces = pc.split_pattern(s, sep)
    counts = pc.list_value_length(pieces)
    usable = pc.and_(pc.and_(pc.greater_equal(index, 0), pc.less(index, counts)), pc.not_equal(s, ""))
    usable = pc.fill_null(usable, False)
    offsets = pieces.offsets.slice(0, len(s)).cast(pa.int64())
    positions = pc.if_else(usable, pc.add(offsets, index.cast(pa.int64())), pa.scalar(0, pa.int64()))
    values = pieces.values if len(pieces.values) else pa.array([""], pa.string())
    return pc.if_else(usable, values.take(positions), pa.scalar(None, pa.string()))


def timestamp_literal(millis: pa.Array, nanos: pa.Array) -> pa.StructArray:
    """A TIMESTAMP or TIMESTAMP_LTZ literal: Flink's TimestampData.fromEpochMillis(millis, nanos),
    which the Java shim hands over as its two parts (Substrait has no literal of the struct)."""
    valid = pc.and_(pc.is_valid(millis), pc.is_valid(nanos)).to_numpy(zero_copy_only=False)
    return timestamps.from_parts(pc.fill_null(millis, 0), pc.fill_null(nanos, 0), valid)


def extract(ts: pa.Array, within: pa.Array, unit: pa.Array) -> pa.Array:
    """Flink's EXTRACT of a time-of-day field from a TIMESTAMP: (ts.getMillisecond() % within) /
    unit with Java's truncating % and / (negative before 1970, as Flink's generated code gives)."""
    if len(ts) == 0:
        return pa.array([], pa.int64())
    w, u = _constant(within), _constant(unit)
    if w is None or u is None:
        raise ValueError("flink_extract takes the units as literals (the Java shim writes them so)")
    millis = pc.fill_null(timestamps.millis(ts), 0).to_numpy(zero_copy_only=False)
    of_unit = np.fmod(millis, w)
    field = np.sign(of_unit) * (np.abs(of_unit) // u)
    return pa.array(field, pa.int64(), mask=ts.is_null().to_numpy(zero_copy_only=False))


class BatchFacts:
    """What the stage running a plan knows of the messages behind the current batch, for the UDFs
    whose exactness depends on it (the sidecar runs one batch at a time)."""

    #: Whether a decoded string may hold a '?' that stands for a lone UTF-16 surrogate of a message
    #: (json and csv read text as Jackson does; Flink stores such a surrogate as '?'). Unknown: yes.
    lone_surrogates_possible: bool = True


BATCH = BatchFacts()


def regexp_extract(s: pa.Array, pattern: pa.Array, index: pa.Array) -> pa.Array:
    """Flink's REGEXP_EXTRACT for the patterns the shim's JavaRegexSubset accepts: it hands over the
    pattern in RE2 syntax with every group named gN (g0 the whole match) and a group that takes part
    in every match, so RE2's first match and group are Java's Matcher.find() ones; NULL without a
    match (or for a NULL string). A '?' in a result stops the batch when it may stand for a lone
    surrogate (`BATCH`): Flink's function returns the surrogate itself."""
    if len(s) == 0:
        return pa.array([], pa.string())
    groups = pc.extract_regex(s, pattern[0].as_py())
    out = pc.struct_field(groups, f"g{index[0].as_py()}")
    if BATCH.lone_surrogates_possible:
        ambiguous = pc.match_substring(out, "?")
        if pc.any(ambiguous).as_py():
            raise FlinkLoneSurrogateError(pc.index(ambiguous, True).as_py())
    return out


class FlinkLoneSurrogateError(ValueError):
    """A REGEXP_EXTRACT result holds '?' in a batch whose messages may hold a lone UTF-16 surrogate:
    the sidecar holds one as the '?' Flink stores, but Flink's function returns it as it is and its
    sink writes it escaped, so the output could differ; the job stops rather than guess."""

    def __init__(self, row: int):
        super().__init__(f"REGEXP_EXTRACT's result in row {row} of this batch holds '?', and this batch's messages hold"
                         f" non-ASCII bytes or \\u escapes, so that '?' may be a lone UTF-16 surrogate of the message"
                         f" (the sidecar holds those as '?'); stock Flink would return the surrogate itself, so the"
                         f" accelerated output could differ. Run this query on stock Flink (turn the accelerator off"
                         f" for the job)")
        self.row = row


def timestamp_plus_millis(ts: pa.Array, millis: pa.Array) -> pa.StructArray:
    """Flink's TIMESTAMP (or TIMESTAMP_LTZ) plus a day-time INTERVAL of `millis` milliseconds:
    TimestampData.fromEpochMillis(ts.getMillisecond() + millis, ts.getNanoOfMillisecond()), the
    long sum wrapping as Java's does; NULL if either is NULL."""
    valid = pc.and_(pc.is_valid(ts), pc.is_valid(millis)).to_numpy(zero_copy_only=False)
    shifted = pc.add(pc.fill_null(timestamps.millis(ts), 0), pc.fill_null(millis.cast(pa.int64()), 0))
    return timestamps.from_parts(shifted, pc.fill_null(timestamps.nanos(ts), 0), valid)


#: Flink's DateTimeUtils bounds: 0000-01-01T00:00:00 and 9999-12-31T23:59:59.999 in epoch milliseconds.
_MIN_EPOCH_MILLIS, _MAX_EPOCH_MILLIS = -62167219200000, 253402300799999


def to_timestamp_ltz(epoch: pa.Array, unit_millis: pa.Array) -> pa.StructArray:
    """Flink's TO_TIMESTAMP_LTZ of an integer (DateTimeUtils.toTimestampData(long, precision)):
    epoch seconds (`unit_millis` 1000, precision 0) or milliseconds (1); NULL outside the years
    0000-9999 (seconds bounded before scaling, as Flink)."""
    if len(epoch) == 0:
        return timestamps.from_parts([], [])
    unit = _constant(unit_millis)
    if unit not in (1, 1000):
        raise ValueError("flink_to_timestamp_ltz takes the unit as a literal 1 or 1000 (the Java shim writes it so)")
    values = epoch.cast(pa.int64())
    low, high = -(-_MIN_EPOCH_MILLIS // unit), _MAX_EPOCH_MILLIS // unit
    in_range = pc.and_(pc.greater_equal(values, low), pc.less_equal(values, high))
    return timestamps.from_epoch_millis(pc.multiply(pc.if_else(in_range, values, pa.scalar(None, pa.int64())), unit))


def flink_udfs() -> list[ScalarUDF]:
    """Every UDF the Java side may name, for registering in a stage's SessionContext."""
    out = []
    for suffix, t in _INTEGERS.items():
        out.append(udf(divide, [t, t], t, "immutable", f"flink_divide_{suffix}"))
        out.append(udf(absolute, [t], t, "immutable", f"flink_abs_{suffix}"))
    out.append(udf(concat, [pa.string(), pa.string()], pa.string(), "immutable", "flink_concat"))
    out.append(udf(substring, [pa.string(), pa.int32(), pa.int32()], pa.string(), "immutable", "flink_substring"))
    ts = timestamps.ARROW_TYPE
    out.append(udf(timestamp_literal, [pa.int64(), pa.int32()], ts, "immutable", "flink_timestamp"))
    out.append(udf(extract, [ts, pa.int64(), pa.int64()], pa.int64(), "immutable", "flink_extract"))
    out.append(udf(timestamp_plus_millis, [ts, pa.int64()], ts, "immutable", "flink_timestamp_plus_millis"))
    out.append(udf(to_timestamp_ltz, [pa.int64(), pa.int64()], ts, "immutable", "flink_to_timestamp_ltz"))
    out.append(udf(date_format, [ts, pa.string()], pa.string(), "immutable", "flink_date_format"))
    out.append(udf(split_index, [pa.string(), pa.string(), pa.int32()], pa.string(), "immutable", "flink_split_index"))
    out.append(udf(regexp_extract, [pa.string(), pa.string(), pa.int32()], pa.string(), "immutable",
                   "flink_regexp_extract"))
    return out
