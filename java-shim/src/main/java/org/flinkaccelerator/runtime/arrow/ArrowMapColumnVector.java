package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.complex.MapVector;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.columnar.ColumnarMapData;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.MapColumnVector;

/** MAP values from an Arrow map vector: each map is a window on the key and value columns, not a copy. */
public final class ArrowMapColumnVector implements MapColumnVector {
    private final MapVector vector;
    private final ColumnVector keys;
    private final ColumnVector values;

    /** {@code keys} and {@code values} read the two children of the map's entries struct. */
    public ArrowMapColumnVector(MapVector vector, ColumnVector keys, ColumnVector values) {
        this.vector = vector;
        this.keys = keys;
        this.values = values;
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public MapData getMap(int i) {
        int start = vector.getElementStartIndex(i);
        return new ColumnarMapData(keys, values, start, vector.getElementEndIndex(i) - start);
    }
}
