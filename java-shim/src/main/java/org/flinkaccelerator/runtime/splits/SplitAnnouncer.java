package org.flinkaccelerator.runtime.splits;

import java.io.Serializable;

/**
 * The marker records a {@link SplitAnnouncingSource} emits, in order with the records, when a split
 * is added to its reader and when the reader releases the split's output: the events Flink's
 * SourceOperator creates and drops a split's watermark output on, which an operator chained after
 * the source cannot see otherwise.
 *
 * @param <T> the source's record type
 */
public interface SplitAnnouncer<T> extends Serializable {
    /** The record announcing that split {@code splitId} was added; it precedes all its records. */
    T added(String splitId);

    /** The record announcing that the output of split {@code splitId} was released; it follows all its records. */
    T released(String splitId);
}
