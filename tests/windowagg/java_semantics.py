"""What Flink's aggregate functions compute over a sequence of operands, independently of the
sidecar: the arithmetic runs in the JVM the format oracles use (Java's `Integer.sum`, `Long.sum`,
`Double.sum` are the language's `+`; `DecimalDataUtils.add` is the call Flink's generated code
makes for `aggDecimalPlus`, NULL when the sum needs more than 38 digits), and the control flow is
transcribed from the functions' expressions (SumAggFunction, MinAggFunction, MaxAggFunction:
`sum = x IS NULL ? sum : (sum IS NULL ? x : sum + x)`, `min = ... (x < min ? x : min)`;
AvgAggFunction: `sum = x IS NULL ? sum : sum + x` from 0, `count + 1`, value `count = 0 ? NULL :
CAST(sum / count AS result)`, the division being `DecimalDataUtils.divide` for a DECIMAL sum)."""

from __future__ import annotations

import functools
from decimal import Decimal

from accelerator.testing import flink_oracle


@functools.cache
def _java():
    j = flink_oracle.java()
    jc = j.jpype.JClass
    return {"INT": jc("java.lang.Integer").sum, "BIGINT": jc("java.lang.Long").sum,
            "DOUBLE": jc("java.lang.Double").sum, "FLOAT": jc("java.lang.Float").sum,
            "Integer": jc("java.lang.Integer"), "Boolean": jc("java.lang.Boolean"),
            "BinaryStringData": jc("org.apache.flink.table.data.binary.BinaryStringData"),
            "TimestampData": jc("org.apache.flink.table.data.TimestampData"), "DecimalDataUtils": jc("org.apache.flink.table.data.DecimalDataUtils"),
            "DecimalData": j.DecimalData, "BigDecimal": j.BigDecimal, "BigInteger": jc("java.math.BigInteger"),
            "Double": jc("java.lang.Double")}


def plus(type_root: str, a, b, scale: int = 0):
    """Java's `a + b` for INT/BIGINT/FLOAT/DOUBLE; for TINYINT/SMALLINT, the generated code's
    `(byte) (a + b)` / `(short) (a + b)` (an int sum, narrowed by Java); for DECIMAL, Flink's add at
    precision 38 (None on overflow). DECIMALs are decimal.Decimal."""
    j = _java()
    if type_root in ("TINYINT", "SMALLINT"):
        total = j["Integer"].valueOf(j["INT"](a, b))
        return int(total.byteValue() if type_root == "TINYINT" else total.shortValue())
    if type_root == "DECIMAL":
        left, right = (j["DecimalData"].fromBigDecimal(j["BigDecimal"](str(v)), 38, scale) for v in (a, b))
        total = j["DecimalDataUtils"].add(left, right, 38, scale)
        return None if total is None else Decimal(str(total.toBigDecimal().toPlainString()))
    return (int if type_root in ("INT", "BIGINT") else float)(j[type_root](a, b))


def compare(type_root: str, a, b) -> int:
    """The sign of Flink's comparison of two values of a MIN/MAX argument type, by Flink's own
    classes: `BinaryStringData.compareTo` of the strings' UTF-8 bytes (as the operator reads them
    from its input), `TimestampData.compareTo` of (millis, nanos) pairs, `Boolean.compare`, and
    `Integer.compare` of DATE and TIME (days, milliseconds)."""
    j = _java()
    if type_root in ("CHAR", "VARCHAR"):
        left, right = (j["BinaryStringData"].fromBytes(v.encode("utf-8")) for v in (a, b))
    elif type_root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        left, right = (j["TimestampData"].fromEpochMillis(v[0], v[1]) for v in (a, b))
    elif type_root == "BOOLEAN":
        return int(j["Boolean"].compare(a, b))
    else:
        return int(j["Integer"].compare(a, b))
    result = int(left.compareTo(right))
    return (result > 0) - (result < 0)


def sum_of(type_root: str, operands, scale: int = 0, start=None):
    """SUM's accumulator after `operands` in order, from `start` (None: a fresh accumulator)."""
    total = start
    for x in operands:
        if x is None:
            continue
        total = x if total is None else plus(type_root, total, x, scale)
    return total


def count_of(operands, start: int = 0) -> int:
    """COUNT's accumulator: `count + 1` per non-NULL operand, as Java's long."""
    total = start
    for x in operands:
        if x is not None:
            total = plus("BIGINT", total, 1)
    return total


def min_of(operands, start=None, type_root: str | None = None):
    """MIN's accumulator: replaced when `x < min` (primitive comparison, Python's float `<` being
    the same IEEE comparison as Java's; for `type_root` given, Flink's `compare`)."""
    held = start
    for x in operands:
        if x is not None and (held is None or (x < held if type_root is None else compare(type_root, x, held) < 0)):
            held = x
    return held


def max_of(operands, start=None, type_root: str | None = None):
    held = start
    for x in operands:
        if x is not None and (held is None or (x > held if type_root is None else compare(type_root, x, held) > 0)):
            held = x
    return held


def avg_of(result_root: str, operands, scale: int = 0, result_scale: int = 0):
    """AVG's value over `operands` in order, for a result of `result_root` (TINYINT to BIGINT sum
    as BIGINT; FLOAT and DOUBLE as DOUBLE; DECIMAL(p, scale) as DECIMAL(38, scale) and divide into
    DECIMAL(38, result_scale))."""
    present = [x for x in operands if x is not None]
    if not present:
        return None
    j = _java()
    if result_root == "DECIMAL":
        total = Decimal(0)
        for x in present:
            total = None if total is None else plus("DECIMAL", total, x, scale)
        if total is None:
            return None
        dividend = j["DecimalData"].fromBigDecimal(j["BigDecimal"](str(total)), 38, scale)
        divisor = j["DecimalData"].fromBigDecimal(j["BigDecimal"](len(present)), 19, 0)
        quotient = j["DecimalDataUtils"].divide(dividend, divisor, 38, result_scale)
        return None if quotient is None else Decimal(str(quotient.toBigDecimal().toPlainString()))
    if result_root in ("FLOAT", "DOUBLE"):
        total = 0.0
        for x in present:
            total = plus("DOUBLE", total, x)
        quotient = total / len(present)  # Java's double / (double) long: one IEEE division
        return float(j["Double"].valueOf(quotient).floatValue()) if result_root == "FLOAT" else quotient
    total = 0
    for x in present:
        total = plus("BIGINT", total, x)
    quotient = int(j["BigInteger"].valueOf(total).divide(j["BigInteger"].valueOf(len(present))).longValue())
    bits = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}[result_root]
    return (quotient + 2 ** (bits - 1)) % 2 ** bits - 2 ** (bits - 1)  # Java's narrowing cast
