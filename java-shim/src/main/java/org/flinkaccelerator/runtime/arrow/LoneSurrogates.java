package org.flinkaccelerator.runtime.arrow;

/**
 * What a string writer does with a Java string holding a lone UTF-16 surrogate, which UTF-8
 * cannot hold. Flink's json serializer writes such a surrogate as a {@code \\uXXXX} escape.
 */
public enum LoneSurrogates {
    /** Fail the row: the column reaches an expression of the sidecar, which reads UTF-8 only. */
    REFUSED,
    /**
     * Write the surrogate as its three-byte form (generalized UTF-8): the column only travels, as
     * it is, to the sidecar's json encoder, which escapes that form as Jackson escapes the surrogate.
     */
    KEPT
}
