//! Field values from token text, as the Java library calls in Flink's json converters read them
//! (Integer.parseInt, Float.parseFloat, new BigDecimal, java.time formatters), for the forms where
//! those calls provably agree with what is computed here; other forms are leftovers.

use super::{Leftover, R};

const MILLIS_PER_DAY: i64 = 86_400_000;
const NANOS_PER_MILLI: i64 = 1_000_000;

/// Java's String.trim(): every char up to U+0020 off both ends.
pub(super) fn java_trim(text: &[u8]) -> &[u8] {
    let start = text.iter().position(|&b| b > b' ').unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|&b| b > b' ')
        .map_or(start, |i| i + 1);
    &text[start..end]
}

/// An integer of `bits` bits from ASCII `[+-]?[0-9]+` (Integer.parseInt's grammar for ASCII
/// digits; a JSON integer token is a subset), in range or a leftover.
pub(super) fn integer(text: &[u8], bits: u32) -> R<i64> {
    let (negative, digits) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(Leftover);
    }
    let significant = &digits[digits
        .iter()
        .position(|&d| d != b'0')
        .unwrap_or(digits.len())..];
    if significant.len() > 19 {
        return Err(Leftover);
    }
    let magnitude = significant
        .iter()
        .fold(0i128, |v, &d| v * 10 + (d - b'0') as i128);
    let value = if negative { -magnitude } else { magnitude };
    let limit = 1i128 << (bits - 1);
    if value < -limit || value >= limit {
        return Err(Leftover);
    }
    Ok(value as i64)
}

/// An integer token's value (`-?[0-9]+`, no leading zeros, checked by the lexer) in `bits` bits.
#[inline]
pub(super) fn integer_token(text: &[u8], bits: u32) -> R<i64> {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    if digits.len() > 18 {
        return integer(text, bits);
    }
    let magnitude = digits.iter().fold(0i64, |v, &d| v * 10 + (d - b'0') as i64);
    let value = if negative { -magnitude } else { magnitude };
    let limit = 1i64 << (bits.min(63) - 1);
    if bits < 64 && (value < -limit || value >= limit) {
        return Err(Leftover);
    }
    Ok(value)
}

/// The parts of a decimal text `[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?` (the grammar
/// of new BigDecimal(String) and Double.parseDouble for ASCII, without Java's suffixes, NaN,
/// Infinity and hex forms): (negative, integer digits, fraction digits, exponent).
pub(super) fn decimal_parts(text: &[u8]) -> R<(bool, &[u8], &[u8], i64)> {
    let (negative, rest) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let whole_len = rest.iter().take_while(|d| d.is_ascii_digit()).count();
    let whole = &rest[..whole_len];
    let mut rest = &rest[whole_len..];
    let mut fraction: &[u8] = &[];
    if rest.first() == Some(&b'.') {
        let len = rest[1..].iter().take_while(|d| d.is_ascii_digit()).count();
        fraction = &rest[1..1 + len];
        rest = &rest[1 + len..];
    }
    if whole.is_empty() && fraction.is_empty() {
        return Err(Leftover);
    }
    let mut exponent = 0i64;
    if matches!(rest.first(), Some(b'e' | b'E')) {
        let (sign, digits) = match rest.get(1) {
            Some(b'-') => (-1, &rest[2..]),
            Some(b'+') => (1, &rest[2..]),
            _ => (1, &rest[1..]),
        };
        // Exponents past nine digits are left to the exact path (Java's limits differ by type).
        if digits.is_empty() || digits.len() > 9 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(Leftover);
        }
        exponent = sign * digits.iter().fold(0i64, |v, &d| v * 10 + (d - b'0') as i64);
        rest = &[];
    }
    if !rest.is_empty() {
        return Err(Leftover);
    }
    Ok((negative, whole, fraction, exponent))
}

/// DecimalData.fromBigDecimal(new BigDecimal(text), p, s): rounded half-up to the scale, None
/// (a null field) when it then has more than `precision` digits. The unscaled value.
pub(super) fn decimal(text: &[u8], precision: u32, scale: u32) -> R<Option<i128>> {
    let (negative, whole, fraction, exponent) = decimal_parts(text)?;
    let digits = whole.iter().chain(fraction.iter());
    let leading = digits.clone().take_while(|&&d| d == b'0').count();
    let significant: Vec<u8> = digits.skip(leading).map(|d| d - b'0').collect();
    if significant.is_empty() {
        return Ok(Some(0));
    }
    let n = significant.len() as i64;
    // value = significant * 10^(exponent - fraction digits); unscaled = value * 10^scale.
    let shift = exponent - fraction.len() as i64 + scale as i64;
    let number = |ds: &[u8]| ds.iter().fold(0i128, |v, &d| v * 10 + d as i128);
    let magnitude = if shift >= 0 {
        if n + shift > precision as i64 {
            return Ok(None);
        }
        number(&significant) * 10i128.pow(shift as u32)
    } else {
        let dropped = -shift;
        let kept = n - dropped;
        if kept > precision as i64 {
            return Ok(None);
        }
        if kept < 0 {
            0
        } else {
            let kept = kept as usize;
            number(&significant[..kept]) + (significant[kept] >= 5) as i128
        }
    };
    if magnitude >= 10i128.pow(precision) {
        return Ok(None);
    }
    Ok(Some(if negative { -magnitude } else { magnitude }))
}

/// Whether every digit of a decimal text is zero (its value is ±0, exactly).
pub(super) fn all_zero_digits(text: &[u8]) -> bool {
    decimal_parts(text)
        .is_ok_and(|(_, whole, fraction, _)| whole.iter().chain(fraction).all(|&d| d == b'0'))
}

/// Double.parseDouble / Float.parseFloat of a decimal text, both correctly rounded as Rust's
/// parser is; only zero and normal finite results are vouched (no underflow, no overflow).
pub(super) fn floating<F: std::str::FromStr + Copy + Into<f64>>(
    text: &[u8],
    smallest_normal: f64,
) -> R<F> {
    decimal_parts(text)?;
    let value: F = std::str::from_utf8(text)
        .map_err(|_| Leftover)?
        .parse()
        .map_err(|_| Leftover)?;
    let magnitude = value.into().abs();
    if magnitude.is_finite()
        && (magnitude >= smallest_normal || (magnitude == 0.0 && all_zero_digits(text)))
    {
        Ok(value)
    } else {
        Err(Leftover)
    }
}

pub(super) fn two_digits(b: &[u8], at: usize) -> R<u32> {
    match (b[at], b[at + 1]) {
        (h @ b'0'..=b'9', l @ b'0'..=b'9') => Ok((h - b'0') as u32 * 10 + (l - b'0') as u32),
        _ => Err(Leftover),
    }
}

pub(super) fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

pub(super) fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `yyyy-MM-dd` with a date that exists (strict and smart resolving agree on it) in `years`:
/// days since the epoch.
pub(super) fn epoch_day(b: &[u8], years: std::ops::RangeInclusive<i64>) -> R<i64> {
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return Err(Leftover);
    }
    let year = (two_digits(b, 0)? * 100 + two_digits(b, 2)?) as i64;
    let (month, day) = (two_digits(b, 5)?, two_digits(b, 8)?);
    let length = match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => return Err(Leftover),
    };
    if !years.contains(&year) || day < 1 || day > length {
        return Err(Leftover);
    }
    Ok(days_from_civil(year, month, day))
}

/// `HH:mm:ss` with an optional fraction of 1-9 digits, hours 00-23: (second of the day, nanos).
pub(super) fn time_of_day(b: &[u8]) -> R<(i64, i64)> {
    if b.len() < 8 || b[2] != b':' || b[5] != b':' {
        return Err(Leftover);
    }
    let (hour, minute, second) = (two_digits(b, 0)?, two_digits(b, 3)?, two_digits(b, 6)?);
    if hour > 23 || minute > 59 || second > 59 {
        return Err(Leftover);
    }
    let mut nanos = 0i64;
    if b.len() > 8 {
        let fraction = &b[9..];
        if b[8] != b'.'
            || fraction.is_empty()
            || fraction.len() > 9
            || !fraction.iter().all(u8::is_ascii_digit)
        {
            return Err(Leftover);
        }
        nanos = fraction
            .iter()
            .fold(0i64, |v, &d| v * 10 + (d - b'0') as i64)
            * 10i64.pow(9 - fraction.len() as u32);
    }
    Ok(((hour * 3600 + minute * 60 + second) as i64, nanos))
}

/// A timestamp in Flink's layout for the standard (`yyyy-MM-dd HH:mm:ss[.f]` for SQL, a 'T' for
/// ISO-8601, and a 'Z' after it for TIMESTAMP_LTZ), years 0000-9999 (the 4-digit years, where
/// Flink's millisecond arithmetic cannot overflow): TimestampData's (epoch milliseconds,
/// nanoseconds of the millisecond).
pub(super) fn timestamp(b: &[u8], iso: bool, ltz: bool) -> R<(i64, i32)> {
    let b = if ltz {
        b.strip_suffix(b"Z").ok_or(Leftover)?
    } else {
        b
    };
    if b.len() < 19 || b[10] != if iso { b'T' } else { b' ' } {
        return Err(Leftover);
    }
    let day = epoch_day(&b[..10], 0..=9999)?;
    let (second, nanos) = time_of_day(&b[11..])?;
    let millis = day * MILLIS_PER_DAY + second * 1000 + nanos / NANOS_PER_MILLI;
    Ok((millis, (nanos % NANOS_PER_MILLI) as i32))
}

#[cfg(test)]
mod tests {
    use super::timestamp;

    #[test]
    fn timestamps_of_the_years_0000_to_9999_are_flinks_millis_and_nanos() {
        // Instant.parse("0000-01-01T00:00:00Z").toEpochMilli() and 9999's last instant.
        assert_eq!(
            timestamp(b"0000-01-01 00:00:00", false, false).ok(),
            Some((-62_167_219_200_000, 0))
        );
        assert_eq!(
            timestamp(b"9999-12-31T23:59:59.999999999Z", true, true).ok(),
            Some((253_402_300_799_999, 999_999))
        );
        assert_eq!(
            timestamp(b"1969-12-31 23:59:59.000000001", false, false).ok(),
            Some((-1_000, 1))
        );
    }

    #[test]
    fn other_layouts_and_signed_years_are_left_to_the_exact_path() {
        for text in [
            &b"+10000-01-01 00:00:00"[..],
            b"-0001-01-01 00:00:00",
            b"2021-02-29 00:00:00",
            b"2020-01-01T00:00:00",
            b"2020-01-01 00:00:00Z",
        ] {
            assert!(timestamp(text, false, false).is_err());
        }
    }
}
