package org.flinkaccelerator.sidecar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class StageFailedExceptionTest {

    @Test
    void replyWithARowNamesItAndKeepsEveryField() {
        StageFailedException e = StageFailedException.fromReply("{\"call\": \"process\", \"stage\": 2,"
                + " \"stage_name\": \"q2-calc-5\", \"sequence\": 41, \"error\": \"FormatError\","
                + " \"reason\": \"row 17: not valid JSON\", \"row\": 17,"
                + " \"traceback\": [\"sidecar/control.py:64 in process\", \"formats/json.py:80 in decode\"]}");
        assertEquals("Accelerated stage 'q2-calc-5' (id 2) failed in process of batch 41 at row 17 of the batch:"
                + " FormatError: row 17: not valid JSON [Python, innermost last: sidecar/control.py:64 in process"
                + " > formats/json.py:80 in decode]", e.getMessage());
        assertEquals(OptionalInt.of(17), e.row());
        assertEquals("process", e.call());
        assertEquals("q2-calc-5", e.stageName());
        assertEquals("FormatError", e.pythonError());
        assertEquals("row 17: not valid JSON", e.reason());
        assertEquals(List.of("sidecar/control.py:64 in process", "formats/json.py:80 in decode"), e.pythonTraceback());
    }

    @Test
    void unreadableReplyStillSaysWhatArrived() {
        StageFailedException e = StageFailedException.fromReply("not json");
        assertTrue(e.getMessage().endsWith("without a readable reason: not json"), e.getMessage());
        assertTrue(e.row().isEmpty());
    }
}
