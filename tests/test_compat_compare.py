from accelerator.compat.compare import EQUIVALENT, IDENTICAL, MISMATCH, compare
from accelerator.testing.kafka import Record


def recs(*values, partition=0, key=None, headers=()):
    return [Record(value=v, key=key, partition=partition, headers=headers) for v in values]


def test_same_bytes_are_identical():
    a = recs(b'{"a":1}', b'{"a":2}')
    assert compare(a, list(a)).status == IDENTICAL


def test_order_matters_per_partition_unless_unordered():
    a, b = recs(b"1", b"2"), recs(b"2", b"1")
    assert compare(a, b).status == MISMATCH
    assert compare(a, b, ordered=False).passed


def test_order_across_partitions_does_not_matter():
    a = recs(b"1", partition=0) + recs(b"2", partition=1)
    b = recs(b"2", partition=1) + recs(b"1", partition=0)
    assert compare(a, b).status == IDENTICAL


def test_same_rows_in_other_bytes_are_equivalent_and_fail():
    result = compare(recs(b'{"a":1,"b":2}'), recs(b'{"b":2, "a":1}'), fmt="json")
    assert (result.status, result.passed) == (EQUIVALENT, False)


def test_tolerated_columns_may_differ():
    stock, accelerated = recs(b'{"a":1,"now":"10:00"}'), recs(b'{"a":1,"now":"10:01"}')
    assert not compare(stock, accelerated, fmt="json").passed
    result = compare(stock, accelerated, fmt="json", tolerate=("now",))
    assert (result.status, result.passed) == (EQUIVALENT, True)
    assert not compare(stock, recs(b'{"a":2,"now":"10:01"}'), fmt="json", tolerate=("now",)).passed


def test_keys_and_headers_are_part_of_the_message():
    assert compare(recs(b"v", key=b"k1"), recs(b"v", key=b"k2")).status == MISMATCH
    assert compare(recs(b"v", headers=(("h", b"1"),)), recs(b"v", headers=(("h", b"2"),))).status == MISMATCH


def test_mismatch_says_where():
    result = compare(recs(b"1", b"2"), recs(b"1", b"3"))
    assert result.status == MISMATCH and "message 1" in result.detail
    assert "3 messages" in compare(recs(b"1", b"2", b"3"), recs(b"1")).detail


def test_final_compares_where_an_upsert_changelog_ends():
    def msg(key, value):
        return Record(value=value, key=key, partition=0)
    # Left join read users late: a null-padded row, then its update; read early: the joined row.
    late = [msg(b"ann", b'{"city":null}'), msg(b"ann", None), msg(b"ann", b'{"city":"Oslo"}'), msg(b"zed", b"{}")]
    early = [msg(b"ann", b'{"city":"Oslo"}'), msg(b"zed", b"{}")]
    assert compare(late, early).status == MISMATCH
    assert compare(late, early, final=True).status == IDENTICAL
    deleted = early + [msg(b"zed", None)]
    assert compare(late, deleted, final=True).status == MISMATCH
    other_value = [msg(b"ann", b'{"city":"Rome"}'), msg(b"zed", b"{}")]
    assert compare(late, other_value, final=True).status == MISMATCH


def test_record_timestamps_count_only_where_the_sink_writes_them():
    stock = [Record(value=b"v", partition=0, timestamp=1000)]
    accelerated = [Record(value=b"v", partition=0, timestamp=1001)]
    assert compare(stock, accelerated).status == IDENTICAL
    result = compare(stock, accelerated, timestamps=True)
    assert (result.status, result.passed) == (MISMATCH, False)
    assert "different record timestamps" in result.detail
    assert compare(stock, list(stock), timestamps=True).status == IDENTICAL


def test_headers_order_and_duplicates_count():
    one = recs(b"v", headers=(("a", b"1"), ("b", None)))
    assert compare(one, recs(b"v", headers=(("b", None), ("a", b"1")))).status == MISMATCH
    assert compare(one, recs(b"v", headers=(("a", b"1"), ("b", None), ("b", None)))).status == MISMATCH
