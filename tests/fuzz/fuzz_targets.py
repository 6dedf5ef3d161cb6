"""The decoders under fuzz, one `FuzzTarget` (fuzz_target.py) per format: how our sidecar decodes
one message and how stock Flink's format does, both as a comparable outcome (rows, or a failure).

To fuzz another format: write a deterministic generator `make_<format>_corpus.py` (see
`make_json_corpus.py`) producing `corpus/<format>/*.jsonl` (see `corpus_files`), subclass
`FuzzTarget` in `<format>_target.py` with its option sets (and row type per option set), `supported`,
`ours` and `flinks`, and add it to `TARGETS`; test_decoder_fuzz.py then runs it like the others.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from avro_target import AvroTarget  # noqa: E402
from csv_target import CsvTarget  # noqa: E402
from fuzz_target import FAILED, FuzzTarget  # noqa: E402,F401
from json_target import JsonTarget  # noqa: E402
from protobuf_target import ProtobufTarget  # noqa: E402
from raw_target import RawTarget  # noqa: E402

TARGETS: dict[str, FuzzTarget] = {t.format: t for t in (JsonTarget(), AvroTarget(), CsvTarget(), RawTarget(),
                                                          ProtobufTarget())}
