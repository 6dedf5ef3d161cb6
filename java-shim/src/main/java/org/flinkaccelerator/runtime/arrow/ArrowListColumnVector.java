package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.complex.ListVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.columnar.vector.ArrayColumnVector;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * ARRAY values from an Arrow list vector, each as the {@link GenericArrayData} every stock format's
 * decoder makes: Flink's serializer copies that kind element by element and any other kind through
 * its binary form, whose strings lose their Java text (see {@link ArrowBytesColumnVector#getString}).
 */
public final class ArrowListColumnVector implements ArrayColumnVector {
    private final ListVector vector;
    private final ColumnVector elements;
    private final ArrayData.ElementGetter element;

    /** {@code elements} reads the list's data vector, whose values are of {@code elementType}. */
    public ArrowListColumnVector(ListVector vector, ColumnVector elements, LogicalType elementType) {
        this.vector = vector;
        this.elements = elements;
        this.element = ArrayData.createElementGetter(elementType);
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public ArrayData getArray(int i) {
        int start = vector.getElementStartIndex(i);
        return new GenericArrayData(ArrowArrayData.values(elements, element, start, vector.getElementEndIndex(i) - start));
    }
}
