package org.flinkaccelerator.runtime.splits;

import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceSplit;

/** A source standing for its delegate; Flink 1.20 sources declare no generalized watermarks. */
abstract class WatermarkDeclaringSource<T, SplitT extends SourceSplit, EnumChkT>
        implements Source<T, SplitT, EnumChkT> {
    private static final long serialVersionUID = 1L;

    abstract Source<T, SplitT, EnumChkT> delegate();
}
