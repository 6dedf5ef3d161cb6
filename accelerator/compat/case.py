"""One compatibility case: a folder with `case.sql`, `input/NAME.jsonl` and an optional `case.yaml`."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from accelerator.testing import locations, sql

CASE_KEYS = {"partitions", "wrapped", "ordered", "compare", "tolerate", "expect", "expect_on_flink", "expect_failure",
             "expect_failure_on_flink",
             "bad_record", "notes", "timestamps", "accelerated_operators",
             "accelerated_operators_on_flink", "batch_exchanges", "fallback_reasons", "fallback_reasons_on_flink",
             "not_applicable_on_flink"}
COMPARE_MODES = ("messages", "final")
ACCELERATION_LEVELS = ("accelerated", "partial", "stock")
TOPIC_PREFIX = "topic:"
#: A CREATE TABLE statement: its name and its text up to the next statement.
_CREATE_TABLE = re.compile(r"CREATE\s+(?:TEMPORARY\s+)?TABLE\s+`?(\w+)`?(.*?)(?=;|\Z)", re.IGNORECASE | re.DOTALL)
FORMAT_OPTION = re.compile(r"'(?:value\.)?format'\s*=\s*'([^']+)'")


class CaseError(ValueError):
    """The case folder does not follow the case format; the message says which file and what."""


@dataclass(frozen=True)
class Case:
    name: str
    path: Path
    script: str
    topics: tuple[str, ...]            # logical topic names, in order of first use
    inputs: dict[str, Path]            # logical topic -> its input/NAME.jsonl
    formats: dict[str, str]            # logical topic -> value format of the table reading/writing it
    partitions: dict[str, int] = field(default_factory=dict)
    wrapped: frozenset[str] = frozenset()
    ordered: bool = True
    compare: str = "messages"          # or "final": the table an upsert changelog leaves behind
    tolerate: tuple[str, ...] = ()
    expect: str | None = None
    #: stock Flink's job must fail, and the accelerated one alike (on the suite's release: a
    #: connector of another line may read the same input without failing)
    expect_failure: bool = False
    #: with expect_failure: the message the job fails on, as (topic, partition, offset); the
    #: accelerated job's error must name it (stock Flink's does not say which record it was)
    bad_record: tuple[str, int, int] | None = None
    timestamps: bool = False           # the sink writes record timestamps: compare them too
    #: operators (`Accelerated[NAME]`, by NAME) the accelerated run's job graph must hold
    accelerated_operators: tuple[str, ...] = ()
    #: how many keyed shuffles of the accelerated run's job graph must carry batches
    #: (`accelerator.exchange.batched.enabled`: ship strategy BATCH-CHANNEL)
    batch_exchanges: int = 0
    #: texts each of which some stock part's reason (`accelerator explain`) must contain: why the
    #: case falls back, checked, not only listed
    fallback_reasons: tuple[str, ...] = ()
    #: why the case does not apply to the Flink release the suite runs on (its SQL is something that
    #: release's stock Flink rejects), or None where it applies
    not_applicable: str | None = None
    notes: str = ""

    @property
    def outputs(self) -> tuple[str, ...]:
        """Topics the case writes: every topic without an input file."""
        return tuple(t for t in self.topics if t not in self.inputs)

    def partitions_of(self, topic: str) -> int:
        return self.partitions.get(topic, 1)

    def sources_on(self, topic: str) -> int:
        """How many of the script's tables on the topic the script reads (after FROM, JOIN or TABLE):
        each is a source of its own, whose reader hands every message of the topic on; a table only
        declared (e.g. raw bytes beside the typed table) reads nothing. At least 1."""
        placeholder = "${" + TOPIC_PREFIX + topic + "}"
        tables = [m.group(1) for m in _CREATE_TABLE.finditer(self.script) if placeholder in m.group(2)]
        queries = _CREATE_TABLE.sub("", self.script)
        read = [t for t in tables if re.search(rf"\b(?:FROM|JOIN|TABLE)\s+`?{re.escape(t)}`?(?![\w`])",
                                               queries, re.IGNORECASE)]
        return max(1, len(read))


def load(path: Path) -> Case:
    path = Path(path)
    script_file = path / "case.sql"
    if not script_file.is_file():
        raise CaseError(f"{path}: no case.sql")
    script = script_file.read_text()
    names = sql.placeholders(script)
    unknown = [n for n in names if n != "bootstrap" and not n.startswith(TOPIC_PREFIX)]
    if unknown:
        raise CaseError(f"{script_file}: unknown placeholders {unknown}; only ${{bootstrap}} and ${{topic:NAME}}")
    topics = tuple(n[len(TOPIC_PREFIX):] for n in names if n.startswith(TOPIC_PREFIX))
    inputs = {f.stem: f for f in sorted((path / "input").glob("*.jsonl"))}
    stray = sorted(set(inputs) - set(topics))
    if stray:
        raise CaseError(f"{path}/input: files for topics the script never uses: {stray}")
    settings = _settings(path / "case.yaml")
    case = Case(name=path.name, path=path, script=script, topics=topics, inputs=inputs,
                formats=_formats(script), partitions=dict(settings.get("partitions") or {}),
                wrapped=frozenset(settings.get("wrapped") or ()),
                ordered=bool(settings.get("ordered", True)),
                compare=str(settings.get("compare", "messages")),
                tolerate=tuple(settings.get("tolerate") or ()), expect=_expect(settings),
                expect_failure=bool(_for_this_release(settings, "expect_failure") or False),
                bad_record=_bad_record(settings.get("bad_record"), path),
                timestamps=bool(settings.get("timestamps", False)),
                accelerated_operators=tuple(str(n) for n in _for_this_release(settings, "accelerated_operators") or ()),
                batch_exchanges=int(settings.get("batch_exchanges", 0)),
                fallback_reasons=tuple(str(r) for r in _for_this_release(settings, "fallback_reasons") or ()),
                not_applicable=_not_applicable(settings.get("not_applicable_on_flink"), path),
                notes=str(settings.get("notes") or ""))
    _check(case)
    return case


def _settings(file: Path) -> dict:
    if not file.exists():
        return {}
    settings = yaml.safe_load(file.read_text()) or {}
    if not isinstance(settings, dict) or set(settings) - CASE_KEYS:
        raise CaseError(f"{file}: keys must be among {sorted(CASE_KEYS)}, got {settings!r}")
    return settings


def _bad_record(setting, path: Path) -> tuple[str, int, int] | None:
    if setting is None:
        return None
    if not isinstance(setting, dict) or set(setting) != {"topic", "partition", "offset"}:
        raise CaseError(f"{path}/case.yaml: bad_record must be {{topic, partition, offset}}, got {setting!r}")
    return str(setting["topic"]), int(setting["partition"]), int(setting["offset"])


def _formats(script: str) -> dict[str, str]:
    """The value format of the table on each topic, read from its CREATE TABLE options."""
    formats = {}
    for statement in sql.split_statements(script):
        found = FORMAT_OPTION.search(statement)
        for name in sql.placeholders(statement):
            if name.startswith(TOPIC_PREFIX) and found:
                formats.setdefault(name[len(TOPIC_PREFIX):], found.group(1))
    return formats


def _check(case: Case) -> None:
    for topic in [*case.partitions, *case.wrapped]:
        if topic not in case.topics:
            raise CaseError(f"{case.path}/case.yaml names topic {topic!r}, which case.sql does not use")
    if case.compare not in COMPARE_MODES:
        raise CaseError(f"{case.path}/case.yaml: compare must be one of {COMPARE_MODES}")
    if case.expect is not None and case.expect not in ACCELERATION_LEVELS:
        raise CaseError(f"{case.path}/case.yaml: expect must be one of {ACCELERATION_LEVELS}")
    if case.bad_record is not None and (not case.expect_failure or case.bad_record[0] not in case.inputs):
        raise CaseError(f"{case.path}/case.yaml: bad_record needs expect_failure and names an input topic")
    if not case.outputs:
        raise CaseError(f"{case.path}: every topic has an input file; nothing to compare")
    for topic in case.inputs:
        if topic not in case.formats:
            raise CaseError(f"{case.path}: no 'format' option found for the table on topic {topic!r}")


def discover(roots: list[Path], pattern: str = "*") -> list[Case]:
    """Every case folder (one holding case.sql) under `roots` whose name matches `pattern`."""
    cases = []
    for root in roots:
        for script in sorted(Path(root).rglob("case.sql")):
            if fnmatch.fnmatch(script.parent.name, pattern):
                cases.append(load(script.parent))
    names = [c.name for c in cases]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise CaseError(f"case names must be unique: {duplicates}")
    return cases


def _expect(settings: dict) -> str | None:
    """The acceleration expected on the Flink release the suite runs on (`expect_on_flink` names
    releases whose formats keep more on stock, as 2.3's json TIME)."""
    return _for_this_release(settings, "expect")


def _names_this_release(named: str) -> bool:
    """Whether a release ("1.20.3") or line ("1.20": every 1.20.x) named in case.yaml is the suite's."""
    release = locations.flink_version()
    return release == named or release.startswith(f"{named}.")


def _for_this_release(settings: dict, key: str):
    """`key`'s setting on the Flink release the suite runs on: `<key>_on_flink`'s entry naming that
    release or its line, else `key`'s own."""
    return next((value for named, value in (settings.get(f"{key}_on_flink") or {}).items()
                 if _names_this_release(str(named))), settings.get(key))


def _not_applicable(setting, path: Path) -> str | None:
    """The reason `not_applicable_on_flink` gives for the Flink release the suite runs on: an entry
    names a release ("1.20.3") or a whole line ("1.20": every 1.20.x)."""
    if setting is None:
        return None
    # Quoted keys only: YAML reads an unquoted 1.20 as the number 1.2.
    if not isinstance(setting, dict) or not all(isinstance(named, str) and isinstance(reason, str) and reason.strip()
                                                for named, reason in setting.items()):
        raise CaseError(f"{path}/case.yaml: not_applicable_on_flink must map quoted Flink releases or lines "
                        f"(\"1.20\") to the reason the case does not apply there, got {setting!r}")
    return next((reason for named, reason in setting.items() if _names_this_release(named)), None)
