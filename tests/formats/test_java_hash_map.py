"""Our model of java.util.HashMap's iteration order against a real HashMap in the oracle's JVM."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accelerator.formats import java_hash_map
from accelerator.testing.flink_oracle import java

SETTINGS = settings(max_examples=200, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def java_order(keys: list[str]) -> list[str]:
    j = java()
    collection_util = j.jpype.JClass("org.apache.flink.util.CollectionUtil")
    m = collection_util.newHashMapWithExpectedSize(len(keys))
    for i, k in enumerate(keys):
        m.put(j.jpype.JString(k), j.jpype.JInt(i))
    return [str(k) for k in m.keySet()]


def model_order(keys: list[str]) -> list[str]:
    return [keys[i] for i in java_hash_map.iteration_order(keys)]


@SETTINGS
@given(keys=st.lists(st.text(max_size=5), max_size=40))
def test_iteration_order_matches_java(keys):
    assert model_order(keys) == java_order(keys)


@SETTINGS
@given(keys=st.lists(st.sampled_from(["Aa", "BB", "AaAa", "BBBB", "AaBB", "BBAa", "x", "y", "\U0001F600"]),
                     max_size=30))
def test_colliding_and_repeated_keys_match_java(keys):
    """"Aa" and "BB" share a hash code; repeated keys keep their first place."""
    assert model_order(keys) == java_order(keys)
    last = {k: i for i, k in enumerate(keys)}
    assert sorted(java_hash_map.iteration_order(keys)) == sorted(last.values())


def test_string_hash_is_javas():
    j = java()
    for text in ["", "a", "Aa", "BB", "\U0001F600", "\u00e9t\u00e9" * 9]:
        assert java_hash_map.string_hash(text) == int(j.jpype.JString(text).hashCode()) & 0xFFFFFFFF


@SETTINGS
@given(texts=st.lists(st.one_of(st.text(max_size=9), st.binary(max_size=9).map(lambda b: b.decode("latin-1"))),
                      max_size=10))
def test_utf8_and_binary_string_hashes_are_javas(texts):
    j = java()
    utf8 = j.jpype.JClass("org.apache.avro.util.Utf8")
    string_data = j.jpype.JClass("org.apache.flink.table.data.StringData")
    for text in texts:
        data = text.encode("utf-8")
        assert java_hash_map.utf8_hash(data) == int(utf8(j.jpype.JArray(j.jpype.JByte)(data)).hashCode()) & 0xFFFFFFFF
        assert java_hash_map.binary_string_hash(text) == int(string_data.fromString(text).hashCode()) & 0xFFFFFFFF


@SETTINGS
@given(keys=st.lists(st.text(max_size=4), max_size=40), first_block=st.integers(0, 50))
def test_a_map_grown_from_a_given_capacity_iterates_like_javas(keys, first_block):
    j = java()
    m = j.jpype.JClass("java.util.HashMap")(j.jpype.JInt(first_block))
    for i, k in enumerate(keys):
        m.put(j.jpype.JString(k), j.jpype.JInt(i))
    want = [str(k) for k in m.keySet()]
    order = java_hash_map.iteration_order(keys, capacity=java_hash_map.table_size_for(first_block))
    assert [keys[i] for i in order] == want
