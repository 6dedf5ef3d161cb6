package org.flinkaccelerator.runtime.splits;

import java.util.Set;
import org.apache.flink.api.common.watermark.WatermarkDeclaration;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceSplit;

/** A source standing for its delegate, which also declares the delegate's Flink 2 generalized watermarks. */
abstract class WatermarkDeclaringSource<T, SplitT extends SourceSplit, EnumChkT>
        implements Source<T, SplitT, EnumChkT> {
    private static final long serialVersionUID = 1L;

    abstract Source<T, SplitT, EnumChkT> delegate();

    @Override
    public Set<? extends WatermarkDeclaration> declareWatermarks() {
        return delegate().declareWatermarks();
    }
}
