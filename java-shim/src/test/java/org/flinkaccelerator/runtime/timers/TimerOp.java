package org.flinkaccelerator.runtime.timers;

/** A timer registration ({@code add}) or deletion of a BIGINT key and namespace, with the key's key group. */
record TimerOp(boolean add, long key, int keyGroup, long namespace, long timestamp) {

    static TimerOp of(boolean add, long key, int keyGroup, long namespace, long timestamp) {
        return new TimerOp(add, key, keyGroup, namespace, timestamp);
    }

    /** As the replay log writes it, but the closing bracket: ["add" | "delete", key, keyGroup, namespace, timestamp. */
    String json() {
        return "[\"" + (add ? "add" : "delete") + "\"," + key + "," + keyGroup + "," + namespace + "," + timestamp;
    }

    /** The timer alone, but the closing bracket: [key, keyGroup, namespace, timestamp. */
    String timerJson() {
        return "[" + key + "," + keyGroup + "," + namespace + "," + timestamp;
    }
}
