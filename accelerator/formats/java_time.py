"""Date and time text read the way the `java.time` formatters in Flink's json decoder read it.

Flink reads DATE with ISO_LOCAL_DATE (strict: Feb 30 fails), TIME with `HH:mm:ss[.fraction]`
(keeping whole seconds only),
and TIMESTAMPs with formatters whose resolver is "smart" (Feb 30 becomes Feb 28 or 29, 24:00:00
becomes midnight of the next day) except ISO-8601 TIMESTAMP, which uses ISO_LOCAL_DATE_TIME
(strict, seconds optional, 't' accepted for 'T'). Years have 4 digits, or up to 10 with a sign.
"""

from __future__ import annotations

import re

NANOS_PER_DAY = 86_400_000_000_000
_MAX_YEAR = 999_999_999
_LONG = 1 << 63

_DATE = r"(?P<sign>[+-]?)(?P<year>[0-9]{4,10})-(?P<month>[0-9]{2})-(?P<day>[0-9]{2})"
_SQL_TIME = r"(?P<hour>[0-9]{2}):(?P<minute>[0-9]{2}):(?P<second>[0-9]{2})(?:\.(?P<fraction>[0-9]{0,9}))?"
_ISO_TIME = (r"(?P<hour>[0-9]{2}):(?P<minute>[0-9]{2})"
             r"(?::(?P<second>[0-9]{2})(?:\.(?P<fraction>[0-9]{0,9}))?)?")

DATE = re.compile(_DATE)
TIME = re.compile(_SQL_TIME)
SQL_TIMESTAMP = re.compile(_DATE + " " + _SQL_TIME)
ISO_TIMESTAMP = re.compile(_DATE + "[Tt]" + _ISO_TIME)
SQL_TIMESTAMP_LTZ = re.compile(_DATE + " " + _SQL_TIME + "Z")
ISO_TIMESTAMP_LTZ = re.compile(_DATE + "T" + _ISO_TIME + "Z")
ISO_LOCAL_TIME = re.compile(_ISO_TIME)


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date, for any year."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def month_length(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _year(m: re.Match) -> int:
    digits, sign = m.group("year"), m.group("sign")
    if sign == "+" and len(digits) <= 4:
        raise ValueError("a '+' year needs more than 4 digits")
    if not sign and len(digits) > 4:
        raise ValueError("a year of more than 4 digits needs a sign")
    year = int(digits)
    if sign == "-":
        if year == 0:
            raise ValueError("year -0000 is not allowed")
        year = -year
    if abs(year) > _MAX_YEAR:
        raise ValueError(f"year {year} out of range")
    return year


def _epoch_day(m: re.Match, smart: bool) -> int:
    year, month, day = _year(m), int(m.group("month")), int(m.group("day"))
    if not 1 <= month <= 12:
        raise ValueError(f"invalid month {month}")
    length = month_length(year, month)
    if smart:
        if not 1 <= day <= 31:
            raise ValueError(f"invalid day of month {day}")
        day = min(day, length)
    elif not 1 <= day <= length:
        raise ValueError(f"invalid date: day {day} of month {month} in {year}")
    return days_from_civil(year, month, day)


def _nano_of_day(m: re.Match, smart: bool) -> tuple[int, int]:
    """(nanosecond of the day, extra days): smart resolving turns 24:00 into the next midnight."""
    hour, minute = int(m.group("hour")), int(m.group("minute"))
    second = int(m.group("second") or 0)
    nanos = int((m.group("fraction") or "").ljust(9, "0"))
    if not (0 <= minute <= 59 and 0 <= second <= 59):
        raise ValueError("invalid minute or second")
    if smart and hour == 24 and minute == 0 and second == 0 and nanos == 0:
        return 0, 1
    if not 0 <= hour <= 23:
        raise ValueError(f"invalid hour {hour}")
    return ((hour * 60 + minute) * 60 + second) * 1_000_000_000 + nanos, 0


def parse_date(text: str) -> int:
    """Days since the epoch, cast to a Java int as Flink does."""
    m = DATE.fullmatch(text)
    if not m:
        raise ValueError(f"not an ISO local date: {text!r}")
    days = _epoch_day(m, smart=False)
    return (days + (1 << 31)) % (1 << 32) - (1 << 31)


def parse_time(text: str) -> int:
    """Milliseconds of the day. Flink keeps whole seconds only: "12:00:00.999" reads as 12:00:00."""
    m = TIME.fullmatch(text)
    if not m:
        raise ValueError(f"not a time of day: {text!r}")
    nanos, _ = _nano_of_day(m, smart=True)
    return nanos // 1_000_000_000 * 1000


def parse_local_time(text: str) -> int:
    """Nanoseconds of the day of `LocalTime.parse(text)` (ISO_LOCAL_TIME, strict: seconds
    optional, hour 24 rejected)."""
    m = ISO_LOCAL_TIME.fullmatch(text)
    if not m:
        raise ValueError(f"not an ISO local time: {text!r}")
    nanos, _ = _nano_of_day(m, smart=False)
    return nanos


def parse_timestamp(text: str, pattern: re.Pattern, smart: bool) -> int:
    """Nanoseconds since 1970-01-01T00:00 (UTC for TIMESTAMP_LTZ) as Flink's TimestampData holds
    them: TimestampData.fromLocalDateTime/fromInstant compute the epoch milliseconds in a Java
    long, which wraps for years past about 292 million."""
    m = pattern.fullmatch(text)
    if not m:
        raise ValueError(f"not a timestamp in the configured format: {text!r}")
    day = _epoch_day(m, smart)
    nanos, extra_days = _nano_of_day(m, smart)
    millis, nano_of_milli = divmod((day + extra_days) * NANOS_PER_DAY + nanos, 1_000_000)
    return ((millis + _LONG) % (2 * _LONG) - _LONG) * 1_000_000 + nano_of_milli
