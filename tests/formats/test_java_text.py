"""Number text against the JVM's own Double/Float.toString."""

import math
import random
import struct
from decimal import Decimal

import pytest

from accelerator.formats import java_text
from accelerator.testing import flink_oracle

EDGES = [0.0, -0.0, 1.0, -1.5, 0.1, 1e-3, 9.999e-4, 1e7, 9999999.0, 1e-7, 1e21, 1e22, 1e23, 2e23,
         5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 2.0 ** 53 + 2, 2.0 ** 62,
         2.0 ** 63, 2.82879384806159e17, 0.0037885977448132444, 123456789.0, 12345678.9,
         float("nan"), float("inf"), float("-inf")]


def _random_doubles(rnd: random.Random, n: int) -> list[float]:
    out = []
    for _ in range(n):
        kind = rnd.random()
        if kind < 0.4:
            v = struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(64)))[0]
        elif kind < 0.6:
            v = float(rnd.randint(-2 ** 64, 2 ** 64))
        elif kind < 0.8:
            v = round(rnd.uniform(-1e6, 1e6), rnd.randint(0, 8))
        else:
            v = rnd.randint(1, 10 ** rnd.randint(1, 17)) * 10.0 ** rnd.randint(-30, 30)
        out.append(v)
    return out


def _as_float32(v: float) -> float:
    return struct.unpack("<f", struct.pack("<f", v))[0] if abs(v) < 3.4e38 or not math.isfinite(v) else v


def test_double_to_string_is_javas():
    values = EDGES + _random_doubles(random.Random(7), 30_000)
    expected = flink_oracle.java_double_to_string(values)
    assert [java_text.double_to_string(v) for v in values] == expected


def test_float_to_string_is_javas():
    rnd = random.Random(8)
    values = [_as_float32(v) for v in EDGES if abs(v) < 3.4e38 or not math.isfinite(v)]
    values += [struct.unpack("<f", struct.pack("<I", rnd.getrandbits(32)))[0] for _ in range(20_000)]
    values += [_as_float32(rnd.uniform(-1, 1) * 10.0 ** rnd.randint(-40, 38)) for _ in range(10_000)]
    values = [v for v in values if not math.isnan(v)] + [float("nan")]
    expected = flink_oracle.java_float_to_string(values)
    assert [java_text.float_to_string(v) for v in values] == expected


@pytest.mark.parametrize("text", ["2270.000", "0.0000000000", "-0.0000001", "0.000001", "12.50", "100",
                                  "-7", "123456789012345678901234567890.12345678",
                                  "0.00000000000000000000000000000000000001", "-99999999.99"])
def test_big_decimal_text_is_javas(text):
    big_decimal = flink_oracle.java().BigDecimal(text)
    value = Decimal(text)
    assert java_text.big_decimal_to_plain_string(value) == str(big_decimal.toPlainString())
    assert (java_text.big_decimal_to_string(java_text.strip_trailing_zeros(value))
            == str(big_decimal.stripTrailingZeros().toString()))
