"""One Avro datum read the way Flink's avro format reads it, value by value (the exact path).

Flink reads a message with Avro's BinaryDecoder and GenericDatumReader and converts the record
with AvroToRowDataConverters. What that does with unusual input is reproduced here:

- a string that is not valid UTF-8 keeps Java's U+FFFD replacements (`java_utf8`);
- a boolean is true only for the byte 1; TINYINT and SMALLINT keep the low 8/16 bits of the int;
- varints follow BinaryDecoder: bits beyond 32 (int) or 64 (long) are dropped, an 11th long or
  6th int byte is an error; a string's or bytes' length is a long (negative or beyond
  SystemLimitException's 2147483639 is an error); union branches other than 0/1, and running out
  of bytes are errors;
- a DECIMAL whose unscaled value has more digits than its precision becomes null, empty bytes
  are an error;
- a MAP's entries come in the order of the Java hash maps Avro and Flink put them in
  (`java_hash_map`);
- every timestamp is read as epoch milliseconds (flink-avro 2.2.1 has no other reader);
- the decoder is created once per deserializer and reads through a buffer that it fills from
  the message only when a read looks past what it holds (`DatumReader`): bytes a datum leaves in
  the buffer start the next message's datum, and the next message is read only once they run
  short, so a message can be lost (never pulled in), or read only in part.

Values follow the oracle's model (see accelerator.testing.flink_oracle).
"""

from __future__ import annotations

import struct
from decimal import Context, Decimal

from accelerator.formats import java_hash_map, java_utf8
from accelerator.formats.avro_schema import Node
from accelerator.formats.types import TIMESTAMP_LTZ


class Malformed(ValueError):
    """Flink's reader throws on this datum; the job fails."""


class Unreproducible(ValueError):
    """Flink reads this datum into something the accelerator cannot hold or does not model."""


_EXACT = Context(prec=80)  # DECIMAL(38) and longer unscaled values, never rounded
_TIMESTAMPS = ("TIMESTAMP", TIMESTAMP_LTZ)


#: The buffer Flink's decoder holds (DecoderFactory's default binaryDecoderBufferSize).
BUFFER_SIZE = 8192
#: SystemLimitException's limit on a string's or bytes' length.
MAX_LENGTH = 2147483639


class DatumReader:
    """Avro's BinaryDecoder as Flink's deserializer uses it: created once over a stream that each
    message replaces (`MutableByteArrayInputStream.setBuffer`), reading through a buffer of
    BUFFER_SIZE bytes. `message` is the stream; `buffered` is what the buffer still holds from
    earlier messages. A varint, float or double read first makes sure the buffer holds 10 (long),
    5 (int), 8 or 4 bytes (a boolean: 1): when it holds fewer, what is left moves to the front
    and the rest of the buffer fills from the stream. A string or bytes value longer than what the
    buffer holds takes the buffer's bytes and the rest straight from the stream. So a datum reads
    the buffered bytes first and pulls the message in only when a read looks past them: a message
    is never read when the buffered bytes satisfy every read of a datum, and what the stream
    still holds when the next message replaces it is lost. `leftover()` is the buffer after the
    datum, which the next message's datum starts with."""

    def __init__(self, message: bytes, buffered: bytes = b""):
        self.buf = buffered
        self.pos = 0
        self.stream = message
        self.spos = 0

    def leftover(self) -> bytes:
        return bytes(self.buf[self.pos:])

    def _available(self) -> int:
        return len(self.buf) - self.pos + len(self.stream) - self.spos

    def _ensure(self, n: int) -> None:
        """BinaryDecoder.ensureBounds: fewer than n bytes buffered -> compact and fill."""
        remaining = len(self.buf) - self.pos
        if remaining < n:
            take = min(BUFFER_SIZE - remaining, len(self.stream) - self.spos)
            self.buf = self.buf[self.pos:] + self.stream[self.spos:self.spos + take]
            self.pos = 0
            self.spos += take
            if not self.buf:
                raise Malformed("the message ends inside the datum (java.io.EOFException)")

    def _byte(self) -> int:
        if self.pos >= len(self.buf):
            raise Malformed("the message ends inside the datum (java.io.EOFException)")
        b = self.buf[self.pos]
        self.pos += 1
        return b

    def varint(self, max_bytes: int) -> int:
        """The zig-zag varint, with Java's int (5 bytes, 32 bits) or long (10 bytes, 64 bits) rules."""
        self._ensure(max_bytes)
        bits = 32 if max_bytes == 5 else 64
        acc = 0
        for j in range(max_bytes):
            b = self._byte()
            acc |= (b & 0x7F) << (7 * j)
            if b < 0x80:
                acc &= (1 << bits) - 1
                value = (acc >> 1) ^ -(acc & 1)
                return value
        raise Malformed(f"Invalid {'int' if bits == 32 else 'long'} encoding")

    def int_(self) -> int:
        return self.varint(5)

    def long_(self) -> int:
        return self.varint(10)

    def boolean(self) -> bool:
        self._ensure(1)
        return self._byte() == 1

    def fixed(self, n: int) -> bytes:
        """A float's or double's bytes (readFloat, readDouble: ensureBounds(n) first)."""
        self._ensure(n)
        return self.raw(n)

    def length(self) -> int:
        """A string's or bytes' length: readLong, then SystemLimitException's checks."""
        n = self.long_()
        if n < 0:
            raise Malformed(f"Malformed data. Length is negative: {n}")
        if n > MAX_LENGTH:
            raise Malformed(f"Cannot read strings or bytes longer than {MAX_LENGTH} bytes")
        return n

    def raw(self, n: int) -> bytes:
        """BinaryDecoder.doReadBytes: from the buffer, or all it holds and the rest from the stream."""
        if n < 0:
            raise Malformed(f"Malformed data. Length is negative: {n}")
        remaining = len(self.buf) - self.pos
        if n <= remaining:
            out = self.buf[self.pos:self.pos + n]
            self.pos += n
            return bytes(out)
        rest = n - remaining
        if self.spos + rest > len(self.stream):
            raise Malformed("the message ends inside a string or bytes value (java.io.EOFException)")
        out = self.buf[self.pos:] + self.stream[self.spos:self.spos + rest]
        self.pos = len(self.buf)
        self.spos += rest
        return bytes(out)

    def read(self, node: Node):
        if node.nullable:
            branch = self.int_()
            if branch == 0:
                return None
            if branch != 1:
                raise Malformed(f"union branch {branch} does not exist in [null, {node.kind}]")
        return self._value(node)

    def _value(self, node: Node):
        kind, root = node.kind, node.type.root
        if kind == "boolean":
            return self.boolean()
        if kind == "int":
            v = self.int_()
            if root == "TINYINT":
                return (v + 128) % 256 - 128
            if root == "SMALLINT":
                return (v + 32768) % 65536 - 32768
            return v
        if kind == "long":
            v = self.long_()
            if root in _TIMESTAMPS:  # TimestampData.fromEpochMillis, any long
                return v * 1_000_000
            return v
        if kind == "float":
            return struct.unpack("<f", self.fixed(4))[0]
        if kind == "double":
            return struct.unpack("<d", self.fixed(8))[0]
        if kind == "string":
            return java_utf8.decode(self.raw(self.length()))
        if kind == "bytes":
            return self.raw(self.length())
        if kind == "decimal":
            data = self.raw(self.length())
            if not data:
                raise Malformed("Zero length BigInteger (java.lang.NumberFormatException)")
            unscaled = int.from_bytes(data, "big", signed=True)
            if abs(unscaled) >= 10 ** node.type.precision:
                return None  # DecimalData.fromBigDecimal: too many digits -> null
            return Decimal(unscaled).scaleb(-node.type.scale, _EXACT)
        if kind == "record":
            return tuple(self.read(child) for child in node.children)
        if kind == "array":
            return self._items(lambda: self.read(node.children[0]))
        if kind == "map":
            return self._map(node)
        raise ValueError(f"no reader for {kind}")

    def _map(self, node: Node) -> list:
        """The entries in the order Flink's MAP holds them: Avro fills a HashMap sized by the first
        block's count and keyed by Utf8 (the raw bytes), Flink copies it, in that map's order,
        into a default HashMap keyed by the decoded string."""
        first_block: list[int] = []
        entries = self._items(lambda: (self.raw(self.length()), self.read(node.children[0])), first_block)
        keys = [k for k, _ in entries]
        try:
            avro_order = java_hash_map.iteration_order(
                keys, java_hash_map.utf8_hash, java_hash_map.table_size_for(first_block[0]))
            texts = [(java_utf8.decode(keys[i]), entries[i][1]) for i in avro_order]
            flink_order = java_hash_map.iteration_order(
                [t for t, _ in texts], java_hash_map.binary_string_hash, java_hash_map.DEFAULT_CAPACITY)
        except java_hash_map.Unreproducible as e:
            raise Unreproducible(str(e)) from None
        return [texts[i] for i in flink_order]

    def _items(self, read_one, first_block: list[int] | None = None) -> list:
        out = []
        while True:
            count = self.long_()
            if count == 0:
                if first_block is not None and not first_block:
                    first_block.append(0)
                return out
            if count < 0:
                self.long_()  # the block's size in bytes, which the reader skips
                count = -count
            if first_block is not None and not first_block:
                first_block.append(count)
            if count > self._available():
                raise Malformed(f"a block of {count} items cannot fit in the {self._available()}"
                                f" bytes left")
            for _ in range(count):
                out.append(read_one())
