"""Bytes -> text exactly as `new String(bytes, UTF_8)` makes it on Java 17, bad bytes included.

Avro's Utf8.toString() decodes a string that way, and Flink keeps the result, so a record with
invalid UTF-8 still decodes: each malformed sequence becomes U+FFFD. Java groups the bad bytes
into replacements differently from Python's "replace" handler (an encoded surrogate ED A0 80 is
one U+FFFD in Java, three in Python; a truncated sequence at the very end ends the text), so
this module follows the JDK's decoding loop step by step. Valid UTF-8 takes Python's decoder.
"""

from __future__ import annotations

REPLACEMENT = "\ufffd"


def _continuation(b: int) -> bool:
    return (b & 0xC0) == 0x80


def _malformed3(b1: int, b2: int) -> bool:
    return (b1 == 0xE0 and (b2 & 0xE0) == 0x80) or not _continuation(b2)


def _malformed4_2(b1: int, b2: int) -> bool:
    return (b1 == 0xF0 and (b2 < 0x90 or b2 > 0xBF)) or (b1 == 0xF4 and (b2 & 0xF0) != 0x80) or not _continuation(b2)


def decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out: list[str] = []
    sp, sl = 0, len(data)
    while sp < sl:
        b1 = data[sp]
        sp += 1
        if b1 < 0x80:
            out.append(chr(b1))
        elif 0xC2 <= b1 <= 0xDF:
            if sp < sl:
                b2 = data[sp]
                sp += 1
                if not _continuation(b2):
                    out.append(REPLACEMENT)
                    sp -= 1
                else:
                    out.append(chr(((b1 & 0x1F) << 6) | (b2 & 0x3F)))
                continue
            out.append(REPLACEMENT)
            break
        elif 0xE0 <= b1 <= 0xEF:
            if sp + 1 < sl:
                b2, b3 = data[sp], data[sp + 1]
                sp += 2
                if _malformed3(b1, b2) or not _continuation(b3):
                    out.append(REPLACEMENT)
                    sp -= 3
                    sp += 1 if _malformed3(b1, b2) else 2
                else:
                    c = ((b1 & 0x0F) << 12) | ((b2 & 0x3F) << 6) | (b3 & 0x3F)
                    out.append(REPLACEMENT if 0xD800 <= c <= 0xDFFF else chr(c))
                continue
            if sp < sl and _malformed3(b1, data[sp]):
                out.append(REPLACEMENT)
                continue
            out.append(REPLACEMENT)
            break
        elif 0xF0 <= b1 <= 0xF7:
            if sp + 2 < sl:
                b2, b3, b4 = data[sp], data[sp + 1], data[sp + 2]
                sp += 3
                uc = ((b1 & 0x07) << 18) | ((b2 & 0x3F) << 12) | ((b3 & 0x3F) << 6) | (b4 & 0x3F)
                if not (_continuation(b2) and _continuation(b3) and _continuation(b4)) or not (
                        0x10000 <= uc <= 0x10FFFF):
                    out.append(REPLACEMENT)
                    sp -= 4
                    if b1 > 0xF4 or _malformed4_2(b1, b2):
                        sp += 1
                    elif not _continuation(b3):
                        sp += 2
                    else:
                        sp += 3
                else:
                    out.append(chr(uc))
                continue
            if b1 > 0xF4 or (sp < sl and _malformed4_2(b1, data[sp])):
                out.append(REPLACEMENT)
                continue
            sp += 1
            out.append(REPLACEMENT)
            if sp < sl and not _continuation(data[sp]):
                continue
            break
        else:
            out.append(REPLACEMENT)
    return "".join(out)
