package org.flinkaccelerator.planner.substrait;

import java.util.ArrayList;
import java.util.List;

/**
 * The part of java.util.regex syntax on which Java's Matcher.find() and RE2 (pyarrow's
 * extract_regex, the sidecar's engine) give the same match and the same groups, translated to RE2
 * syntax with every capturing group named {@code gN} ({@code g0} the whole match).
 *
 * <p>Accepted: printable ASCII literals (punctuation escaped or not special), {@code \t \n \r \f},
 * classes {@code [...]} and {@code [^...]} of ASCII members and ranges, {@code \d \w \s} and their
 * negations (as Java's ASCII-only classes; RE2's {@code \s} lacks {@code \x0B}), capturing and
 * {@code (?:...)} groups, {@code |}, {@code ^} (start of input in both engines without flags) and
 * greedy {@code * + ? {n} {n,} {n,m}} on one character, literal or class. A quantifier on a group
 * is refused: Java's matcher may recurse once per repetition of a group ({@code (a|b)*}), so a long
 * input overflows its stack and fails the stock job, and empty repetitions are where backtracking and RE2's
 * leftmost-first simulation could part ways. Everything else is refused, among it {@code .} and {@code $} (Java's line terminators), lazy
 * and possessive quantifiers, back-references, lookaround, flags, named groups, Unicode classes,
 * and the character {@code ?} as a literal or class member: Flink matches a JSON string's lone
 * UTF-16 surrogate as such, the sidecar holds it as the {@code ?} Flink writes in its place.
 */
final class JavaRegexSubset {
    /** RE2 rejects larger repetition counts; their sum is held to it too, keeping RE2's program small. */
    static final int MAX_REPEAT = 1000;
    static final int MAX_PATTERN_LENGTH = 1000;
    private static final String SPECIAL = "\\^$.|?*+()[]{}";
    private static final String DIGIT = "0-9";
    private static final String WORD = "0-9A-Za-z_";
    private static final String SPACE = "\\x{09}\\x{0A}\\x{0B}\\x{0C}\\x{0D}\\x{20}";

    /** The pattern in RE2 syntax, its number of capturing groups, and which always take part in a match. */
    record Translation(String re2, int groupCount, boolean[] alwaysParticipates) {
        /** Whether group {@code index} holds text whenever the pattern matches (Java gives NULL otherwise, RE2 ''). */
        boolean participates(int index) {
            return index == 0 || alwaysParticipates[index];
        }
    }

    private final String pattern;
    private int pos;
    private int repeats;
    private final StringBuilder out = new StringBuilder();
    private final List<Boolean> certain = new ArrayList<>(List.of(true));

    private JavaRegexSubset(String pattern) {
        this.pattern = pattern;
    }

    /** The RE2 translation of a Java pattern, or {@link NotReproducible} saying which construct is outside the subset. */
    static Translation translate(String pattern) {
        if (pattern.length() > MAX_PATTERN_LENGTH) {
            throw refused(pattern, "more than " + MAX_PATTERN_LENGTH + " characters");
        }
        JavaRegexSubset parser = new JavaRegexSubset(pattern);
        parser.out.append("(?P<g0>");
        parser.alternation();
        if (parser.pos < pattern.length()) {
            throw parser.refuse("an unmatched ')'");
        }
        parser.out.append(')');
        boolean[] always = new boolean[parser.certain.size()];
        for (int i = 0; i < always.length; i++) {
            always[i] = parser.certain.get(i);
        }
        return new Translation(parser.out.toString(), always.length - 1, always);
    }

    /** A parsed part: whether it may match the empty string, and whether it is a group (no quantifier then). */
    private record Part(boolean nullable, boolean group) {}

    private Part alternation() {
        int firstGroup = certain.size();
        boolean nullable = sequence();
        boolean branches = false;
        while (pos < pattern.length() && pattern.charAt(pos) == '|') {
            pos++;
            out.append('|');
            branches = true;
            nullable |= sequence();
        }
        if (branches) {
            uncertainFrom(firstGroup);
        }
        return new Part(nullable, false);
    }

    /** One branch of an alternation; whether it may match the empty string. */
    private boolean sequence() {
        boolean nullable = true;
        while (pos < pattern.length() && pattern.charAt(pos) != '|' && pattern.charAt(pos) != ')') {
            nullable &= quantified(atom());
        }
        return nullable;
    }

    private Part atom() {
        char c = pattern.charAt(pos);
        switch (c) {
            case '(': return group();
            case '[': return characterClass();
            case '\\': return escape();
            case '^':
                pos++;
                out.append('^');
                return new Part(true, false);
            case '.': throw refuse("'.' (Java's excludes more line terminators than RE2's)");
            case '$': throw refuse("'$' (Java's also matches before a final line terminator)");
            case '*': case '+': case '?': case '{':
                throw refuse("a quantifier '" + c + "' with nothing to repeat");
            default:
                literal(c, false);
                pos++;
                return new Part(false, false);
        }
    }

    private Part group() {
        pos++;
        if (pattern.startsWith("?:", pos)) {
            pos += 2;
            out.append("(?:");
        } else if (pos < pattern.length() && pattern.charAt(pos) == '?') {
            throw refuse("a group with flags, lookaround or a name '(?'");
        } else {
            out.append("(?P<g").append(certain.size()).append('>');
            certain.add(true);
        }
        Part inner = alternation();
        if (pos >= pattern.length()) {
            throw refuse("an unclosed '('");
        }
        pos++;
        out.append(')');
        return new Part(inner.nullable(), true);
    }

    /** The quantifier after an atom, if any; whether the quantified atom may match the empty string. */
    private boolean quantified(Part atom) {
        if (pos >= pattern.length()) {
            return atom.nullable();
        }
        char c = pattern.charAt(pos);
        int min;
        int max;
        int start = pos;
        if (c == '*' || c == '+' || c == '?') {
            pos++;
            min = c == '+' ? 1 : 0;
            max = c == '?' ? 1 : -1;
        } else if (c == '{') {
            int close = pattern.indexOf('}', pos);
            String body = close < 0 ? "" : pattern.substring(pos + 1, close);
            if (!body.matches("[0-9]{1,4}(,[0-9]{0,4})?")) {
                throw refuse("a '{' that is not a repetition {n}, {n,} or {n,m}");
            }
            String[] bounds = body.split(",", -1);
            min = Integer.parseInt(bounds[0]);
            max = bounds.length == 1 ? min : bounds[1].isEmpty() ? -1 : Integer.parseInt(bounds[1]);
            if (max >= 0 && max < min) {
                throw refuse("a repetition {" + body + "} with its maximum below its minimum");
            }
            pos = close + 1;
        } else {
            return atom.nullable();
        }
        if (pos < pattern.length() && (pattern.charAt(pos) == '?' || pattern.charAt(pos) == '+')) {
            throw refuse("a lazy or possessive quantifier");
        }
        if (pos < pattern.length() && "*+?{".indexOf(pattern.charAt(pos)) >= 0) {
            throw refuse("a quantifier on a quantifier");
        }
        if (atom.group()) {
            throw refuse("a quantifier on a group (Java's matcher may recurse per repetition, failing the job with a"
                    + " StackOverflowError on long input)");
        }
        if (atom.nullable()) {
            throw refuse("a quantifier on a part that can match the empty string");
        }
        repeats += Math.max(min, max);
        if (repeats > MAX_REPEAT) {
            throw refuse("repetition counts above " + MAX_REPEAT + " in all (RE2's limit)");
        }
        out.append(pattern, start, pos);
        return min == 0;
    }

    private Part escape() {
        if (pos + 1 >= pattern.length()) {
            throw refuse("a trailing backslash");
        }
        char e = pattern.charAt(pos + 1);
        String perl = perlClass(e);
        if (perl != null) {
            out.append(Character.isUpperCase(e) ? "[^" : "[").append(perl).append(']');
        } else {
            escapedLiteral(e);
        }
        pos += 2;
        return new Part(false, false);
    }

    private static String perlClass(char e) {
        switch (Character.toLowerCase(e)) {
            case 'd': return DIGIT;
            case 'w': return WORD;
            case 's': return SPACE;
            default: return null;
        }
    }

    /** {@code \X} outside or inside a class: escaped punctuation or a control escape, as a literal. */
    private void escapedLiteral(char e) {
        switch (e) {
            case 't': literal('\t', true); return;
            case 'n': literal('\n', true); return;
            case 'r': literal('\r', true); return;
            case 'f': literal('\f', true); return;
            default:
                if (e < 0x21 || e > 0x7E || Character.isLetterOrDigit(e)) {
                    throw refuse("the escape '\\" + e + "' (only \\d \\w \\s \\D \\W \\S \\t \\n \\r \\f and escaped"
                            + " ASCII punctuation are accepted)");
                }
                literal(e, true);
        }
    }

    /** One literal character, outside a class when {@code !escaped} it must not be special in Java. */
    private void literal(char c, boolean escaped) {
        if (c == '?') {
            throw refuse("the character '?' (Flink matches a lone UTF-16 surrogate where the sidecar holds"
                    + " the '?' Flink writes for it)");
        }
        boolean control = c == '\t' || c == '\n' || c == '\r' || c == '\f';
        if (!control && (c < 0x20 || c > 0x7E)) {
            throw refuse("the character U+" + String.format("%04X", (int) c) + " (only printable ASCII is accepted)");
        }
        if (!escaped && SPECIAL.indexOf(c) >= 0) {
            throw refuse("an unescaped '" + c + "'");
        }
        out.append(re2Literal(c));
    }

    /** RE2 spelling of one literal character: letters and digits as they are, the rest as an escape. */
    private static String re2Literal(char c) {
        if (Character.isLetterOrDigit(c) || c == '_') {
            return String.valueOf(c);
        }
        return String.format("\\x{%02X}", (int) c);
    }

    private Part characterClass() {
        pos++;
        StringBuilder members = new StringBuilder();
        boolean negated = pos < pattern.length() && pattern.charAt(pos) == '^';
        if (negated) {
            pos++;
        }
        boolean empty = true;
        while (true) {
            if (pos >= pattern.length()) {
                throw refuse("an unclosed '['");
            }
            char c = pattern.charAt(pos);
            if (c == ']') {
                if (empty) {
                    throw refuse("an empty class or one starting with ']'");
                }
                pos++;
                break;
            }
            empty = false;
            if (c == '\\' && pos + 1 < pattern.length() && "dws".indexOf(pattern.charAt(pos + 1)) >= 0) {
                members.append(perlClass(pattern.charAt(pos + 1)));
                pos += 2;
                continue;
            }
            char low = classMember();
            if (pos < pattern.length() && pattern.charAt(pos) == '-'
                    && pos + 1 < pattern.length() && pattern.charAt(pos + 1) != ']') {
                pos++;
                char high = classMember();
                if (high < low) {
                    throw refuse("a class range " + low + "-" + high + " out of order");
                }
                if (low <= '?' && '?' <= high) {
                    throw refuse("a class range containing '?' (Flink matches a lone UTF-16 surrogate where the"
                            + " sidecar holds the '?' Flink writes for it)");
                }
                members.append(re2Literal(low)).append('-').append(re2Literal(high));
            } else {
                members.append(re2Literal(low));
            }
        }
        out.append(negated ? "[^" : "[").append(members).append(']');
        return new Part(false, false);
    }

    /** One member character of a class; '[' (nested classes), '&&' (intersection) and bare '-' and '^' are refused. */
    private char classMember() {
        char c = pattern.charAt(pos);
        if (c == '\\') {
            if (pos + 1 >= pattern.length()) {
                throw refuse("a trailing backslash");
            }
            char e = pattern.charAt(pos + 1);
            int mark = out.length();
            escapedLiteral(e);
            out.setLength(mark);
            pos += 2;
            return switch (e) {
                case 't' -> '\t';
                case 'n' -> '\n';
                case 'r' -> '\r';
                case 'f' -> '\f';
                default -> e;
            };
        }
        if (c == '[' || c == '-' || c == '^' || c == ']') {
            throw refuse("an unescaped '" + c + "' inside a class");
        }
        if (c == '&' && pos + 1 < pattern.length() && pattern.charAt(pos + 1) == '&') {
            throw refuse("a class intersection '&&'");
        }
        int mark = out.length();
        literal(c, true);
        out.setLength(mark);
        pos++;
        return c;
    }

    private void uncertainFrom(int firstGroup) {
        for (int i = firstGroup; i < certain.size(); i++) {
            certain.set(i, false);
        }
    }

    private NotReproducible refuse(String what) {
        return refused(pattern, what + " at position " + pos);
    }

    private static NotReproducible refused(String pattern, String what) {
        return new NotReproducible("the regular expression '" + pattern + "' has " + what
                + ", outside the part of Java's syntax the accelerator matches exactly");
    }
}
