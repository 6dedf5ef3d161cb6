package org.flinkaccelerator.planner.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/**
 * What a decoded key's descriptor tells the sidecar about a record whose json key cannot be read
 * under 'ignore-parse-errors': dropped on 1.20 (its json format hands the Kafka source no key row),
 * left to the null key row on 2.x; encoded keys and other formats say nothing.
 */
class KafkaKeyFormatTest {
    private static final RowType PHYSICAL = RowType.of(new IntType(), new VarCharType(VarCharType.MAX_LENGTH));

    private static KafkaKeyFormat key(String format) {
        return KafkaKeyFormat.of(Map.of("key.format", format, "key.fields", "f0", "key." + format
                + ".ignore-parse-errors", "true", "value.fields-include", "EXCEPT_KEY"));
    }

    private static Map<String, Object> decoded(String format, String flinkVersion) {
        return key(format).spec("key", PHYSICAL, Map.of(), flinkVersion).tree();
    }

    @Test
    void aJsonKeyOn120DropsTheRecordItCannotRead() {
        Map<String, Object> tree = decoded("json", "1.20.3");
        assertEquals(true, tree.get("unreadable_key_drops_record"), tree.toString());
        assertEquals(List.of("f0"), tree.get("fields"));
    }

    @Test
    void aJsonKeyOnFlink2LeavesTheRecordToItsNullKeyRow() {
        for (String release : List.of("2.2.0", "2.2.1", "2.3.0")) {
            assertFalse(decoded("json", release).containsKey("unreadable_key_drops_record"), release);
        }
    }

    @Test
    void encodedKeysAndCsvKeysSayNothing() {
        assertFalse(key("json").spec(null, PHYSICAL, Map.of(), "1.20.3").tree().containsKey("unreadable_key_drops_record"));
        assertFalse(decoded("csv", "1.20.3").containsKey("unreadable_key_drops_record"));
        assertTrue(decoded("csv", "1.20.3").containsKey("columns"));
    }
}
