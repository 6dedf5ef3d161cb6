import pytest

from accelerator.testing import sql


def test_substitutes_every_placeholder_including_namespaced_ones():
    script = "'${bootstrap}' '${topic:bids}' '${bootstrap}'"
    assert sql.render(script, {"bootstrap": "127.0.0.1:9092", "topic:bids": "bids-7"}) == \
        "'127.0.0.1:9092' 'bids-7' '127.0.0.1:9092'"


def test_missing_value_is_an_error_naming_the_placeholder():
    with pytest.raises(KeyError, match=r"\$\{topic:out\}"):
        sql.render("${bootstrap} ${topic:out}", {"bootstrap": "x"})


def test_text_that_is_not_a_placeholder_is_left_alone():
    script = "SELECT '$' || '{x' , '${'"
    assert sql.render(script, {}) == script


def test_placeholders_are_listed_once_in_order():
    assert sql.placeholders("${b} ${a} ${b} ${topic:x}") == ["b", "a", "topic:x"]
