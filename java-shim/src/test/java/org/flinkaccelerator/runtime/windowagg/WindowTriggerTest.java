package org.flinkaccelerator.runtime.windowagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.runtime.util.TimeWindowUtil;
import org.flinkaccelerator.BuildInfo;
import org.junit.jupiter.api.Test;

/**
 * The window trigger is the running release's: 2.2's epoch-aligned {@code getNextTriggerWatermark},
 * 2.3's offset-aligned {@code getNextTriggerWatermarkWithOffset}, each called in that release's own
 * {@link TimeWindowUtil} (2.3.0's loaded from its flink-table-runtime jar, which the build copies).
 */
class WindowTriggerTest {
    private static final ZoneId UTC = ZoneOffset.UTC;
    private static final String TIME_WINDOW_UTIL = TimeWindowUtil.class.getName();

    @Test
    void theRunningReleaseIsTheOneCompiledAgainstWithItsEpochAlignedTrigger() {
        WindowTrigger running = WindowTrigger.running();
        assertEquals(EnvironmentInformation.getVersion(), running.release());
        assertEquals(BuildInfo.flinkVersion(), running.release());
        assertFalse(running.offsetAligned());
    }

    @Test
    void on22And120TheTriggerIsStocksGetNextTriggerWatermarkAndIgnoresTheOffset() {
        for (String release : new String[] {"2.2.0", "2.2.1", "1.20.3"}) {
            WindowTrigger trigger = WindowTrigger.forRelease(release, TimeWindowUtil.class);
            assertFalse(trigger.offsetAligned(), release);
            assertEquals(0L, trigger.phase(3_000L));
            // window start of 12 345 at offset 0 is 10 000: the next trigger is 10 000 + 10 000 - 1
            assertEquals(19_999L, trigger.next(12_345L, 10_000L, 3_000L, UTC, false));
            ZoneId plus8 = ZoneId.of("+08:00");
            for (long progress : new long[] {Long.MIN_VALUE + 1, -1L, 0L, 9_999L, 86_400_000L * 365, Long.MAX_VALUE}) {
                assertEquals(TimeWindowUtil.getNextTriggerWatermark(progress, 3_600_000L, plus8, false),
                        trigger.next(progress, 3_600_000L, 1_800_000L, plus8, false), release + " at " + progress);
            }
        }
    }

    @Test
    void on23TheTriggerIsGetNextTriggerWatermarkWithOffsetOf23() throws Exception {
        try (URLClassLoader flink23 = new Flink23TimeWindowUtilLoader()) {
            Class<?> util23 = flink23.loadClass(TIME_WINDOW_UTIL);
            assertTrue(util23 != TimeWindowUtil.class);
            WindowTrigger trigger = WindowTrigger.forRelease("2.3.0", util23);
            assertTrue(trigger.offsetAligned());
            assertEquals(3_000L, trigger.phase(3_000L));
            // window start of 12 345 at offset 3 000 is 3 000: the next trigger is 3 000 + 10 000 - 1
            assertEquals(12_999L, trigger.next(12_345L, 10_000L, 3_000L, UTC, false));
            // at offset 0 it is 2.2's trigger
            assertEquals(19_999L, trigger.next(12_345L, 10_000L, 0L, UTC, false));
            assertEquals(Long.MAX_VALUE, trigger.next(Long.MAX_VALUE, 10_000L, 3_000L, UTC, false));
        }
    }

    @Test
    void a23TriggerOnA22RuntimeFailsNamingTheMissingMethod() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> WindowTrigger.forRelease("2.3.0", TimeWindowUtil.class));
        assertTrue(e.getMessage().startsWith("Flink 2.3.0's " + TIME_WINDOW_UTIL
                + " has no public getNextTriggerWatermarkWithOffset"), e.getMessage());
    }

    /** Loads TimeWindowUtil from Flink 2.3.0's table runtime jar, everything else from the test class path. */
    private static final class Flink23TimeWindowUtilLoader extends URLClassLoader {
        Flink23TimeWindowUtilLoader() throws IOException {
            super(new URL[] {jar().toUri().toURL()}, WindowTriggerTest.class.getClassLoader());
        }

        private static Path jar() {
            Path jar = Path.of(System.getProperty("accelerator.test.flink23-table-runtime", ""));
            assertTrue(Files.isRegularFile(jar), "Flink 2.3.0's flink-table-runtime jar (copied by the build) at " + jar);
            return jar;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(TIME_WINDOW_UTIL)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                return loaded != null ? loaded : findClass(name);
            }
        }
    }
}
