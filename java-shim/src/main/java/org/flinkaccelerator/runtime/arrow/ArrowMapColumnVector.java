package org.flinkaccelerator.runtime.arrow;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.MapColumnVector;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * MAP values from an Arrow map vector, each as the {@link GenericMapData} every stock format's
 * decoder makes (see {@link ArrowListColumnVector} for why), iterating in the Arrow entries' order:
 * the sidecar writes a map's entries in the order stock Flink's map iterates them.
 */
public final class ArrowMapColumnVector implements MapColumnVector {
    private final MapVector vector;
    private final ColumnVector keys;
    private final ColumnVector values;
    private final ArrayData.ElementGetter key;
    private final ArrayData.ElementGetter value;

    /** {@code keys} and {@code values} read the two children of the map's entries struct. */
    public ArrowMapColumnVector(MapVector vector, ColumnVector keys, LogicalType keyType, ColumnVector values,
            LogicalType valueType) {
        this.vector = vector;
        this.keys = keys;
        this.values = values;
        this.key = ArrayData.createElementGetter(keyType);
        this.value = ArrayData.createElementGetter(valueType);
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public MapData getMap(int i) {
        int start = vector.getElementStartIndex(i);
        int size = vector.getElementEndIndex(i) - start;
        Object[] entryKeys = ArrowArrayData.values(keys, key, start, size);
        Object[] entryValues = ArrowArrayData.values(values, value, start, size);
        Map<Object, Object> map = new LinkedHashMap<>(size * 2);
        for (int e = 0; e < size; e++) {
            map.put(entryKeys[e], entryValues[e]);
        }
        return new GenericMapData(map);
    }
}
