//! JSON tokens as Flink's parser (Jackson) lexes them, for the forms the fast path takes: anything
//! the parser reads otherwise, refuses, or reads loosely is a leftover here.

use super::{Leftover, MAX_NAME_BYTES, MAX_NUMBER_BYTES, R};

/// Byte classes inside a string: plain, the closing quote, a backslash, a raw control character
/// (which goes to the exact path), the start of a multi-byte UTF-8 sequence.
const PLAIN: u8 = 0;
const QUOTE: u8 = 1;
const BACKSLASH: u8 = 2;
const CONTROL: u8 = 3;
const NON_ASCII: u8 = 4;
static STRING_CLASS: [u8; 256] = {
    let mut table = [PLAIN; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = if i < 0x20 {
            CONTROL
        } else if i == b'"' as usize {
            QUOTE
        } else if i == b'\\' as usize {
            BACKSLASH
        } else if i >= 0x80 {
            NON_ASCII
        } else {
            PLAIN
        };
        i += 1;
    }
    table
};

/// The end of the run of plain string bytes from `pos`: sixteen bytes at a time (SSE2, which
/// every x86-64 has), then eight, flagging a quote, a backslash, a byte below 0x20 or one above
/// 0x7F (the lowest flagged byte is exact).
#[inline]
pub(super) fn plain_run(m: &[u8], mut pos: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
            _mm_set1_epi8,
        };
        while pos + 16 <= m.len() {
            // SAFETY: the sixteen bytes loaded lie in `m`; SSE2 is part of x86-64.
            let flagged = unsafe {
                let v = _mm_loadu_si128(m.as_ptr().add(pos).cast());
                let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
                let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
                // A signed compare: below 0x20, and every byte above 0x7F (negative as i8).
                let other = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
                _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), other)) as u32
            };
            if flagged != 0 {
                return pos + flagged.trailing_zeros() as usize;
            }
            pos += 16;
        }
    }
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = m.get(pos..pos + 8) {
        let w = u64::from_le_bytes(chunk.try_into().unwrap());
        let quote = w ^ (ONES * b'"' as u64);
        let backslash = w ^ (ONES * b'\\' as u64);
        let flagged = ((quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | w.wrapping_sub(ONES * 0x20)
            | w)
            & HIGHS;
        if flagged != 0 {
            return pos + (flagged.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    while pos < m.len() && STRING_CLASS[m[pos] as usize] == PLAIN {
        pos += 1;
    }
    pos
}

/// Whether two byte strings are equal; short ones (field names) compared inline in at most two
/// overlapping word loads each, rather than by a call to memcmp.
#[inline]
pub(super) fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let u32_at = |s: &[u8], i: usize| u32::from_le_bytes(s[i..i + 4].try_into().unwrap());
    let u64_at = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().unwrap());
    match n {
        0..=3 => a.iter().zip(b).all(|(x, y)| x == y),
        4..=7 => u32_at(a, 0) == u32_at(b, 0) && u32_at(a, n - 4) == u32_at(b, n - 4),
        8..=16 => u64_at(a, 0) == u64_at(b, 0) && u64_at(a, n - 8) == u64_at(b, n - 8),
        _ => a == b,
    }
}

pub(super) struct Cursor<'a> {
    pub(super) m: &'a [u8],
    pub(super) pos: usize,
}

impl<'a> Cursor<'a> {
    /// The byte at the position, 0 past the end (a NUL byte is never accepted anywhere).
    #[inline]
    pub(super) fn peek(&self) -> u8 {
        self.m.get(self.pos).copied().unwrap_or(0)
    }

    /// Skips the whitespace Jackson skips between tokens; the next byte, not consumed.
    #[inline]
    pub(super) fn skip_ws(&mut self) -> u8 {
        loop {
            let b = self.peek();
            if b == b' ' || b == b'\n' || b == b'\r' || b == b'\t' {
                self.pos += 1;
            } else {
                return b;
            }
        }
    }

    pub(super) fn literal(&mut self, word: &[u8]) -> R<()> {
        if self.m[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(Leftover)
        }
    }

    /// A JSON number token as Jackson lexes it: (its text, whether it has a point or exponent).
    /// Leading zeros, a missing digit, or a text near the length limit go to the exact path.
    pub(super) fn number(&mut self) -> R<(&'a [u8], bool)> {
        let m = self.m;
        let start = self.pos;
        let mut pos = start;
        if m.get(pos) == Some(&b'-') {
            pos += 1;
        }
        let digits = |pos: &mut usize| {
            let from = *pos;
            while m.get(*pos).is_some_and(u8::is_ascii_digit) {
                *pos += 1;
            }
            *pos - from
        };
        let first = pos;
        let whole = digits(&mut pos);
        if whole == 0 || (whole > 1 && m[first] == b'0') {
            return Err(Leftover);
        }
        let mut is_float = false;
        if m.get(pos) == Some(&b'.') {
            pos += 1;
            is_float = true;
            if digits(&mut pos) == 0 {
                return Err(Leftover);
            }
        }
        if matches!(m.get(pos), Some(b'e' | b'E')) {
            pos += 1;
            is_float = true;
            if matches!(m.get(pos), Some(b'+' | b'-')) {
                pos += 1;
            }
            if digits(&mut pos) == 0 {
                return Err(Leftover);
            }
        }
        if pos - start > MAX_NUMBER_BYTES {
            return Err(Leftover);
        }
        self.pos = pos;
        Ok((&m[start..pos], is_float))
    }

    /// One strict UTF-8 sequence starting at the position (no overlong forms, no surrogates,
    /// nothing above U+10FFFF: Jackson reads those differently); consumed, and appended if `out`.
    #[inline]
    pub(super) fn utf8_sequence(&mut self, out: Option<&mut Vec<u8>>) -> R<()> {
        let m = self.m;
        let p = self.pos;
        let lead = m[p];
        let cont = |i: usize| m.get(p + i).is_some_and(|&b| b & 0xC0 == 0x80);
        let second = m.get(p + 1).copied().unwrap_or(0);
        let n = match lead {
            0xC2..=0xDF if cont(1) => 2,
            0xE0 if (0xA0..=0xBF).contains(&second) && cont(2) => 3,
            0xE1..=0xEC | 0xEE..=0xEF if cont(1) && cont(2) => 3,
            0xED if (0x80..=0x9F).contains(&second) && cont(2) => 3,
            0xF0 if (0x90..=0xBF).contains(&second) && cont(2) && cont(3) => 4,
            0xF1..=0xF3 if cont(1) && cont(2) && cont(3) => 4,
            0xF4 if (0x80..=0x8F).contains(&second) && cont(2) && cont(3) => 4,
            _ => return Err(Leftover),
        };
        if let Some(out) = out {
            out.extend_from_slice(&m[p..p + n]);
        }
        self.pos = p + n;
        Ok(())
    }

    pub(super) fn hex4(&mut self) -> R<u32> {
        let digits = self.m.get(self.pos..self.pos + 4).ok_or(Leftover)?;
        let mut value = 0;
        for &h in digits {
            value = value * 16 + (h as char).to_digit(16).ok_or(Leftover)?;
        }
        self.pos += 4;
        Ok(value)
    }

    /// The rest of a string after its opening quote, checked, and decoded into `out` as Flink
    /// keeps it (UTF-8, a lone surrogate escape as '?', or a leftover when `lone_ok` is false).
    pub(super) fn string(&mut self, mut out: Option<&mut Vec<u8>>, lone_ok: bool) -> R<()> {
        let m = self.m;
        loop {
            let run = self.pos;
            let pos = plain_run(m, run);
            if let Some(out) = out.as_deref_mut() {
                out.extend_from_slice(&m[run..pos]);
            }
            self.pos = pos;
            match STRING_CLASS[*m.get(pos).ok_or(Leftover)? as usize] {
                QUOTE => {
                    self.pos += 1;
                    return Ok(());
                }
                NON_ASCII => self.utf8_sequence(out.as_deref_mut())?,
                BACKSLASH => self.escape(out.as_deref_mut(), lone_ok)?,
                _ => return Err(Leftover),
            }
        }
    }

    /// The escape after a backslash, as Java chars joined the way Flink writes them to UTF-8.
    pub(super) fn escape(&mut self, out: Option<&mut Vec<u8>>, lone_ok: bool) -> R<()> {
        self.pos += 1;
        let e = self.peek();
        self.pos += 1;
        let simple = match e {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => 0,
            _ => return Err(Leftover),
        };
        let mut code = simple as u32;
        if e == b'u' {
            code = self.hex4()?;
            if (0xD800..0xDC00).contains(&code) {
                // A high surrogate pairs only with a low surrogate escape right after it.
                let m = self.m;
                let p = self.pos;
                let low = if m.get(p..p + 2) == Some(b"\\u") {
                    let mut ahead = Cursor { m, pos: p + 2 };
                    ahead.hex4().ok().filter(|l| (0xDC00..0xE000).contains(l))
                } else {
                    None
                };
                match low {
                    Some(low) => {
                        self.pos = p + 6;
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                    }
                    None if lone_ok => code = '?' as u32,
                    None => return Err(Leftover),
                }
            } else if (0xDC00..0xE000).contains(&code) {
                if !lone_ok {
                    return Err(Leftover);
                }
                code = '?' as u32;
            }
        }
        if let Some(out) = out {
            let ch = char::from_u32(code).ok_or(Leftover)?;
            let mut utf8 = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut utf8).as_bytes());
        }
        Ok(())
    }
}

/// Skips a member's name and colon inside a skipped object (`b`: the byte at the position); the
/// byte that starts its value.
pub(super) fn skip_member_name(c: &mut Cursor<'_>, b: u8) -> R<u8> {
    if b != b'"' {
        return Err(Leftover);
    }
    c.pos += 1;
    let start = c.pos;
    c.string(None, true)?;
    if c.pos - start > MAX_NAME_BYTES || c.skip_ws() != b':' {
        return Err(Leftover);
    }
    c.pos += 1;
    Ok(c.skip_ws())
}

/// Skips a string, number or literal.
pub(super) fn skip_scalar(c: &mut Cursor<'_>) -> R<()> {
    match c.peek() {
        b'"' => {
            c.pos += 1;
            c.string(None, true)
        }
        b'-' | b'0'..=b'9' => c.number().map(|_| ()),
        b't' => c.literal(b"true"),
        b'f' => c.literal(b"false"),
        b'n' => c.literal(b"null"),
        _ => Err(Leftover),
    }
}
