"""DATE text read as Flink's csv format reads it: `java.sql.Date.valueOf(text).toLocalDate()`.

`Date.valueOf` takes `yyyy-[m]m-[d]d` (a year of exactly 4 chars, month and day of 1 or 2, each
read by Integer.parseInt, so a '+' sign and digits of any script pass), checks month 1-12 and
day 1-31 only, and builds a java.util.Date at local midnight. That Date resolves leniently (Feb
31 runs into March) in the Julian calendar for years before 1582 and across the 1582 cutover,
and `toLocalDate` copies its year, month and day into a proleptic Gregorian LocalDate: so year
0000 becomes 0001 (the Julian 1 BC), a Julian leap day the Gregorian calendar lacks (1500-02-29)
fails, and 1582-10-05..14 become 1582-10-15..24.
"""

from __future__ import annotations

from accelerator.formats.java_parse import parse_integer
from accelerator.formats.java_time import days_from_civil, month_length

#: 1582-10-15, the first Gregorian day of java.util.Date's calendar, as days since the epoch.
CUTOVER_DAY = -141427


def _julian_day(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Julian date (day may run past the month's end)."""
    a = (14 - month) // 12
    y = year + 4800 - a
    m = month + 12 * a - 3
    return day + (153 * m + 2) // 5 + 365 * y + y // 4 - 32083 - 2440588


def _julian_month_length(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _fields(text: str) -> tuple[int, int, int]:
    first = text.find("-")
    second = text.find("-", first + 1)
    n = len(text)
    if not (first > 0 and second > 0 and second < n - 1 and first == 4 and 1 < second - first <= 3
            and 1 < n - second <= 3):
        raise ValueError(f"not a date Date.valueOf reads: {text!r}")
    year, month, day = (parse_integer(part, 32) for part in (text[:first], text[first + 1:second], text[second + 1:]))
    if not (1 <= month <= 12 and 1 <= day <= 31):
        raise ValueError(f"month or day out of range: {text!r}")
    return year, month, day


def parse_date(text: str) -> int:
    """Days since the epoch of `Date.valueOf(text).toLocalDate()`; ValueError where Java throws."""
    year, month, day = _fields(text)
    if year >= 1582:
        gregorian = days_from_civil(year, month, 1) + day - 1
        if gregorian >= CUTOVER_DAY:
            return gregorian
    julian = _julian_day(year, month, 1) + day - 1
    if julian >= CUTOVER_DAY:  # read back in the Gregorian calendar: the same day
        return julian
    length = _julian_month_length(year, month)
    if day > length:
        month, day = month + 1, day - length  # day <= 31, so never past December
    year = year if year > 0 else 1 - year  # the Julian 1 BC is read back as year 1 (of its era)
    if day > month_length(year, month):
        raise ValueError(f"LocalDate.of rejects {year:04d}-{month:02d}-{day:02d}")
    return days_from_civil(year, month, day)
