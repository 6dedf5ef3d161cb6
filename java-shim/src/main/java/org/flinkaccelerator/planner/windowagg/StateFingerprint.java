package org.flinkaccelerator.planner.windowagg;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flinkaccelerator.stage.JsonText;

/**
 * The SHA-256 of what decides whether saved window state fits a query: the phase, the keys (names
 * and types), the window and each aggregate with its argument and accumulator type. Output column
 * names and anything outside the aggregate do not count, so a restore into the same aggregate
 * works, and one into a changed aggregate is refused instead of misreading the accumulators.
 */
public final class StateFingerprint {
    private StateFingerprint() {}

    static String of(String phase, List<Map<String, Object>> keys, Map<String, Object> window, List<AggregateSpec> aggregates) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("phase", phase);
        state.put("keys", keys);
        state.put("window", window);
        state.put("aggregates", aggregates.stream().map(AggregateSpec::tree).toList());
        return sha256(state);
    }

    /** The SHA-256 (64 hex digits) of {@code state} as pretty JSON: the fingerprint of any stateful stage. */
    public static String sha256(Map<String, Object> state) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(JsonText.pretty(state).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }
}
