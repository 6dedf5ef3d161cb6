"""Text as Jackson (2.18, shaded in Flink 2.2.1) reads it, for Flink's json and csv formats:
its encoding detection, its limit on a value's length, Java strings from UTF-16 units, and the
strings Flink keeps.

For csv, `read_text` turns message bytes into the text its CSV parser parses. Jackson picks the encoding from the first bytes: a NUL among the first two, or a UTF-16 byte-order
mark, makes it read UTF-16 or UTF-32 (`read_as_utf16_or_32`). Otherwise its own UTF8Reader decodes
more loosely than UTF-8: overlong two-byte forms (C0 80 is U+0000), encoded surrogates and
four-byte forms above U+10FFFF pass, the last as two UTF-16 units computed without a range check.
It rejects a byte that cannot start a sequence (80-BF, F8-FF), a missing continuation byte and a
sequence cut by the end of the message, but only once the parser asks for the text at that point
(`read_text` returns the text before it and why it stops there).
"""

from __future__ import annotations

import re

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
#: Jackson's default limit (StreamReadConstraints) on one string value's length, in Java chars.
MAX_STRING_LENGTH = 20_000_000


def read_as_utf16_or_32(message: bytes) -> bool:
    """Whether Jackson's encoding detection reads this message as UTF-16 or UTF-32."""
    return len(message) >= 2 and (0 in message[:2] or message[:2] in (b"\xfe\xff", b"\xff\xfe"))


def java_string(units: list[int]) -> str:
    """A Java string from UTF-16 code units: valid surrogate pairs join, lone ones stay lone."""
    return "".join(map(chr, units)).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def read_text(message: bytes) -> tuple[str, str | None]:
    """The text Jackson's UTF8Reader decodes, up to the first byte sequence it rejects, and the
    reason it rejects that sequence (None when it decodes the whole message)."""
    try:
        return message.decode("utf-8"), None
    except UnicodeDecodeError as e:
        pos = e.start
    prefix = message[:pos].decode("utf-8")
    units: list[int] = []  # UTF-16 units after the valid prefix
    n = len(message)
    while pos < n:
        b = message[pos]
        if b < 0x80:
            units.append(b)
            pos += 1
            continue
        if b & 0xE0 == 0xC0:
            needed, code = 1, b & 0x1F
        elif b & 0xF0 == 0xE0:
            needed, code = 2, b & 0x0F
        elif b & 0xF8 == 0xF0:
            needed, code = 3, b & 0x0F
        else:
            return prefix + java_string(units), f"Invalid UTF-8 start byte 0x{b:02x}"
        if pos + needed >= n:
            return prefix + java_string(units), "End-of-input in the middle of a UTF-8 character"
        for k in range(1, needed + 1):
            d = message[pos + k]
            if d & 0xC0 != 0x80:
                return prefix + java_string(units), f"Invalid UTF-8 middle byte 0x{d:02x}"
            code = (code << 6) | (d & 0x3F)
        pos += needed + 1
        if needed == 3:  # two units, without Java's check that the code point is at most U+10FFFF
            code -= 0x10000
            units.append((0xD800 + (code >> 10)) & 0xFFFF)
            units.append(0xDC00 | (code & 0x3FF))
        else:
            units.append(code)
    return prefix + java_string(units), None


def java_length(text: str) -> int:
    """Length in Java chars (UTF-16 units): characters outside the BMP count twice."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def has_lone_surrogate(java: str) -> bool:
    return not java.isascii() and _LONE_SURROGATE.search(java) is not None


def flink_string(java: str) -> str:
    """The string Flink keeps: it stores strings as UTF-8, writing an unpaired surrogate as '?'."""
    return java if java.isascii() else _LONE_SURROGATE.sub("?", java)
