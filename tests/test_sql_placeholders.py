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


def test_split_statements_respects_strings_identifiers_and_comments():
    script = """
    -- leading comment; not a statement
    CREATE TABLE t (`a;b` INT) WITH ('k' = 'v;w', 'q' = 'it''s; fine');
    /* block; comment */
    SET 'x' = 'y';;
    INSERT INTO t SELECT 1 -- trailing; comment
    """
    assert sql.split_statements(script) == [
        "-- leading comment; not a statement\n    CREATE TABLE t (`a;b` INT) WITH ('k' = 'v;w', 'q' = 'it''s; fine')",
        "/* block; comment */\n    SET 'x' = 'y'",
        "INSERT INTO t SELECT 1 -- trailing; comment",
    ]


def test_split_statements_of_nothing_is_empty():
    assert sql.split_statements("  ;\n-- only a comment\n") == []


def test_a_statement_set_block_is_one_statement():
    script = """
    CREATE TABLE t (a INT);
    EXECUTE STATEMENT SET BEGIN
    INSERT INTO t SELECT 1;
    INSERT INTO t SELECT ';';
    END;
    SET 'k' = 'v';
    """
    assert sql.split_statements(script) == [
        "CREATE TABLE t (a INT)",
        "EXECUTE STATEMENT SET BEGIN\n    INSERT INTO t SELECT 1;\nINSERT INTO t SELECT ';';\nEND",
        "SET 'k' = 'v'",
    ]


def test_an_unterminated_statement_set_is_an_error():
    with pytest.raises(ValueError, match="without END"):
        sql.split_statements("EXECUTE STATEMENT SET BEGIN INSERT INTO t SELECT 1;")
