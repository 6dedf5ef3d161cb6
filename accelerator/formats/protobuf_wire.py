"""Where protobuf-java's parser and the Python protobuf runtime's parser could read the same
bytes differently, found before parsing.

Both follow the wire format for every encoding a protobuf writer produces. They part on
over-long varints: protobuf-java reads a tag or a length as a 32-bit varint, keeping the low 32
bits of up to ten bytes, while the Python runtime refuses a tag or length above 32 bits; for
values, protobuf-java's fast path reads any tenth byte as 1 (bit 63 set, whatever the byte holds), the
Python runtime reads it as it is. `non_canonical` walks a message, and every nested message of a known field, and
returns where such a varint sits, or None. A message with one is not decoded by the accelerator
(its record fails with a message saying so) rather than risk reading it differently from Flink.
Anything else malformed is left to the parser: both refuse it.
"""

from __future__ import annotations

from google.protobuf.descriptor import Descriptor, FieldDescriptor


class _Stop(Exception):
    """The bytes end or break the wire format: the parser reports that itself."""


def _varint(data: bytes, pos: int, limit: int, kind: str) -> tuple[int, int, str | None]:
    """The varint at `pos`, its end, and why it is not canonical for `kind` (tag/length/value)."""
    result, shift, start = 0, 0, pos
    while True:
        if pos >= limit or pos - start >= 10:
            raise _Stop
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            break
    size = pos - start
    if kind in ("tag", "length") and (size > 5 or result >= 1 << 32 or (kind == "length" and result >= 1 << 31)):
        return result, pos, f"a {kind} varint of {size} bytes at byte {start}"
    if size == 10 and data[pos - 1] != 1:
        return result, pos, f"a ten-byte varint whose last byte is not 1 at byte {start}"
    return result, pos, None


def non_canonical(data: bytes, message: Descriptor) -> str | None:
    """Where `data` holds a varint the two parsers may read differently, or None."""
    try:
        return _walk(data, 0, len(data), message, None)
    except _Stop:
        return None
    except _NonCanonical as e:
        return str(e)


def _walk(data: bytes, pos: int, limit: int, message: Descriptor | None, group: int | None,
          depth: int = 0) -> str | None:
    if depth > 100:
        raise _Stop
    while pos < limit:
        tag, pos, odd = _varint(data, pos, limit, "tag")
        if odd:
            return odd
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            _, pos, odd = _varint(data, pos, limit, "value")
        elif wire == 1:
            pos += 8
        elif wire == 5:
            pos += 4
        elif wire == 2:
            length, pos, odd = _varint(data, pos, limit, "length")
            if odd:
                return odd
            end = pos + length
            if end > limit:
                raise _Stop
            fd = message.fields_by_number.get(number) if message is not None else None
            if fd is not None and fd.type == FieldDescriptor.TYPE_MESSAGE:
                odd = _walk(data, pos, end, fd.message_type, None, depth + 1)
            elif fd is not None and fd.is_repeated and fd.type not in (FieldDescriptor.TYPE_STRING,
                                                                       FieldDescriptor.TYPE_BYTES):
                odd = _packed(data, pos, end, fd)
            pos = end
        elif wire == 3:
            pos = _group_end(data, pos, limit, number, depth + 1)
        elif wire == 4:
            if group == number:
                return None
            raise _Stop
        else:
            raise _Stop
        if odd:
            return odd
    if group is not None:
        raise _Stop
    return None


def _packed(data: bytes, pos: int, end: int, fd: FieldDescriptor) -> str | None:
    if fd.type in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_FIXED32,
                   FieldDescriptor.TYPE_FIXED64, FieldDescriptor.TYPE_SFIXED32, FieldDescriptor.TYPE_SFIXED64):
        return None
    while pos < end:
        _, pos, odd = _varint(data, pos, end, "value")
        if odd:
            return odd
    return None


def _group_end(data: bytes, pos: int, limit: int, number: int, depth: int) -> int:
    """Skip an unknown group; a non-canonical varint inside it counts too."""
    odd = _walk_group(data, pos, limit, number, depth)
    if isinstance(odd, str):
        raise _NonCanonical(odd)
    return odd


class _NonCanonical(Exception):
    pass


def _walk_group(data: bytes, pos: int, limit: int, number: int, depth: int):
    if depth > 100:
        raise _Stop
    while pos < limit:
        tag, pos, odd = _varint(data, pos, limit, "tag")
        if odd:
            return odd
        n, wire = tag >> 3, tag & 7
        if wire == 0:
            _, pos, odd = _varint(data, pos, limit, "value")
            if odd:
                return odd
        elif wire == 1:
            pos += 8
        elif wire == 5:
            pos += 4
        elif wire == 2:
            length, pos, odd = _varint(data, pos, limit, "length")
            if odd:
                return odd
            pos += length
        elif wire == 3:
            pos = _group_end(data, pos, limit, n, depth + 1)
        elif wire == 4:
            if n == number:
                return pos
            raise _Stop
        else:
            raise _Stop
    raise _Stop
