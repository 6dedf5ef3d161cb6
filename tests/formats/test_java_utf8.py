"""Our model of Java's UTF-8 decoding of bad bytes against java.lang.String in the oracle's JVM."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accelerator.formats import java_utf8
from accelerator.testing.flink_oracle import java

_PIECES = [b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xe0\x80\x80", b"\xe0\xa0", b"\xf0\x90\x80", b"\xf0\x80\x80\x80",
           b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xc0\xaf", b"\xc1\x80", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98",
           b"\x80", b"\xbf", b"\xfe", b"\xff", b"a", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80"]


def java_text(data: bytes) -> str:
    j = java()
    utf8 = j.jpype.JClass("java.nio.charset.StandardCharsets").UTF_8
    s = j.jpype.JClass("java.lang.String")(j.jpype.JArray(j.jpype.JByte)(data), utf8)
    return bytes(s.getBytes(utf8)).decode("utf-8")


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.one_of(st.binary(max_size=12), st.lists(st.sampled_from(_PIECES), max_size=6).map(b"".join)))
def test_bad_bytes_become_what_java_makes_of_them(data):
    assert java_utf8.decode(data) == java_text(data)
