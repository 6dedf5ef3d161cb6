"""SPLIT_INDEX in the sidecar (`flink_split_index`) gives what Flink's own function gives, for
generated strings, literal separators and indexes, on both of its paths: one index for the batch
(native) and an index per row."""

from __future__ import annotations

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from accelerator.plans import udfs
from accelerator.testing.flink_oracle import flink_split_index

#: Few distinct characters, so separators occur often, overlap and repeat; plus non-ASCII ones.
_TEXT = st.text(alphabet="ab/,é€😀", max_size=12)
_SEPARATOR = st.text(alphabet="ab/,é😀", min_size=1, max_size=3)


@settings(max_examples=300, deadline=None)
@given(strings=st.lists(st.one_of(st.none(), _TEXT), min_size=1, max_size=20), separator=_SEPARATOR,
       index=st.integers(-2, 6))
def test_one_index_for_the_batch_matches_flink(strings, separator, index):
    out = udfs.split_index(pa.array(strings, pa.string()), pa.array([separator] * len(strings)),
                           pa.array([index] * len(strings), pa.int32()))
    assert out.to_pylist() == flink_split_index(strings, separator, index)


@settings(max_examples=100, deadline=None)
@given(rows=st.lists(st.tuples(_TEXT, st.integers(-1, 5)), min_size=2, max_size=20), separator=_SEPARATOR)
def test_an_index_per_row_matches_flink(rows, separator):
    strings, indexes = [s for s, _ in rows], [i for _, i in rows]
    out = udfs.split_index(pa.array(strings, pa.string()), pa.array([separator] * len(rows)),
                           pa.array(indexes, pa.int32()))
    assert out.to_pylist() == [flink_split_index([s], separator, i)[0] for s, i in rows]


def test_a_sliced_array_splits_its_own_strings():
    strings = pa.array(["x/y", "a/b/c", "d/e/f", None, "g"], pa.string()).slice(1, 3)
    out = udfs.split_index(strings, pa.array(["/"] * 3), pa.array([1] * 3, pa.int32()))
    assert out.to_pylist() == flink_split_index(["a/b/c", "d/e/f", None], "/", 1)
