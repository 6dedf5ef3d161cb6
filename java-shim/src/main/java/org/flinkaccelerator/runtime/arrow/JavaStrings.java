package org.flinkaccelerator.runtime.arrow;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * The UTF-8 bytes a Flink string goes to the sidecar as: those of its Java string
 * ({@code StringData.toString()}), which Flink's json and csv serializers write. Most strings
 * take the fast path, their stored UTF-8 as it is. Two kinds do not: stored bytes that are not
 * well-formed UTF-8 (a cast from BYTES), whose Java string holds U+FFFD where Java's decoder put
 * it; and a Java string with a lone UTF-16 surrogate, which UTF-8 cannot hold (Flink stores '?'
 * for it, but its json serializer writes the surrogate itself): refused, or written in its
 * three-byte form ({@link LoneSurrogates}).
 */
final class JavaStrings {
    private JavaStrings() {}

    static byte[] utf8(StringData value, LoneSurrogates loneSurrogates) {
        // Bytes Flink encoded from a Java string hold '?' where that string held a lone surrogate.
        boolean encoded = value instanceof BinaryStringData binary && binary.getJavaObject() != null;
        byte[] stored = value.toBytes();
        if (isWellFormed(stored, encoded)) {
            return stored;
        }
        String java = value.toString();
        for (int i = 0; i < java.length(); i++) {
            char c = java.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < java.length() && Character.isLowSurrogate(java.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                if (loneSurrogates == LoneSurrogates.KEPT) {
                    return generalizedUtf8(java);
                }
                throw new IllegalArgumentException(String.format("the string holds a lone UTF-16 surrogate (\\u%04X at"
                        + " char %d), which Flink's json and csv serializers write as the Java string holds it and"
                        + " the accelerator's UTF-8 cannot", (int) c, i));
            }
        }
        return java.getBytes(StandardCharsets.UTF_8);
    }

    /** UTF-8 of {@code java}, where a lone surrogate takes the three-byte form of its code unit. */
    static byte[] generalizedUtf8(String java) {
        byte[] out = new byte[java.length() * 3];
        int n = 0;
        for (int i = 0; i < java.length(); i++) {
            char c = java.charAt(i);
            if (c < 0x80) {
                out[n++] = (byte) c;
            } else if (c < 0x800) {
                out[n++] = (byte) (0xC0 | c >> 6);
                out[n++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < java.length()
                    && Character.isLowSurrogate(java.charAt(i + 1))) {
                int code = Character.toCodePoint(c, java.charAt(++i));
                out[n++] = (byte) (0xF0 | code >> 18);
                out[n++] = (byte) (0x80 | code >> 12 & 0x3F);
                out[n++] = (byte) (0x80 | code >> 6 & 0x3F);
                out[n++] = (byte) (0x80 | code & 0x3F);
            } else {
                out[n++] = (byte) (0xE0 | c >> 12);
                out[n++] = (byte) (0x80 | c >> 6 & 0x3F);
                out[n++] = (byte) (0x80 | c & 0x3F);
            }
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * True when {@code bytes} are well-formed UTF-8 (no overlong form, no encoded surrogate, nothing
     * above U+10FFFF), and hold no '?' when {@code noQuestionMark}.
     */
    static boolean isWellFormed(byte[] bytes, boolean noQuestionMark) {
        int i = 0;
        int n = bytes.length;
        while (i < n) {
            int b = bytes[i];
            if (b >= 0) {
                if (b == '?' && noQuestionMark) {
                    return false;
                }
                i++;
                continue;
            }
            int lead = b & 0xFF;
            int length;
            int min;
            int max = 0xBF;
            if (lead >= 0xC2 && lead <= 0xDF) {
                length = 2;
                min = 0x80;
            } else if (lead >= 0xE0 && lead <= 0xEF) {
                length = 3;
                min = lead == 0xE0 ? 0xA0 : 0x80;
                max = lead == 0xED ? 0x9F : 0xBF;
            } else if (lead >= 0xF0 && lead <= 0xF4) {
                length = 4;
                min = lead == 0xF0 ? 0x90 : 0x80;
                max = lead == 0xF4 ? 0x8F : 0xBF;
            } else {
                return false;
            }
            if (i + length > n) {
                return false;
            }
            int second = bytes[i + 1] & 0xFF;
            if (second < min || second > max) {
                return false;
            }
            for (int k = 2; k < length; k++) {
                if ((bytes[i + k] & 0xC0) != 0x80) {
                    return false;
                }
            }
            i += length;
        }
        return true;
    }
}
