"""What the join tests share: Flink's own classes in a JVM (JPype), to build binary rows as stock
does and hold them in the real `java.util.HashMap` a hashmap backend keeps per key and side."""

from __future__ import annotations

import pytest

from accelerator.testing.flink_oracle import java


@pytest.fixture(scope="module")
def flink():
    j = java()
    jc = j.jpype.JClass

    class Flink:
        jpype = j.jpype
        BinaryRowData = jc("org.apache.flink.table.data.binary.BinaryRowData")
        BinaryRowWriter = jc("org.apache.flink.table.data.writer.BinaryRowWriter")
        BinarySegmentUtils = jc("org.apache.flink.table.data.binary.BinarySegmentUtils")
        MemorySegmentFactory = jc("org.apache.flink.core.memory.MemorySegmentFactory")
        StringData = jc("org.apache.flink.table.data.StringData")
        HashMap = jc("java.util.HashMap")
        Integer = jc("java.lang.Integer")
        CollectionUtil = jc("org.apache.flink.util.CollectionUtil")
        MapSerializer = jc("org.apache.flink.api.common.typeutils.base.MapSerializer")
        IntSerializer = jc("org.apache.flink.api.common.typeutils.base.IntSerializer")
        BinaryRowDataSerializer = jc("org.apache.flink.table.runtime.typeutils.BinaryRowDataSerializer")
        DataOutputSerializer = jc("org.apache.flink.core.memory.DataOutputSerializer")
        DataInputDeserializer = jc("org.apache.flink.core.memory.DataInputDeserializer")
    return Flink
