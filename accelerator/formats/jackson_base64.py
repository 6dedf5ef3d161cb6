"""BINARY and VARBINARY text read as Flink's csv format reads it: Jackson's TextNode.binaryValue(),
i.e. the text trimmed (String.trim) and decoded by Base64Variant.decode with the default variant
(MIME-NO-LINEFEEDS: the standard alphabet, '=' padding required).

That decoder skips chars up to U+0020 only where a 4-char group starts; padding may end any group,
after which further groups may follow ("QQ==QQ==" is b"AA"); the unused low bits of a group's
last char are dropped unchecked. A char outside the alphabet, a missing '=' or a group cut short
fails. Text of whole groups with padding only at its end goes through binascii, which reads it
alike.
"""

from __future__ import annotations

import binascii
import re

from accelerator.formats.java_parse import trim

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_VALUES = {c: i for i, c in enumerate(_ALPHABET)}
_PLAIN = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")


def _value(text: str, pos: int) -> int:
    if pos >= len(text):
        raise ValueError("unexpected end of base64-encoded String")
    c = text[pos]
    if c not in _VALUES:
        raise ValueError(f"illegal character {c!r} in base64 content")
    return _VALUES[c]


def decode(text: str) -> bytes:
    """The bytes of `text`; ValueError where Jackson throws."""
    text = trim(text)
    if _PLAIN.fullmatch(text):
        return binascii.a2b_base64(text, strict_mode=True) if text else b""
    out = bytearray()
    pos, n = 0, len(text)
    while True:
        while pos < n and ord(text[pos]) <= 0x20:
            pos += 1
        if pos >= n:
            return bytes(out)
        data = (_value(text, pos) << 6) | _value(text, pos + 1)
        pos += 2
        if pos < n and text[pos] == "=":
            if text[pos + 1:pos + 2] != "=":
                raise ValueError("expected padding character '='")
            out.append(data >> 4)
            pos += 2
            continue
        data = (data << 6) | _value(text, pos)
        pos += 1
        if pos < n and text[pos] == "=":
            out += ((data >> 2) & 0xFFFF).to_bytes(2, "big")
            pos += 1
            continue
        data = (data << 6) | _value(text, pos)
        pos += 1
        out += data.to_bytes(3, "big")
