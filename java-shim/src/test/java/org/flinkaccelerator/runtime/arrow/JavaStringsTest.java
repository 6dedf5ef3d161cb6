package org.flinkaccelerator.runtime.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.apache.flink.table.data.StringData;
import org.junit.jupiter.api.Test;

/**
 * The bytes an encode stage hands the sidecar for a string are those of the Java string Flink's
 * json and csv serializers write ({@code StringData.toString()}, Flink's own decoding is the
 * oracle), for strings Flink stored as bytes and strings it holds as Java strings alike; a Java
 * string with a lone surrogate, which UTF-8 cannot carry, is refused, or kept in its three-byte
 * form (Java's own modified UTF-8 of that one char is the oracle for the form).
 */
class JavaStringsTest {
    /** Bytes that are mostly UTF-8 text with '?', and every kind of malformed sequence now and then. */
    private static byte[] randomBytes(Random random) {
        byte[] bytes = new byte[random.nextInt(12)];
        for (int i = 0; i < bytes.length; i++) {
            switch (random.nextInt(6)) {
                case 0 -> bytes[i] = '?';
                case 1, 2 -> bytes[i] = (byte) ('a' + random.nextInt(26));
                case 3 -> bytes[i] = (byte) (0x80 + random.nextInt(0x40)); // continuation byte
                case 4 -> bytes[i] = (byte) (0xC0 + random.nextInt(0x40)); // lead byte, some never valid
                default -> bytes[i] = (byte) random.nextInt(256);
            }
        }
        return bytes;
    }

    /** Strings of letters, '?', BMP characters, surrogate pairs, and lone surrogates now and then. */
    private static String randomString(Random random) {
        StringBuilder out = new StringBuilder();
        int length = random.nextInt(8);
        for (int i = 0; i < length; i++) {
            switch (random.nextInt(6)) {
                case 0 -> out.append('?');
                case 1 -> out.append((char) ('a' + random.nextInt(26)));
                case 2 -> out.append((char) (0x80 + random.nextInt(0xD000)));
                case 3 -> out.appendCodePoint(0x10000 + random.nextInt(0x100000));
                case 4 -> out.append((char) (0xD800 + random.nextInt(0x800))); // a lone surrogate, unless paired by chance
                default -> out.append('\uFFFD');
            }
        }
        return out.toString();
    }

    private static boolean hasLoneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /** UTF-8 of each code point, a lone surrogate as {@code DataOutputStream.writeUTF} writes it. */
    private static byte[] generalizedUtf8(String java) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        java.codePoints().forEach(code -> {
            String one = new String(Character.toChars(code));
            if (code >= Character.MIN_SURROGATE && code <= Character.MAX_SURROGATE) { // a lone one
                ByteArrayOutputStream modified = new ByteArrayOutputStream();
                try {
                    new DataOutputStream(modified).writeUTF(one);
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
                byte[] written = modified.toByteArray();
                out.writeBytes(Arrays.copyOfRange(written, 2, written.length)); // after the length
            } else {
                out.writeBytes(one.getBytes(StandardCharsets.UTF_8));
            }
        });
        return out.toByteArray();
    }

    @Test
    void storedBytesGoAsTheJavaStringFlinkDecodesFromThem() {
        Random random = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes = randomBytes(random);
            StringData stored = StringData.fromBytes(bytes);
            String java = StringData.fromBytes(bytes).toString();
            if (hasLoneSurrogate(java)) { // Flink's decoder kept an encoded surrogate
                assertThrows(IllegalArgumentException.class, () -> JavaStrings.utf8(stored, LoneSurrogates.REFUSED));
                assertArrayEquals(generalizedUtf8(java), JavaStrings.utf8(stored, LoneSurrogates.KEPT),
                        "bytes " + HexFormat.of().formatHex(bytes));
            } else {
                for (LoneSurrogates mode : LoneSurrogates.values()) {
                    assertArrayEquals(java.getBytes(StandardCharsets.UTF_8), JavaStrings.utf8(stored, mode),
                            "bytes " + HexFormat.of().formatHex(bytes));
                }
            }
        }
    }

    @Test
    void javaStringsGoAsTheirUtf8AndALoneSurrogateIsRefusedOrKept() {
        Random random = new Random(7);
        int refused = 0;
        for (int i = 0; i < 20_000; i++) {
            String java = randomString(random);
            StringData held = StringData.fromString(java);
            if (hasLoneSurrogate(java)) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> JavaStrings.utf8(held, LoneSurrogates.REFUSED));
                assertTrue(e.getMessage().contains("lone UTF-16 surrogate"), e.getMessage());
                assertArrayEquals(generalizedUtf8(java), JavaStrings.utf8(held, LoneSurrogates.KEPT), java);
                refused++;
            } else {
                for (LoneSurrogates mode : LoneSurrogates.values()) {
                    assertArrayEquals(java.getBytes(StandardCharsets.UTF_8), JavaStrings.utf8(held, mode), java);
                }
            }
        }
        assertTrue(refused > 1000, "lone surrogates tried: " + refused);
    }

    @Test
    void aJavaStringWhoseBytesFlinkAlreadyMaterializedIsStillChecked() {
        StringData held = StringData.fromString("a\uD800b");
        held.toBytes(); // Flink stored its encoding of the Java string beside it
        assertThrows(IllegalArgumentException.class, () -> JavaStrings.utf8(held, LoneSurrogates.REFUSED));
        assertArrayEquals(new byte[] {'a', (byte) 0xED, (byte) 0xA0, (byte) 0x80, 'b'},
                JavaStrings.utf8(held, LoneSurrogates.KEPT));
        StringData question = StringData.fromString("what?");
        question.toBytes();
        assertArrayEquals("what?".getBytes(StandardCharsets.UTF_8), JavaStrings.utf8(question, LoneSurrogates.REFUSED));
    }
}
