package org.flinkaccelerator.runtime.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Where the harness tests take checkpoints in a stream of events: seeded, 1 to 150 events apart, the first at 0. */
public final class BarrierPoints {
    private BarrierPoints() {}

    /** Barrier positions (indexes before which a checkpoint is taken) in a stream of {@code events} events. */
    public static List<Integer> random(int events) {
        Random random = new Random(5);
        List<Integer> barriers = new ArrayList<>();
        for (int i = 0; i < events; i += 1 + random.nextInt(150)) {
            barriers.add(i);
        }
        return barriers;
    }
}
