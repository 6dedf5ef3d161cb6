"""The fuzz corpus on disk: one JSON-lines file per format and category under `corpus/<format>/`.

Each line is one Kafka message value: `{"id": ..., "b64": ...}` (base64 of the bytes; `null` is a
tombstone), or, for messages too large to keep literally, `{"id": ..., "parts": [[b64, n], ...]}`
meaning the concatenation of each part's bytes repeated n times.
"""

from __future__ import annotations

import base64
import json
import random
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).with_name("corpus")


@dataclass(frozen=True)
class Message:
    id: str
    value: bytes | None


def encode(message_id: str, value: bytes | None) -> str:
    return json.dumps({"id": message_id, "b64": None if value is None else base64.b64encode(value).decode()})


def encode_parts(message_id: str, *parts: tuple[bytes, int]) -> str:
    return json.dumps({"id": message_id, "parts": [[base64.b64encode(b).decode(), n] for b, n in parts]})


def random_messages(seed: int, max_length: int, base: bytes, base_name: str):
    """50 messages of random bytes (1 to `max_length` - 1 long), then 40 copies of `base` with one
    random byte each: a seeded generator of (id, value) pairs."""
    rng = random.Random(seed)
    for i in range(50):
        yield f"random-{i}", bytes(rng.randrange(256) for _ in range(rng.randrange(1, max_length)))
    for i in range(40):
        data = bytearray(base)
        data[rng.randrange(len(data))] = rng.randrange(256)
        yield f"random-byte-of-{base_name}-{i}", bytes(data)


def write(format_name: str, categories: dict) -> None:
    """Writes `corpus/<format>/<category>.jsonl` from generators yielding encoded lines or
    (id, value) pairs, one file per category."""
    folder = CORPUS / format_name
    folder.mkdir(parents=True, exist_ok=True)
    for name, cases in categories.items():
        lines = [case if isinstance(case, str) else encode(*case) for case in cases()]
        (folder / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{folder / name}.jsonl: {len(lines)} messages")


def _decode_line(line: str) -> Message:
    entry = json.loads(line)
    if "parts" in entry:
        return Message(entry["id"], b"".join(base64.b64decode(b) * n for b, n in entry["parts"]))
    return Message(entry["id"], None if entry["b64"] is None else base64.b64decode(entry["b64"]))


def load(format_name: str) -> list[Message]:
    """Every message of a format's corpus, files in name order, lines in file order."""
    folder = CORPUS / format_name
    messages = [_decode_line(line) for path in sorted(folder.glob("*.jsonl"))
                for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    ids = [m.id for m in messages]
    duplicated = {i for i in ids if ids.count(i) > 1}
    if duplicated:
        raise ValueError(f"corpus {folder}: duplicate message ids {sorted(duplicated)}")
    return messages
