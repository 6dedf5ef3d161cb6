"""Text -> values exactly as the Java library calls in Flink's json decoder read them.

Flink reads numbers given as JSON strings with `Integer.parseInt`, `Double.parseDouble`,
`new BigDecimal(...)` and friends, booleans with `Boolean.parseBoolean`, and dates and times
with `java.time` formatters. Each of these has its own grammar (which signs, digits, spaces and
suffixes it takes) and rounding; Python's `int`, `float` and `Decimal` take different sets, so
the grammars are spelled out here. Every function raises `ValueError` where Java throws.
"""

from __future__ import annotations

import math
import re
import struct
import unicodedata
from decimal import ROUND_HALF_UP, Context, Decimal, InvalidOperation
from fractions import Fraction

_TRIM = "".join(chr(c) for c in range(0x21))  # String.trim() strips every char <= U+0020


def trim(text: str) -> str:
    return text.strip(_TRIM)


# -- integers -------------------------------------------------------------------------------------

#: Integer.parseInt and friends: an optional sign, then digits of any script (Character.digit).
_JAVA_INTEGER = re.compile(r"[+-]?\d+")


def parse_integer(text: str, bits: int) -> int:
    """Byte/Short/Integer/Long.parseXxx: no spaces, no underscores, range checked."""
    if not _JAVA_INTEGER.fullmatch(text):
        raise ValueError(f"not an integer: {text!r}")
    value = int(text)
    if not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
        raise ValueError(f"value {text!r} out of range for a {bits}-bit integer")
    return value


# -- floating point -------------------------------------------------------------------------------

#: Double.parseDouble after its own trim: ASCII digits, an optional f/F/d/D suffix, NaN, Infinity.
_JAVA_DECIMAL_FLOAT = re.compile(
    r"(?P<sign>[+-]?)(?:(?P<special>NaN|Infinity)|"
    r"(?P<number>(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)[fFdD]?)", re.ASCII)
_JAVA_HEX_FLOAT = re.compile(
    r"(?P<sign>[+-]?)0[xX](?P<mantissa>[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)"
    r"[pP](?P<exponent>[+-]?[0-9]+)[fFdD]?", re.ASCII)


def _java_float_exact(text: str) -> Fraction | float:
    """The exact value a Java float literal denotes (a float for NaN and the infinities)."""
    text = trim(text)
    m = _JAVA_DECIMAL_FLOAT.fullmatch(text)
    if m:
        negative = m.group("sign") == "-"
        if m.group("special") == "NaN":
            return math.nan  # Java's one NaN, whatever the sign: "-NaN" is not negative
        if m.group("special"):
            return -math.inf if negative else math.inf
        exact = Fraction(Decimal(m.group("number")))
        return -exact if negative else exact
    m = _JAVA_HEX_FLOAT.fullmatch(text)
    if m:
        mantissa = m.group("mantissa")
        whole, _, frac = mantissa.partition(".")
        digits = int((whole + frac) or "0", 16)
        exact = Fraction(digits) * Fraction(2) ** (int(m.group("exponent")) - 4 * len(frac))
        return -exact if m.group("sign") == "-" else exact
    raise ValueError(f"not a Java floating-point number: {text!r}")


def parse_double(text: str) -> float:
    """Double.parseDouble: correctly rounded, -0.0 kept, overflow to infinity."""
    exact = _java_float_exact(text)
    if isinstance(exact, float):
        return exact
    negative = exact < 0 or (exact == 0 and trim(text).startswith("-"))
    magnitude = abs(exact)
    try:
        value = magnitude.numerator / magnitude.denominator
    except OverflowError:
        value = math.inf
    return -value if negative else value


def parse_float(text: str) -> float:
    """Float.parseFloat: rounded once, straight to binary32 (never via a double)."""
    exact = _java_float_exact(text)
    if isinstance(exact, float):
        return exact
    negative = exact < 0 or (exact == 0 and trim(text).startswith("-"))
    value = round_to_float32(abs(exact))
    return -value if negative else value


_FLOAT32_MAX = Fraction(struct.unpack("<f", struct.pack("<I", 0x7F7FFFFF))[0])
_FLOAT32_OVERFLOW = _FLOAT32_MAX + Fraction(2) ** 103  # halfway to 2**128: from here on, infinity


def float32(value: float) -> float:
    """A double rounded to the nearest binary32 (ties to even); overflow gives an infinity."""
    try:
        return struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def round_to_float32(exact: Fraction) -> float:
    """The binary32 nearest to a non-negative exact value, ties to even."""
    if exact >= _FLOAT32_OVERFLOW:
        return math.inf
    if exact >= _FLOAT32_MAX:
        return float(_FLOAT32_MAX)
    try:
        approx = exact.numerator / exact.denominator
    except OverflowError:
        return math.inf
    candidate = float32(approx)
    if approx == candidate or not _is_float32_midpoint(approx):
        return candidate
    # The double landed exactly between two floats: decide on the exact value.
    below, above = _float32_neighbours(approx)
    middle = (Fraction(below) + Fraction(above)) / 2
    if exact < middle:
        return below
    if exact > middle:
        return above
    return below if struct.unpack("<I", struct.pack("<f", below))[0] % 2 == 0 else above


def _float32_neighbours(value: float) -> tuple[float, float]:
    down = float32(value)
    bits = struct.unpack("<I", struct.pack("<f", down))[0]
    if down > value:
        return struct.unpack("<f", struct.pack("<I", bits - 1))[0], down
    return down, struct.unpack("<f", struct.pack("<I", bits + 1))[0]


def _is_float32_midpoint(value: float) -> bool:
    below, above = _float32_neighbours(value)
    return (below + above) / 2 == value


# -- decimals -------------------------------------------------------------------------------------

#: new BigDecimal(String): digits of any script, an optional point and exponent, nothing else.
_JAVA_BIG_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_WIDE = Context(prec=10_000, Emax=999_999_999, Emin=-999_999_999)


def parse_big_decimal(text: str) -> Decimal:
    if not _JAVA_BIG_DECIMAL.fullmatch(text):
        raise ValueError(f"not a Java BigDecimal: {text!r}")
    return Decimal(re.sub(r"\d", lambda d: str(unicodedata.decimal(d.group())), text))


def fit_decimal(value: Decimal, precision: int, scale: int) -> Decimal | None:
    """DecimalData.fromBigDecimal: round half-up to the scale; too many digits gives null."""
    if value.is_zero():
        return Decimal(0).scaleb(-scale)
    if value.adjusted() >= precision - scale + 1:
        return None
    try:
        rounded = value.quantize(Decimal(1).scaleb(-scale), rounding=ROUND_HALF_UP, context=_WIDE)
    except InvalidOperation:
        return None
    digits = len(rounded.as_tuple().digits)
    if digits > precision and not rounded.is_zero():
        return None
    return rounded


# -- booleans -------------------------------------------------------------------------------------

def parse_boolean(text: str) -> bool:
    """Boolean.parseBoolean: "true" in any case is true, anything else is false."""
    return len(text) == 4 and text.lower() == "true"
