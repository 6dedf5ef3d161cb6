import sys
from pathlib import Path

import pytest

from accelerator.testing.flink_oracle import HANDLED

# The helpers next to these tests (value conversion, row strategies) import as plain modules.
sys.path.insert(0, str(Path(__file__).parent))

HERE = Path(__file__).parent
#: Every format's oracle must see at least this many rows and messages in a full run of this folder.
MINIMUM_PER_FORMAT = 10_000
FORMATS = ("json", "avro", "csv", "raw", "protobuf")


def _whole_folder_ran(session) -> bool:
    """True when this run selected every test of this folder (no -k, -m, --lf, or single files)."""
    option = session.config.option
    if option.keyword or option.markexpr or getattr(option, "lf", False):
        return False
    collected = {item.path for item in session.items}
    return all(path in collected for path in HERE.glob("test_*.py"))


def pytest_terminal_summary(terminalreporter):
    if any(HANDLED[f] for f in FORMATS):
        terminalreporter.write_line("rows and messages through Flink's formats (oracle): "
                                    + ", ".join(f"{f} {HANDLED[f]:,}" for f in FORMATS))


def pytest_sessionfinish(session, exitstatus):
    """A full run that pushed fewer than MINIMUM_PER_FORMAT rows through a format's oracle fails."""
    if exitstatus != 0 or not _whole_folder_ran(session):
        return
    short = {f: HANDLED[f] for f in FORMATS if HANDLED[f] < MINIMUM_PER_FORMAT}
    if short:
        writer = session.config.get_terminal_writer()
        writer.line()
        writer.line(
            f"FAILED: formats whose oracle saw fewer than {MINIMUM_PER_FORMAT:,} rows and messages: {short}",
            red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
