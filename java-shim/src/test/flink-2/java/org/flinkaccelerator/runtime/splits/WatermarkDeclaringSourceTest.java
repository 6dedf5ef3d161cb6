package org.flinkaccelerator.runtime.splits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.apache.flink.api.common.watermark.WatermarkDeclaration;
import org.apache.flink.api.common.watermark.WatermarkDeclarations;
import org.flinkaccelerator.runtime.splits.SplitAnnouncingReaderTest.Signs;
import org.junit.jupiter.api.Test;

/** Flink 2's generalized watermarks a source declares are its delegate's. */
class WatermarkDeclaringSourceTest {
    static final WatermarkDeclaration WATERMARKS = WatermarkDeclarations.newBuilder("w").typeLong().build();

    static final class DeclaringSource extends SplitAnnouncingSourceTest.FakeSource {
        @Override
        public Set<? extends WatermarkDeclaration> declareWatermarks() {
            return Set.of(WATERMARKS);
        }
    }

    @Test
    void declaresTheDelegatesWatermarks() {
        assertEquals(Set.of(WATERMARKS), SplitAnnouncingSource.of(new DeclaringSource(), new Signs()).declareWatermarks());
        assertEquals(SplitAnnouncingSourceTest.KAFKA.declareWatermarks(),
                SplitAnnouncingSource.of(SplitAnnouncingSourceTest.KAFKA, new Signs()).declareWatermarks());
    }
}
