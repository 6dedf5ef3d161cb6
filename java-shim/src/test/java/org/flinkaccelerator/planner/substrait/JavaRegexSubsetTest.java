package org.flinkaccelerator.planner.substrait;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Which Java patterns the sidecar may run, their RE2 spelling, and why the others stay on stock Flink. */
class JavaRegexSubsetTest {
    @Test
    void nexmarkQ21TranslatesWithNamedGroupsThatBothAlwaysTakePart() {
        JavaRegexSubset.Translation t = JavaRegexSubset.translate("(&|^)channel_id=([^&]*)");
        assertEquals("(?P<g0>(?P<g1>\\x{26}|^)channel_id\\x{3D}(?P<g2>[^\\x{26}]*))", t.re2());
        assertEquals(2, t.groupCount());
        assertArrayEquals(new boolean[] {true, true, true}, t.alwaysParticipates());  // (&|^) matches '' at the start
    }

    @Test
    void javaAsciiPerlClassesBecomeExplicitClasses() {
        assertEquals("(?P<g0>[0-9][^0-9A-Za-z_][\\x{09}\\x{0A}\\x{0B}\\x{0C}\\x{0D}\\x{20}][a0-9])",
                JavaRegexSubset.translate("\\d\\W\\s[a\\d]").re2());
    }

    @Test
    void groupsInsideAlternationsMayBeAbsent() {
        JavaRegexSubset.Translation t = JavaRegexSubset.translate("(a)((d)|e)(?:(f)g|h)(i{2}|j(k))");
        assertArrayEquals(new boolean[] {true, true, true, false, false, true, false}, t.alwaysParticipates());
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "(\\d)(\\d)", "([a-z]+)", "^a|b", "x{2}y{1,3}z{0,}", "[\\-\\]\\[\\^]", "\\.\\$\\(\\)",
            "a b_c", "\\t\\n\\r\\f", "(?:ab)c+", "[^&=]*", "\\D\\S\\w", "(((a)))", "[A-Za-z0-9_]"})
    void acceptedPatternsAreValidJava(String pattern) {
        JavaRegexSubset.Translation t = JavaRegexSubset.translate(pattern);
        assertEquals(Pattern.compile(pattern).matcher("").groupCount(), t.groupCount());
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "a.b;                '.' (Java's excludes more line terminators than RE2's) at position 1",
            "ab$;                '$' (Java's also matches before a final line terminator) at position 2",
            "a*?;                a lazy or possessive quantifier at position 2",
            "a++;                a lazy or possessive quantifier at position 2",
            "(a)\\1;             the escape '\\1'",
            "(?=a);              a group with flags, lookaround or a name '(?'",
            "(?i)a;              a group with flags, lookaround or a name '(?'",
            "(?<n>a);            a group with flags, lookaround or a name '(?'",
            "\\p{L};             the escape '\\p'",
            "\\bx;               the escape '\\b'",
            "a\\?;               the character '?'",
            "[!-@];              a class range containing '?'",
            "[a[b]];             an unescaped '[' inside a class",
            "[a&&b];             a class intersection '&&'",
            "[z-a];              a class range z-a out of order",
            "(a*)*;              a quantifier on a group (Java's matcher may recurse per repetition",
            "(a|b)+;             a quantifier on a group (Java's matcher may recurse per repetition",
            "^*;                 a quantifier on a part that can match the empty string",
            "a{2,1};             a repetition {2,1} with its maximum below its minimum",
            "a{600}b{500};       repetition counts above 1000 in all",
            "a{x};               a '{' that is not a repetition",
            "é;                  the character U+00E9",
            "(a;                 an unclosed '('",
            "a);                 an unmatched ')'",
            "[];                 an empty class or one starting with ']'",
            "*a;                 a quantifier '*' with nothing to repeat"})
    void refusedPatternsSayWhy(String pattern, String reason) {
        NotReproducible e = assertThrows(NotReproducible.class, () -> JavaRegexSubset.translate(pattern));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
        assertTrue(e.getMessage().startsWith("the regular expression '" + pattern + "' has "), e.getMessage());
    }
}
