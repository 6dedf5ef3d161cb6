"""How the fuzz tests mutate a corpus message (bytes flipped, cut, spliced, repeated), one
definition for hypothesis draws (test_decoder_fuzz) and seeded random ones (batches)."""

from __future__ import annotations

from collections.abc import Callable, Sequence


def mutate(message: bytes, integer: Callable[[int, int], int], choice: Callable[[Sequence], object],
           splices: Sequence[bytes]) -> bytes:
    """1 to 4 mutations of `message`; `integer(a, b)` draws from a..b inclusive, `choice(s)` one
    element of s, `splices` are fragments that mean something to the format."""
    data = bytearray(message)
    for _ in range(integer(1, 4)):
        op = integer(0, 4)
        at = integer(0, len(data))
        if op == 0 and data:
            data[min(at, len(data) - 1)] ^= 1 << integer(0, 7)
        elif op == 1:
            del data[at:at + integer(1, 16)]
        elif op == 2:
            data[at:at] = choice(splices)
        elif op == 3:
            data = data[:at]
        else:
            end = integer(at, len(data))
            data[at:at] = bytes(data[at:end]) * integer(1, 3)
    return bytes(data)
