"""flink_regexp_extract gives what Flink 2.2.1's own REGEXP_EXTRACT gives, for generated patterns
of the subset the shim accepts and generated strings.

The oracle is Flink's SqlFunctionUtils.regexpExtract (what its generated code calls) on the Java
strings a JSON source hands it, lone surrogates included, which its result keeps (and Flink's
json sink writes escaped). The sidecar's side is the shim's JavaRegexSubset translation, loaded
from its planner-side jar, and the UDF on the strings the sidecar holds (lone surrogates as '?'),
one row at a time: it must give Flink's result, or refuse the row (FlinkLoneSurrogateError) when
its result holds '?', which then may be a surrogate the sidecar cannot tell apart.
"""

from __future__ import annotations

import functools

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from accelerator.formats.jackson_text import flink_string, java_string
from accelerator.plans import udfs
from accelerator.plans.udfs import FlinkLoneSurrogateError, regexp_extract
from accelerator.testing import flink_oracle, locations

SETTINGS = settings(max_examples=400, deadline=None, derandomize=True, phases=[Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

#: Atoms of the accepted subset: literals, escapes, Java's ASCII classes, bracket classes.
ATOMS = ["a", "b", "0", "_", "&", "=", "-", " ", "#", "\\.", "\\&", "\\-", "\\t", "\\n", "\\d", "\\w", "\\s",
         "\\D", "\\W", "\\S", "[ab]", "[^&]", "[a-c]", "[^a\\d]", "[\\s_]", "[^\\-=]", "[\\w&]", "[^\\s]"]
QUANTIFIERS = ["*", "+", "?", "{2}", "{0,2}", "{1,3}", "{2,}"]
#: Characters of the strings: what the atoms tell apart, Java's extra \s (\x0B), '?' and the lone
#: surrogate Flink keeps in its place, characters outside the BMP and outside ASCII.
CHARS = ["a", "b", "c", "0", "7", "_", "&", "=", "-", " ", "\t", "\n", "\x0b", "\r", ".", "#", "?", "\ud800",
         "\udc00", "\u00e9", "\u00a0", "\u0663", "\U0001F600"]


def _quantify(pair):
    """Quantifiers apply to single characters only (the shim refuses them on groups and on '^')."""
    node, quantifier = pair
    return ("quant", node, quantifier) if quantifier and node[0] == "lit" else node


def _alternation(depth: int):
    return st.lists(st.lists(_node(depth), max_size=4), min_size=1, max_size=3)


def _node(depth: int):
    leaf = st.sampled_from(ATOMS).map(lambda a: ("lit", a)) | st.just(("anchor",))
    base = leaf if depth == 0 else leaf | st.tuples(st.just("group"), st.booleans(), _alternation(depth - 1))
    return st.tuples(base, st.sampled_from([""] + QUANTIFIERS)).map(_quantify)


def _render(node, certain: bool, groups: list[bool]) -> str:
    """Java syntax; `groups` gets, per capturing group in Java's numbering, whether it takes part in every match."""
    kind = node[0]
    if kind == "lit":
        return node[1]
    if kind == "anchor":
        return "^"
    if kind == "quant":
        return _render(node[1], certain, groups) + node[2]
    _, capturing, branches = node
    if capturing:
        groups.append(certain)
    return ("(" if capturing else "(?:") + _render_alternation(branches, certain, groups) + ")"


def _render_alternation(branches, certain: bool, groups: list[bool]) -> str:
    inner = certain and len(branches) == 1
    return "|".join("".join(_render(n, inner, groups) for n in seq) for seq in branches)


@st.composite
def patterns(draw) -> tuple[str, int]:
    """A pattern of the subset and the index of a group that takes part in every match (0: the match)."""
    groups: list[bool] = [True]
    pattern = _render_alternation(draw(_alternation(2)), True, groups)
    index = draw(st.sampled_from([i for i, always in enumerate(groups) if always]))
    return pattern, index


strings = st.lists(st.none() | st.lists(st.sampled_from(CHARS), max_size=12).map("".join), min_size=1, max_size=25)


@functools.cache
def _jvm():
    """Flink's REGEXP_EXTRACT and the shim's translation, on the oracle's JVM."""
    j = flink_oracle.java()
    jpype = j.jpype
    jar = locations.require(locations.planner_side_jar(), "the shim's planner-side jar (make shim)")
    loader = jpype.JClass("java.net.URLClassLoader")([jpype.JClass("java.io.File")(str(jar)).toURI().toURL()])
    subset = jpype.JClass("java.lang.Class").forName(
        "org.flinkaccelerator.planner.substrait.JavaRegexSubset", True, loader)
    translate = subset.getDeclaredMethod("translate", jpype.JClass("java.lang.String"))
    translate.setAccessible(True)
    return j, translate


def _java_string(text: str):
    """A java.lang.String of the same UTF-16 units, lone surrogates included (JPype cannot pass those)."""
    j, _ = _jvm()
    builder = j.jpype.JClass("java.lang.StringBuilder")()
    for unit in memoryview(text.encode("utf-16-le", "surrogatepass")).cast("H"):
        builder.appendCodePoint(unit)
    return builder.toString()


def flink_regexp_extract(values: list[str | None], pattern: str, index: int) -> list[str | None]:
    """Flink's REGEXP_EXTRACT(value, pattern, index), lone surrogates kept."""
    j, _ = _jvm()
    functions = j.jpype.JClass("org.apache.flink.table.runtime.functions.SqlFunctionUtils")
    out = []
    for value in values:
        result = None if value is None else functions.regexpExtract(_java_string(value), _java_string(pattern), index)
        out.append(None if result is None else java_string([ord(c) for c in result.toCharArray()]))
    return out


def translated(pattern: str) -> str:
    _, translate = _jvm()
    result = translate.invoke(None, pattern)
    re2 = result.getClass().getDeclaredMethod("re2")
    re2.setAccessible(True)
    return str(re2.invoke(result))


REFUSED = "refused"


def sidecar_regexp_extract(values: list[str | None], pattern: str, index: int) -> list[str | None]:
    """Per row: the UDF's result, or REFUSED where it raises FlinkLoneSurrogateError; run as a stage
    runs it on a batch whose strings may hold lone surrogates (json into an avro sink)."""
    udfs.BATCH.lone_surrogates_possible = True
    re2, out = translated(pattern), []
    for value in values:
        held = pa.array([None if value is None else flink_string(value)], pa.string())
        try:
            out.append(regexp_extract(held, pa.array([re2]), pa.array([index], pa.int32()))[0].as_py())
        except FlinkLoneSurrogateError:
            out.append(REFUSED)
    return out


def assert_same_or_refused(values, pattern, index):
    ours, flink = sidecar_regexp_extract(values, pattern, index), flink_regexp_extract(values, pattern, index)
    for value, mine, theirs in zip(values, ours, flink):
        if mine == REFUSED:
            assert "?" in flink_string(theirs), (pattern, value, theirs)
        else:
            assert mine == theirs, (pattern, value)


@SETTINGS
@given(patterns(), strings)
def test_generated_patterns_extract_what_flink_extracts(pattern_and_index, values):
    assert_same_or_refused(values, *pattern_and_index)


@pytest.mark.parametrize("pattern,index", [("(&|^)channel_id=([^&]*)", 2), ("(&|^)channel_id=([^&]*)", 1),
                                           ("", 0), ("(\\d)(\\d)", 2), ("([a-z]+)", 1), ("\\s+", 0)])
def test_fixed_patterns_extract_what_flink_extracts(pattern, index):
    values = ["x&channel_id=5&a", "channel_id=\ud800y&z", "?channel_id=1", "a&channel_id=&b", "channel_id=\U0001F600",
              "", None, "ab12c3", "\x0b\t x", "\u00e9\u0663 9"]
    assert_same_or_refused(values, pattern, index)


def test_a_lone_surrogate_in_the_result_stops_the_batch_where_flink_returns_it():
    assert flink_regexp_extract(["channel_id=\ud800y&z"], "(&|^)channel_id=([^&]*)", 2) == ["\ud800y"]
    assert sidecar_regexp_extract(["channel_id=\ud800y&z"], "(&|^)channel_id=([^&]*)", 2) == [REFUSED]


def test_a_repeated_group_fails_flink_on_long_input_so_the_shim_refuses_it():
    _, translate = _jvm()
    with pytest.raises(Exception, match="StackOverflowError"):
        flink_regexp_extract(["ab" * 200_000], "(a|b)*", 0)
    with pytest.raises(Exception) as refused:
        translate.invoke(None, "(a|b)*")
    assert "a quantifier on a group" in str(refused.value.getCause().getMessage())
