//! Bytes -> UTF-8 exactly as `new String(bytes, UTF_8)` makes them on Java 17, bad bytes included:
//! Avro's Utf8.toString() decodes a string that way and Flink keeps the result. Each malformed
//! sequence becomes U+FFFD, grouped as the JDK's decoding loop groups them (an encoded surrogate
//! ED A0 80 is one U+FFFD; a truncated sequence at the very end ends the text). A step-by-step
//! port of `accelerator/formats/java_utf8.py`.

const REPLACEMENT: char = '\u{FFFD}';

fn continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

fn malformed3(b1: u8, b2: u8) -> bool {
    (b1 == 0xE0 && b2 & 0xE0 == 0x80) || !continuation(b2)
}

fn malformed4_2(b1: u8, b2: u8) -> bool {
    (b1 == 0xF0 && !(0x90..=0xBF).contains(&b2))
        || (b1 == 0xF4 && b2 & 0xF0 != 0x80)
        || !continuation(b2)
}

fn push(out: &mut Vec<u8>, c: char) {
    let mut buf = [0u8; 4];
    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
}

/// Appends Java's text of `data` (which is not valid UTF-8) to `out`, as UTF-8.
pub(super) fn decode_into(data: &[u8], out: &mut Vec<u8>) {
    let (mut sp, sl) = (0usize, data.len());
    while sp < sl {
        let b1 = data[sp];
        sp += 1;
        match b1 {
            0x00..=0x7F => out.push(b1),
            0xC2..=0xDF => {
                if sp < sl {
                    let b2 = data[sp];
                    sp += 1;
                    if !continuation(b2) {
                        push(out, REPLACEMENT);
                        sp -= 1;
                    } else {
                        let c = (b1 as u32 & 0x1F) << 6 | (b2 as u32 & 0x3F);
                        push(out, char::from_u32(c).unwrap_or(REPLACEMENT));
                    }
                    continue;
                }
                push(out, REPLACEMENT);
                break;
            }
            0xE0..=0xEF => {
                if sp + 1 < sl {
                    let (b2, b3) = (data[sp], data[sp + 1]);
                    sp += 2;
                    if malformed3(b1, b2) || !continuation(b3) {
                        push(out, REPLACEMENT);
                        sp -= 3;
                        sp += if malformed3(b1, b2) { 1 } else { 2 };
                    } else {
                        let c =
                            (b1 as u32 & 0x0F) << 12 | (b2 as u32 & 0x3F) << 6 | (b3 as u32 & 0x3F);
                        // surrogates have no char: the replacement, as Java gives
                        push(out, char::from_u32(c).unwrap_or(REPLACEMENT));
                    }
                    continue;
                }
                push(out, REPLACEMENT);
                if sp < sl && malformed3(b1, data[sp]) {
                    continue;
                }
                break;
            }
            0xF0..=0xF7 => {
                if sp + 2 < sl {
                    let (b2, b3, b4) = (data[sp], data[sp + 1], data[sp + 2]);
                    sp += 3;
                    let uc = (b1 as u32 & 0x07) << 18
                        | (b2 as u32 & 0x3F) << 12
                        | (b3 as u32 & 0x3F) << 6
                        | (b4 as u32 & 0x3F);
                    let valid = continuation(b2)
                        && continuation(b3)
                        && continuation(b4)
                        && (0x10000..=0x10FFFF).contains(&uc);
                    if !valid {
                        push(out, REPLACEMENT);
                        sp -= 4;
                        sp += if b1 > 0xF4 || malformed4_2(b1, b2) {
                            1
                        } else if !continuation(b3) {
                            2
                        } else {
                            3
                        };
                    } else {
                        push(out, char::from_u32(uc).unwrap_or(REPLACEMENT));
                    }
                    continue;
                }
                push(out, REPLACEMENT);
                if b1 > 0xF4 || (sp < sl && malformed4_2(b1, data[sp])) {
                    continue;
                }
                sp += 1;
                if sp < sl && !continuation(data[sp]) {
                    continue;
                }
                break;
            }
            _ => push(out, REPLACEMENT),
        }
    }
}
