"""BINARY and VARBINARY values as Flink's json decoder reads them: the parser's getBinaryValue()
with its default base64 variant (MIME-NO-LINEFEEDS: the standard alphabet, '=' padding required).

The parser decodes the string's raw bytes as it streams through them, not the decoded string,
and its rules are its own. Bytes up to 0x20 (raw whitespace, line breaks and control
characters) are skipped, but only where a 4-character group starts, and so are escapes that stand
for such a byte or for '='. Escapes of alphabet characters count as those characters. Padding may
end any group, after which further groups may follow ("QQ==QUJD" is b"AABC"). An escaped '='
inside a group is taken as the value -2, whose bits then spill into the bytes. Unused low bits
of the last group are dropped unchecked. A missing '=', a character outside the alphabet, or a
non-string token fails.

On failure the string stays unread and the parser stands just past the byte that failed (on
the closing quote for missing padding), so that json.ignore-parse-errors carries on by
skipping the rest of the string from there. `read` leaves the lexer in exactly that state.
Content of whole groups, with nothing but skipped bytes and escapes between them (as a MIME
encoder's line breaks are) and padding only at the end, goes through binascii, which reads it
alike and several times faster.
"""

from __future__ import annotations

import binascii
import re

from accelerator.formats import json_lexer as lex
from accelerator.formats.json_lexer import JsonFailure, Lexer, Unreproducible

_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_INVALID, _PADDING = -1, -2
#: Base64Variant.decodeBase64Char: a code's 6-bit value, -2 for '=', -1 for anything else.
_VALUES = [_INVALID] * 128
for _i, _c in enumerate(_ALPHABET):
    _VALUES[_c] = _i
_VALUES[ord("=")] = _PADDING
_QUOTE = 0x22
#: What the parser skips where a group starts: a byte up to 0x20, or an escape of one.
_SEPARATOR = rb"[\x00-\x20]|\\[nrtbf]|\\u00[01][0-9A-Fa-f]|\\u0020"
_SEPARATORS = re.compile(_SEPARATOR)
#: Content the parser and binascii read alike once the separators are gone: whole groups with
#: separators only between them (as a MIME encoder's line breaks are), padding only at the end.
_PLAIN = re.compile(rb"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")
_SEPARATED = re.compile(rb"(?:%s)*(?:[A-Za-z0-9+/]{4}(?:%s)*)*(?:(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)(?:%s)*)?"
                        % (_SEPARATOR, _SEPARATOR, _SEPARATOR))


def _value(code: int) -> int:
    return _VALUES[code] if code < 128 else _INVALID


def read(lx: Lexer) -> bytes:
    """getBinaryValue() at the current token."""
    if lx.token is not lex.VALUE_STRING:
        raise JsonFailure(f"current token ({lx.token}) is not a string, so it cannot be read as base64")
    if not lx.incomplete:
        raise Unreproducible("Flink's parser decodes a string already read as text by other base64 rules")
    stop = lx.buf.find(b'"', lx.pos)
    if stop >= 0 and _PLAIN.fullmatch(lx.buf, lx.pos, stop):
        value = binascii.a2b_base64(lx.buf[lx.pos:stop])
        lx.pos = stop + 1
    elif stop >= 0 and _SEPARATED.fullmatch(lx.buf, lx.pos, stop):
        value = binascii.a2b_base64(_SEPARATORS.sub(b"", lx.buf[lx.pos:stop]))
        lx.pos = stop + 1
    else:
        value = _stream(lx)
    lx.incomplete = False
    return value


def _escaped(lx: Lexer, index: int) -> int:
    """ParserBase._decodeBase64Escape after a backslash at `index` (0-3) of a group: the escaped
    character's value; -1 (skip it) for one up to 0x20 starting a group."""
    code = lx.escape()
    if code <= 0x20 and index == 0:
        return _INVALID
    bits = _value(code)
    if bits == _INVALID:
        raise JsonFailure(f"illegal character {code:#x} in base64 content (character {index + 1} of a group)")
    return bits


def _code(lx: Lexer, byte: int, index: int) -> int:
    """The value of a group's character that is not a plain alphabet character or '='."""
    if byte != 0x5C:
        raise JsonFailure(f"illegal character {byte:#04x} in base64 content (character {index + 1} of a group)")
    return _escaped(lx, index)


def _missing_padding(lx: Lexer) -> None:
    lx.pos -= 1  # the parser steps back onto the closing quote
    raise JsonFailure("unexpected end of base64 content: the variant expects '=' padding")


def _stream(lx: Lexer) -> bytes:
    """UTF8StreamJsonParser._decodeBase64, byte for byte (Java int arithmetic: the values stay
    within 24 bits, so Python's ints shift alike)."""
    out = bytearray()
    what = "base64 content"
    while True:
        b = lx.next_byte(what)
        while b <= 0x20:
            b = lx.next_byte(what)
        bits = _value(b)
        if bits < 0:
            if b == _QUOTE:
                return bytes(out)
            bits = _code(lx, b, 0)
            if bits < 0:
                continue
        data = bits
        b = lx.next_byte(what)
        bits = _value(b)
        if bits < 0:
            bits = _code(lx, b, 1)
        data = (data << 6) | bits
        b = lx.next_byte(what)
        bits = _value(b)
        if bits < 0:
            if bits != _PADDING:
                if b == _QUOTE:
                    out.append((data >> 4) & 0xFF)
                    _missing_padding(lx)
                bits = _code(lx, b, 2)
            if bits == _PADDING:
                b = lx.next_byte(what)
                if b != ord("=") and _code(lx, b, 3) != _PADDING:
                    raise JsonFailure("expected padding character '=' in base64 content")
                out.append((data >> 4) & 0xFF)
                continue
        data = (data << 6) | bits
        b = lx.next_byte(what)
        bits = _value(b)
        if bits < 0:
            if bits != _PADDING:
                if b == _QUOTE:
                    _missing_padding(lx)
                bits = _code(lx, b, 3)
            if bits == _PADDING:
                data >>= 2
                out += bytes(((data >> 8) & 0xFF, data & 0xFF))
                continue
        data = (data << 6) | bits
        out += bytes(((data >> 16) & 0xFF, (data >> 8) & 0xFF, data & 0xFF))
