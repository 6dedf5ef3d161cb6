"""A pull lexer over one message's bytes that behaves like the streaming JSON parser Flink uses.

Flink's json decoder walks parser tokens, and what it makes of a bad message depends on exactly
when the parser notices a problem and where it stands afterwards: string values are decoded
only when read (and checked more loosely when skipped), the token after a field name is lexed
together with the name, and after an error the parser carries on from the byte after the
offending one. This lexer reproduces those rules so that the converters in
`json_converters` can follow Flink's code path token for token, errors included.
"""

from __future__ import annotations

import unicodedata

from accelerator.formats.jackson_text import MAX_STRING_LENGTH, java_length, java_string

# Token kinds, compared by identity.
START_OBJECT = "{"
END_OBJECT = "}"
START_ARRAY = "["
END_ARRAY = "]"
FIELD_NAME = "name"
VALUE_STRING = "string"
VALUE_INT = "int"
VALUE_FLOAT = "float"
VALUE_TRUE = "true"
VALUE_FALSE = "false"
VALUE_NULL = "null"

_ROOT, _ARRAY, _OBJECT = 0, 1, 2
MAX_DEPTH = 1000  # the parser's default nesting limit
MAX_NUMBER_LENGTH = 1000  # the parser's default limit on a number's digits (integer, fraction and exponent)
MAX_NAME_LENGTH = 50_000  # the parser's default limit on a field name's length
MAX_ERROR_TOKEN_LENGTH = 256  # the chars of an unrecognized token the parser reads for its error message
_WHITESPACE = b" \t\n\r"
_SIMPLE_ESCAPES = {ord("b"): "\b", ord("t"): "\t", ord("n"): "\n", ord("f"): "\f", ord("r"): "\r",
                   ord('"'): '"', ord("/"): "/", ord("\\"): "\\"}
_HEX = frozenset(b"0123456789abcdefABCDEF")
_DIGITS = frozenset(b"0123456789")
_UTF8_BOM = b"\xef\xbb\xbf"


def _digit_count(buf: bytes, start: int, stop: int) -> int:
    """Digits of a number's text: its sign, point and exponent mark do not count against the limit."""
    text = buf[start:stop]
    return len(text) - sum(text.count(c) for c in (b"-", b"+", b".", b"e", b"E"))


class JsonFailure(Exception):
    """Something Flink's parser or converters would throw for this message."""


def java_identifier_part(ch: str) -> bool:
    """Java's Character.isJavaIdentifierPart, which decides whether `truex` is one bad token."""
    if ch.isalnum() or ch in "_$":
        return True
    code = ord(ch)
    if code <= 8 or 0x0E <= code <= 0x1B or 0x7F <= code <= 0x9F:
        return True
    return unicodedata.category(ch) in ("Sc", "Pc", "Mn", "Mc", "Nl", "Cf")


def _utf8_length(lead: int) -> int:
    """Bytes in the sequence a lead byte announces, as the parser classifies them (0: invalid)."""
    if lead & 0xE0 == 0xC0:
        return 2
    if lead & 0xF0 == 0xE0:
        return 3
    if lead & 0xF8 == 0xF0:
        return 4
    return 0


class Unreproducible(Exception):
    """A message on which Flink's decoder does something the accelerator does not reproduce
    (it would loop forever, its result depends on earlier messages, or it reads the bytes as
    UTF-16/32)."""


def _jackson_name_bytes(buf: bytes, start: int) -> bytes | None:
    """A field name's bytes as the parser keys its name table: raw bytes as they stand, escapes
    as the UTF-8 of their character; None for a name without its closing quote."""
    out, pos, end = bytearray(), start, len(buf)
    while pos < end:
        b = buf[pos]
        pos += 1
        if b == 0x22:
            return bytes(out)
        if b != 0x5C:
            out.append(b)
            continue
        if pos >= end:
            return None
        e = buf[pos]
        pos += 1
        if e == 0x75:
            digits = buf[pos:pos + 4]
            if len(digits) < 4 or not all(h in _HEX for h in digits):
                return None
            out += chr(int(digits, 16)).encode("utf-8", "surrogatepass")
            pos += 4
        elif e in _SIMPLE_ESCAPES:
            out += _SIMPLE_ESCAPES[e].encode()
        else:
            return None
    return None


def _refuse_history_dependent_name(buf: bytes, start: int) -> None:
    """The parser looks a field name up in its table of names seen so far, by the name's bytes in
    groups of four with the last group padded with 0xff bytes, before it decodes the name. A
    name whose last group starts with 0xff bytes (never valid UTF-8, so otherwise an error) thus
    reads as the name without them when the parser has met that one before in this task, in any
    earlier message: the outcome depends on history the accelerator does not keep."""
    name = _jackson_name_bytes(buf, start)
    if not name:
        return
    last = name[(len(name) - 1) // 4 * 4:]
    kept = last.lstrip(b"\xff")
    if kept and kept != last:
        twin = name[:len(name) - len(last)] + kept
        raise Unreproducible(f"field name {name!r} holds 0xff bytes that Flink's parser reads as the field name"
                             f" {twin.decode('utf-8', 'replace')!r} if an earlier message in this task had that"
                             f" field, and rejects otherwise")


class Lexer:
    """The token stream of one message, pulled one token at a time like the parser's nextToken()."""

    def __init__(self, message: bytes):
        self.buf = message
        self.pos = 3 if message.startswith(_UTF8_BOM) else 0
        self.end = len(message)
        self.frames = [[_ROOT, -1]]  # [kind, entry index]
        self.token: str | None = None
        self.pending: str | None = None  # the value lexed together with a field name
        self.incomplete = False  # a string value not yet read or skipped
        self.text: str | None = None  # number text, literal, or decoded string
        self.name: str | None = None  # the last field name

    # -- bytes ---------------------------------------------------------------------------------

    def next_byte(self, what: str) -> int:
        """The next byte, consumed; at the end of the input the parser fails reading `what`."""
        if self.pos >= self.end:
            raise JsonFailure(f"unexpected end of input in {what}")
        b = self.buf[self.pos]
        self.pos += 1
        return b

    def _skip_ws(self) -> int:
        """The next byte that is not whitespace, consumed; -1 at the end of the input."""
        buf, pos, end = self.buf, self.pos, self.end
        while pos < end:
            b = buf[pos]
            pos += 1
            if b > 0x20:
                self.pos = pos
                return b
            if b not in _WHITESPACE:
                self.pos = pos
                raise JsonFailure(f"illegal control character {b:#04x} between tokens")
        self.pos = pos
        return -1

    def _skip_ws_required(self, what: str) -> int:
        b = self._skip_ws()
        if b < 0:
            raise JsonFailure(f"unexpected end of input {what}")
        return b

    # -- tokens --------------------------------------------------------------------------------

    def next_token(self) -> str | None:
        if self.token is FIELD_NAME:
            return self._after_name()
        if self.incomplete:
            self.incomplete = False
            self._skip_string()
        frame = self.frames[-1]
        b = self._skip_ws()
        if b < 0:
            if frame[0] != _ROOT:
                raise JsonFailure("unexpected end of input: expected a close marker")
            self.token = None
            return None
        if b == 0x5D or b == 0x7D:  # ] }
            wanted = _ARRAY if b == 0x5D else _OBJECT
            if frame[0] != wanted:
                raise JsonFailure(f"unexpected close marker {chr(b)!r}")
            self.frames.pop()
            self.token = END_ARRAY if b == 0x5D else END_OBJECT
            return self.token
        frame[1] += 1
        if frame[0] != _ROOT and frame[1] > 0:
            if b != 0x2C:  # ,
                raise JsonFailure(f"unexpected character {chr(b)!r}: expected a comma between entries")
            b = self._skip_ws_required("between entries")
        if frame[0] != _OBJECT:
            self.token = self._value(b, open_now=True)
            return self.token
        self.name = self._name(b)
        self.token = FIELD_NAME
        b = self._skip_ws_required("after a field name")
        if b != 0x3A:  # :
            raise JsonFailure(f"unexpected character {chr(b)!r}: expected a colon after a field name")
        b = self._skip_ws_required("after a colon")
        self.pending = self._value(b, open_now=False)
        return FIELD_NAME

    def _after_name(self) -> str | None:
        token, self.pending = self.pending, None
        if token is START_ARRAY or token is START_OBJECT:
            self._open(_ARRAY if token is START_ARRAY else _OBJECT)
        if token is VALUE_STRING:
            self.incomplete = True
        self.token = token
        return token

    def _open(self, kind: int) -> None:
        """Enter a container. Like the parser, the container is entered before the depth check
        fails, so a caller that carries on after the error is already inside it."""
        self.frames.append([kind, -1])
        if len(self.frames) - 1 > MAX_DEPTH:
            raise JsonFailure(f"document nesting depth exceeds the maximum allowed ({MAX_DEPTH})")

    def _value(self, b: int, open_now: bool) -> str:
        """Lex the value starting with byte `b`; containers open now or when the name is passed."""
        if b == 0x22:  # " (left unread: the position stays at the string's content)
            if open_now:
                self.incomplete = True
            return VALUE_STRING
        if b == 0x5B or b == 0x7B:
            token = START_ARRAY if b == 0x5B else START_OBJECT
            if open_now:
                self._open(_ARRAY if b == 0x5B else _OBJECT)
            return token
        if b == 0x74:
            return self._literal("true", VALUE_TRUE)
        if b == 0x66:
            return self._literal("false", VALUE_FALSE)
        if b == 0x6E:
            return self._literal("null", VALUE_NULL)
        if b == 0x2D or 0x30 <= b <= 0x39:
            return self._number()
        self._unexpected_value(b)
        raise AssertionError("unreachable")

    def _literal(self, word: str, token: str) -> str:
        start = self.pos - 1
        stop = start + len(word)
        if self.buf[start:stop] != word.encode():
            self._bad_token(start)
        self._check_match_end(start, stop)
        self.pos = stop
        self.text = word
        return token

    def _check_match_end(self, start: int, stop: int) -> None:
        """After a whole literal, the parser's _checkMatchEnd: an identifier character makes
        the literal part of a bad token. A non-ASCII byte always fails: the parser decodes it
        from the byte after the one it looked at, which is that byte again, so a lead byte
        fails as a bad continuation (the parser standing past it) and any other byte as a bad
        lead (the parser standing on it)."""
        if stop >= self.end:
            return
        b = self.buf[stop]
        if b >= 0x80:
            self.pos = stop + 1 if _utf8_length(b) else stop
            raise JsonFailure(f"invalid UTF-8 byte {b:#04x} after {self.buf[start:stop].decode()!r}")
        if b >= 0x30 and b != 0x5D and b != 0x7D and java_identifier_part(chr(b)):
            self._bad_token(start)

    def _char_for_error(self, pos: int, where: str = "an unrecognized token") -> tuple[str, int]:
        """The parser's _decodeCharForError on the byte at `pos`: the Java char it reads and the
        position after it. Overlong forms and encoded surrogates pass; a 4-byte form is cut to
        its low 16 bits, as the parser's cast to char does. A bad lead or continuation byte, or
        the end of the input inside a sequence, fails with the parser standing past that byte."""
        b = self.buf[pos]
        pos += 1
        if b < 0x80:
            return chr(b), pos
        n = _utf8_length(b)
        if n == 0:
            self.pos = pos
            raise JsonFailure(f"invalid UTF-8 start byte {b:#04x} in {where}")
        code = b & (0x1F, 0x0F, 0x07)[n - 2]
        for _ in range(n - 1):
            if pos >= self.end:
                self.pos = pos
                raise JsonFailure(f"unexpected end of input inside a character of {where}")
            d = self.buf[pos]
            pos += 1
            if d & 0xC0 != 0x80:
                self.pos = pos
                raise JsonFailure(f"invalid UTF-8 middle byte {d:#04x} in {where}")
            code = (code << 6) | (d & 0x3F)
        return chr(code & 0xFFFF), pos

    def _bad_token(self, start: int, scan: int | None = None) -> None:
        """An unrecognised token: the parser reads on from `scan` (default `start`; the bytes
        before it are ASCII, one char each) over identifier characters, consuming the first
        other character too, or stopping once the token's text holds MAX_ERROR_TOKEN_LENGTH
        chars; then it fails."""
        pos = start if scan is None else scan
        length = pos - start
        while pos < self.end and length < MAX_ERROR_TOKEN_LENGTH:
            ch, pos = self._char_for_error(pos)
            if not java_identifier_part(ch):
                break
            length += 1
        self.pos = pos
        raise JsonFailure(f"unrecognized token {self.buf[start:pos].decode('utf-8', 'replace')!r}")

    def _non_standard(self, start: int, word: bytes) -> None:
        """NaN and Infinity are recognised, then refused (non-numeric numbers are not enabled)."""
        stop = start + len(word)
        if self.buf[start:stop] != word:
            self._bad_token(start)
        self._check_match_end(start, stop)
        self.pos = stop
        raise JsonFailure(f"non-standard token {word.decode()!r}")

    def _unexpected_value(self, b: int) -> None:
        start = self.pos - 1
        if b == 0x4E:
            self._non_standard(start, b"NaN")
        if b == 0x49:
            self._non_standard(start, b"Infinity")
        if b == 0x2B:  # a leading plus: refused together with the character after it
            self.pos = min(start + 2, self.end)
            raise JsonFailure("numbers may not have a plus sign")
        if java_identifier_part(chr(b)):  # a non-ASCII byte is taken as the Latin-1 char
            self._bad_token(start, start + 1)
        raise JsonFailure(f"unexpected character {chr(b)!r}: expected a JSON value")

    def _number(self) -> str:
        buf, end = self.buf, self.end
        start = pos = self.pos - 1
        if buf[pos] == 0x2D:
            pos += 1
            if pos >= end:
                self.pos = pos
                raise JsonFailure("unexpected end of input in a number")
            if buf[pos] not in _DIGITS:
                if buf[pos] == 0x49:  # -Infinity
                    self._non_standard(pos, b"Infinity")
                self.pos = pos + 1
                raise JsonFailure("expected a digit after a minus sign")
        if buf[pos] == 0x30:
            pos += 1
            if pos < end and buf[pos] in _DIGITS:
                self.pos = pos
                raise JsonFailure("invalid numeric value: leading zeroes not allowed")
        while pos < end and buf[pos] in _DIGITS:
            pos += 1
        is_float = False
        for marks, what in ((b".", "decimal point"), (b"eE", "exponent indicator")):
            if pos < end and buf[pos] in marks:
                is_float = True
                pos += 1
                if what == "exponent indicator" and pos < end and buf[pos] in b"+-":
                    pos += 1
                if pos >= end or buf[pos] not in _DIGITS:
                    self.pos = min(pos + 1, end)
                    raise JsonFailure(f"invalid numeric value: {what} not followed by a digit")
                while pos < end and buf[pos] in _DIGITS:
                    pos += 1
        if _digit_count(buf, start, pos) > MAX_NUMBER_LENGTH:
            self.pos = pos
            raise JsonFailure(f"number value length exceeds the maximum allowed ({MAX_NUMBER_LENGTH})")
        self.pos = pos
        self.text = buf[start:pos].decode("ascii")
        return VALUE_FLOAT if is_float else VALUE_INT

    # -- strings -------------------------------------------------------------------------------

    def _name(self, b: int) -> str:
        if b != 0x22:
            # The parser reads the whole character for its message first (a multi-byte one moves
            # it past all its bytes; a bad UTF-8 sequence fails there instead).
            ch, self.pos = self._char_for_error(self.pos - 1, "the place of a field name")
            raise JsonFailure(f"unexpected character {ch!r}: expected a double-quote to start a field name")
        start = self.pos
        try:
            name = self._decode_string("a field name")
        except JsonFailure:
            _refuse_history_dependent_name(self.buf, start)
            raise
        if len(name) > MAX_NAME_LENGTH // 2 and java_length(name) > MAX_NAME_LENGTH:
            raise JsonFailure(f"name length ({java_length(name)}) exceeds the maximum allowed ({MAX_NAME_LENGTH})")
        return name

    def get_text(self) -> str | None:
        """The current token's text; reading a string value decodes it now (and may fail)."""
        token = self.token
        if token is VALUE_STRING:
            if self.incomplete:
                self.incomplete = False
                self.text = self._decode_string("a string value")
                if len(self.text) > MAX_STRING_LENGTH // 2 and java_length(self.text) > MAX_STRING_LENGTH:
                    raise JsonFailure(f"string value length ({java_length(self.text)}) exceeds the maximum"
                                      f" allowed ({MAX_STRING_LENGTH})")
            return self.text
        if token is FIELD_NAME:
            return self.name
        if token is None:
            return None
        if token in (START_OBJECT, END_OBJECT, START_ARRAY, END_ARRAY):
            return token
        return self.text


    def _decode_string(self, what: str) -> str:
        """Decode up to the closing quote. The position stays just past whatever failed."""
        buf, end = self.buf, self.end
        pos = self.pos
        stop = buf.find(b'"', pos)
        if stop >= 0 and buf.find(b"\\", pos, stop) < 0:
            chunk = buf[pos:stop]
            if chunk.isascii():
                self.pos = stop + 1
                return chunk.decode("ascii")
            try:
                text = chunk.decode("utf-8")
                self.pos = stop + 1
                return text
            except UnicodeDecodeError:
                pass
        units: list[int] = []
        while True:
            if pos >= end:
                self.pos = pos
                raise JsonFailure(f"unexpected end of input in {what}")
            b = buf[pos]
            pos += 1
            if b == 0x22:
                self.pos = pos
                return java_string(units)
            if b == 0x5C:
                self.pos = pos
                units.append(self.escape())
                pos = self.pos
            elif b < 0x80:
                units.append(b)
            else:
                self.pos = pos
                units.extend(self._multibyte(b))
                pos = self.pos

    def _skip_string(self) -> None:
        """Skip a string value unread: escapes and UTF-8 sequences are still checked."""
        buf, end = self.buf, self.end
        pos = self.pos
        stop = buf.find(b'"', pos)
        if stop >= 0 and buf.find(b"\\", pos, stop) < 0 and buf[pos:stop].isascii():
            self.pos = stop + 1
            return
        while True:
            if pos >= end:
                self.pos = pos
                raise JsonFailure("unexpected end of input in a string value")
            b = buf[pos]
            pos += 1
            if b == 0x22:
                self.pos = pos
                return
            if b == 0x5C:
                self.pos = pos
                self.escape()
                pos = self.pos
            elif b >= 0x80:
                self.pos = pos
                self._multibyte(b)
                pos = self.pos

    def escape(self) -> int:
        """The UTF-16 unit of the escape after a backslash (the parser's _decodeEscaped)."""
        b = self.next_byte("a character escape")
        if b in _SIMPLE_ESCAPES:
            return ord(_SIMPLE_ESCAPES[b])
        if b != 0x75:  # u
            if b >= 0x80:  # the parser reads the whole character to name it, and fails where that fails
                self._multibyte(b)
            raise JsonFailure(f"unrecognized character escape starting with byte {b:#04x}")
        value = 0
        for _ in range(4):
            h = self.next_byte("a character escape")
            if h not in _HEX:
                raise JsonFailure("expected a hex digit in a character escape")
            value = value * 16 + int(chr(h), 16)
        return value

    def _multibyte(self, lead: int) -> tuple[int, ...]:
        """The UTF-16 code units of a UTF-8 sequence, decoded as loosely as the parser does:
        overlong forms and encoded surrogates pass, and a 4-byte form always gives two units."""
        n = _utf8_length(lead)
        if n == 0:
            raise JsonFailure(f"invalid UTF-8 start byte {lead:#04x}")
        code = lead & (0x1F if n == 2 else 0x0F if n == 3 else 0x07)
        for _ in range(n - 1):
            b = self.next_byte("a UTF-8 sequence")
            if b & 0xC0 != 0x80:
                raise JsonFailure(f"invalid UTF-8 middle byte {b:#04x}")
            code = (code << 6) | (b & 0x3F)
        if n < 4:
            return (code,)
        code -= 0x10000
        return ((0xD800 | (code >> 10)) & 0xFFFF, 0xDC00 | (code & 0x3FF))
