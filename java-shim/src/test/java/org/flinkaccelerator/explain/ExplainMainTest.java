package org.flinkaccelerator.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How explain splits a script: as the SQL client does, statement sets kept whole, with line numbers. */
class ExplainMainTest {
    @Test
    void splitsAtLineEndSemicolonsSkippingCommentsAndKeepsStatementSetsWhole() {
        String script = "-- a comment;\n"
                + "SET 'a' = 'b';\n"
                + "\n"
                + "CREATE TABLE t (\n  x INT) WITH ('k' = 'v;');\n"
                + "EXECUTE STATEMENT SET BEGIN\n"
                + "INSERT INTO u SELECT x FROM t;\n"
                + "INSERT INTO w SELECT x FROM t;\n"
                + "END;\n"
                + "INSERT INTO u SELECT 1";
        List<ExplainMain.Statement> statements = ExplainMain.statements(script);
        assertEquals(List.of(
                new ExplainMain.Statement(2, "SET 'a' = 'b'"),
                new ExplainMain.Statement(4, "CREATE TABLE t (\n  x INT) WITH ('k' = 'v;')"),
                new ExplainMain.Statement(6, "EXECUTE STATEMENT SET BEGIN\nINSERT INTO u SELECT x FROM t;\n"
                        + "INSERT INTO w SELECT x FROM t;\nEND"),
                new ExplainMain.Statement(10, "INSERT INTO u SELECT 1")), statements);
    }

    @Test
    void messagesJoinTheCausesOnceEach() {
        RuntimeException inner = new IllegalArgumentException("column x not found");
        RuntimeException outer = new RuntimeException("SQL validation failed. column x not found", inner);
        assertEquals("SQL validation failed. column x not found", ExplainMain.messages(outer));
        assertEquals("outer\nCaused by: inner", ExplainMain.messages(new RuntimeException("outer",
                new RuntimeException("inner"))));
    }
}
