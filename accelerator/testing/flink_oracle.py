"""Flink's own JSON format, hosted in this process through JPype: the oracle our formats must match.

One JVM per Python process, started on first use with the stock distribution's `lib/*.jar`. The
serializer and deserializer are created by Flink's `JsonFormatFactory` from the same option map a
table DDL would give it, so Flink itself interprets the options.

Python value model shared with the tests (one model for every type, so results compare with `==`):
BOOLEAN bool; TINYINT..BIGINT int; FLOAT/DOUBLE float; DECIMAL decimal.Decimal; CHAR/VARCHAR str;
BINARY/VARBINARY bytes; DATE days since 1970-01-01 (int); TIME milliseconds of the day (int);
TIMESTAMP/TIMESTAMP_LTZ nanoseconds since 1970-01-01 (int); ARRAY list; MAP list of (key, value)
pairs; ROW tuple; NULL None.
"""

from __future__ import annotations

import decimal
import threading
from collections import Counter
from dataclasses import dataclass

from accelerator.testing import locations

_lock = threading.Lock()
_java = None

FORMAT_PREFIX = "json."


#: Rows and messages each format's oracle handled in this process, by format name; a full run of
#: tests/formats must push at least 10,000 through each (tests/formats/conftest.py checks).
HANDLED: Counter = Counter()


class _Java:
    """The Java classes the oracle uses, resolved once the JVM runs."""

    def __init__(self, jpype):
        j = jpype.JClass
        self.jpype = jpype
        self.ArrayList = j("java.util.ArrayList")
        self.HashMap = j("java.util.HashMap")
        self.LinkedHashMap = j("java.util.LinkedHashMap")
        self.BigDecimal = j("java.math.BigDecimal")
        self.Configuration = j("org.apache.flink.configuration.Configuration")
        self.ListCollector = j("org.apache.flink.api.common.functions.util.ListCollector")
        self.LogicalTypeParser = j("org.apache.flink.table.types.logical.utils.LogicalTypeParser")
        self.TypeConversions = j("org.apache.flink.table.types.utils.TypeConversions")
        self.InternalTypeInfo = j("org.apache.flink.table.runtime.typeutils.InternalTypeInfo")
        self.JsonFormatFactory = j("org.apache.flink.formats.json.JsonFormatFactory")
        self.AvroFormatFactory = j("org.apache.flink.formats.avro.AvroFormatFactory")
        self.ProjectableDecodingFormat = j("org.apache.flink.table.connector.format.ProjectableDecodingFormat")
        self.RawFormatFactory = j("org.apache.flink.formats.raw.RawFormatFactory")
        self.CsvFormatFactory = j("org.apache.flink.formats.csv.CsvFormatFactory")
        self.GenericRowData = j("org.apache.flink.table.data.GenericRowData")
        self.GenericArrayData = j("org.apache.flink.table.data.GenericArrayData")
        self.GenericMapData = j("org.apache.flink.table.data.GenericMapData")
        self.StringData = j("org.apache.flink.table.data.StringData")
        self.DecimalData = j("org.apache.flink.table.data.DecimalData")
        self.TimestampData = j("org.apache.flink.table.data.TimestampData")
        self.ArrayData = j("org.apache.flink.table.data.ArrayData")
        self.Double = j("java.lang.Double")
        self.Float = j("java.lang.Float")
        self.Object = j("java.lang.Object")
        self.loader = j("java.lang.Thread").currentThread().getContextClassLoader()

        @jpype.JImplements("org.apache.flink.table.connector.source.DynamicTableSource$Context")
        class SourceContext:
            @jpype.JOverride
            def createTypeInformation(self, type_):  # both Java overloads: DataType, LogicalType
                logical = type_.getLogicalType() if hasattr(type_, "getLogicalType") else type_
                return _java.InternalTypeInfo.of(logical)

            @jpype.JOverride
            def createDataStructureConverter(self, data_type):
                raise NotImplementedError("the JSON format does not convert data structures")

        self.source_context = SourceContext()


def java() -> _Java:
    """Start the JVM on first use (once per process) and return the classes the oracle needs."""
    global _java
    with _lock:
        if _java is None:
            import jpype
            import jpype.imports  # noqa: F401  (enables the Java import hooks JPype expects)

            lib = locations.require(locations.flink_home() / "lib", "Flink distribution")
            if not jpype.isJVMStarted():
                jpype.startJVM(classpath=sorted(str(p) for p in lib.glob("*.jar")),
                               convertStrings=False)
            _java = _Java(jpype)
    return _java


def logical_type(type_string: str):
    """Flink's own parse of a `LogicalType#asSerializableString()` text."""
    j = java()
    return j.LogicalTypeParser.parse(type_string, j.loader)


def serializable_string(type_string: str) -> str:
    """Parse with Flink and print back with `asSerializableString()`."""
    return str(logical_type(type_string).asSerializableString())


def _format_config(options: dict[str, str], prefix: str = FORMAT_PREFIX):
    j = java()
    config = j.HashMap()
    for key, value in options.items():
        if not key.startswith(prefix):
            raise ValueError(f"format option {key!r} must start with {prefix!r}")
        config.put(key[len(prefix):], value)
    return j.Configuration.fromMap(config)


@dataclass
class Decoded:
    """What Flink's deserializer made of one message: the rows it emitted, or its exception text."""

    rows: list | None
    error: str | None


class JsonSerializer:
    """Flink's `json` encoder for one row type and option map."""

    def __init__(self, row_type: str, options: dict[str, str]):
        j = java()
        self._type = logical_type(row_type)
        data_type = j.TypeConversions.fromLogicalToDataType(self._type)
        encoding = j.JsonFormatFactory().createEncodingFormat(None, _format_config(options))
        self._schema = encoding.createRuntimeEncoder(None, data_type)
        self._schema.open(None)

    def serialize(self, rows: list[tuple]) -> list[bytes]:
        """Bytes Flink writes for each row, in order (the schema is reused across rows, as in Flink)."""
        HANDLED["json"] += len(rows)
        return [bytes(self._schema.serialize(to_internal(self._type, row))) for row in rows]


class JsonDeserializer:
    """Flink's `json` decoder for one row type and option map, optionally with the top-level
    field projection a Kafka source pushes into the format (the decoder then produces only
    those fields, in that order)."""

    def __init__(self, row_type: str, options: dict[str, str], projection: list[str] | None = None):
        j = java()
        full = logical_type(row_type)
        data_type = j.TypeConversions.fromLogicalToDataType(full)
        decoding = j.JsonFormatFactory().createDecodingFormat(None, _format_config(options))
        names = [str(n) for n in full.getFieldNames()]
        indices = list(range(len(names))) if projection is None else [names.index(n) for n in projection]
        int_array = j.jpype.JArray(j.jpype.JInt)
        projections = j.jpype.JArray(int_array)([int_array([i]) for i in indices])
        self._schema = decoding.createRuntimeDecoder(j.source_context, data_type, projections)
        self._schema.open(None)
        self._type = self._schema.getProducedType().toRowType() if projection is not None else full

    def deserialize(self, messages: list[bytes | None]) -> list[Decoded]:
        """What Flink does with each message: the rows it emits (None for a null row) or the
        text of the exception it throws."""
        HANDLED["json"] += len(messages)
        return deserialize_each(self._schema, self._type, messages)


AVRO_PREFIX = "avro."


def _kafka_row(type_string: str):
    """The row type as Flink's Kafka connector hands it to a format: the physical row, NOT NULL."""
    return logical_type(type_string).copy(False)


def deserialize_each(schema, row_type, messages: list[bytes | None]) -> list[Decoded]:
    """What an opened Flink DeserializationSchema does with each message, in order, through its
    collector API (as Flink's Kafka source calls it): the rows it emits (None for a null row) or
    the text of the exception it throws."""
    j = java()
    out = []
    for message in messages:
        collected = j.ArrayList()
        try:
            payload = None if message is None else j.jpype.JArray(j.jpype.JByte)(message)
            schema.deserialize(payload, j.ListCollector(collected))
        except j.jpype.JException as e:
            out.append(Decoded(None, _exception_text(e)))
            continue
        out.append(Decoded([None if r is None else from_internal(row_type, r) for r in collected], None))
    return out


class FactorySerializer:
    """Flink's encoder from one format factory (RawFormatFactory, CsvFormatFactory, ...) for one row
    type and option map (full keys, e.g. 'csv.field-delimiter'), given the NOT NULL physical row as
    the Kafka sink gives it. A null result is a null message (a tombstone)."""

    factory: str = ""
    prefix: str = ""

    def __init__(self, row_type: str, options: dict[str, str]):
        j = java()
        self._type = _kafka_row(row_type)
        data_type = j.TypeConversions.fromLogicalToDataType(self._type)
        factory = getattr(j, self.factory)()
        encoding = factory.createEncodingFormat(None, _format_config(options, self.prefix))
        self._schema = encoding.createRuntimeEncoder(None, data_type)
        self._schema.open(None)

    def serialize(self, rows: list[tuple]) -> list[bytes | None]:
        HANDLED[self.prefix.rstrip(".")] += len(rows)
        out = []
        for row in rows:
            message = self._schema.serialize(to_internal(self._type, row))
            out.append(None if message is None else bytes(message))
        return out


class FactoryDeserializer:
    """Flink's decoder from one format factory, decoding the whole physical row (no projection),
    reused across messages as in a Flink source."""

    factory: str = ""
    prefix: str = ""

    def __init__(self, row_type: str, options: dict[str, str]):
        j = java()
        self._type = _kafka_row(row_type)
        data_type = j.TypeConversions.fromLogicalToDataType(self._type)
        factory = getattr(j, self.factory)()
        decoding = factory.createDecodingFormat(None, _format_config(options, self.prefix))
        if isinstance(decoding, j.ProjectableDecodingFormat):
            int_array = j.jpype.JArray(j.jpype.JInt)
            projections = j.jpype.JArray(int_array)([int_array([i]) for i in range(self._type.getFieldCount())])
            self._schema = decoding.createRuntimeDecoder(j.source_context, data_type, projections)
        else:
            self._schema = decoding.createRuntimeDecoder(j.source_context, data_type)
        self._schema.open(None)

    def deserialize(self, messages: list[bytes | None]) -> list[Decoded]:
        """What Flink does with each message, in order: the rows it emits or its exception text."""
        HANDLED[self.prefix.rstrip(".")] += len(messages)
        return deserialize_each(self._schema, self._type, messages)


class AvroSerializer(FactorySerializer):
    """Flink's `avro` encoder (AvroRowDataSerializationSchema from AvroFormatFactory)."""

    factory, prefix = "AvroFormatFactory", AVRO_PREFIX


class AvroDeserializer(FactoryDeserializer):
    """Flink's `avro` decoder (AvroRowDataDeserializationSchema from AvroFormatFactory), decoding
    the whole row, with the state Flink's carries from message to message."""

    factory, prefix = "AvroFormatFactory", AVRO_PREFIX


class RawSerializer(FactorySerializer):
    """Flink's `raw` encoder (RawFormatSerializationSchema from RawFormatFactory)."""

    factory, prefix = "RawFormatFactory", "raw."


class RawDeserializer(FactoryDeserializer):
    """Flink's `raw` decoder (RawFormatDeserializationSchema from RawFormatFactory)."""

    factory, prefix = "RawFormatFactory", "raw."


class CsvSerializer(FactorySerializer):
    """Flink's `csv` encoder (CsvRowDataSerializationSchema from CsvFormatFactory)."""

    factory, prefix = "CsvFormatFactory", "csv."


class CsvDeserializer(FactoryDeserializer):
    """Flink's `csv` decoder (CsvRowDataDeserializationSchema from CsvFormatFactory)."""

    factory, prefix = "CsvFormatFactory", "csv."


def _exception_text(e) -> str:
    """The exception and its causes, one `Class: message` per line."""
    lines = []
    t = e
    while t is not None:
        try:
            lines.append(f"{t.getClass().getName()}: {t.getMessage()}")
            t = t.getCause()
        except UnicodeDecodeError:  # a message quoting the input's invalid bytes (lone surrogates)
            lines.append("(an exception whose message Python cannot represent)")
            break
    return "\n".join(lines)


def java_double_to_string(values: list[float]) -> list[str]:
    j = java()
    return [str(j.Double.toString(v)) for v in values]


def flink_split_index(strings: list[str | None], separator: str, index: int) -> list[str | None]:
    """Flink's SPLIT_INDEX (`SqlFunctionUtils.splitIndex`, what its generated code calls) per string."""
    split = java().jpype.JClass("org.apache.flink.table.runtime.functions.SqlFunctionUtils").splitIndex
    out = []
    for s in strings:
        piece = None if s is None else split(s, separator, index)
        out.append(None if piece is None else str(piece))
    return out


def flink_date_format(values: list[tuple[int, int] | None], pattern: str) -> list[str | None]:
    """Flink's DATE_FORMAT of TIMESTAMP (millis, nanos) pairs (`DateTimeUtils.formatTimestamp(ts,
    pattern)`, what its generated code calls), per value."""
    j = java()
    format_timestamp = j.jpype.JClass("org.apache.flink.table.utils.DateTimeUtils").formatTimestamp
    return [None if v is None else str(format_timestamp(j.TimestampData.fromEpochMillis(v[0], v[1]), pattern))
            for v in values]


def java_float_to_string(values: list[float]) -> list[str]:
    j = java()
    return [str(j.Float.toString(j.jpype.JFloat(v))) for v in values]


# -- Python values -> Flink internal data ---------------------------------------------------------

def to_internal(t, value):
    """Convert one value of the shared value model to Flink's internal data for LogicalType `t`."""
    if value is None:
        return None
    j = java()
    jp = j.jpype
    root = str(t.getTypeRoot().name())
    if root == "BOOLEAN":
        return jp.JBoolean(value)
    if root == "TINYINT":
        return jp.java.lang.Byte(jp.JByte(value))
    if root == "SMALLINT":
        return jp.java.lang.Short(jp.JShort(value))
    if root in ("INTEGER", "DATE", "TIME_WITHOUT_TIME_ZONE"):
        return jp.java.lang.Integer(jp.JInt(value))
    if root == "BIGINT":
        return jp.java.lang.Long(jp.JLong(value))
    if root == "FLOAT":
        return j.Float(jp.JFloat(value))
    if root == "DOUBLE":
        return j.Double(jp.JDouble(value))
    if root == "DECIMAL":
        return j.DecimalData.fromBigDecimal(j.BigDecimal(str(value)), t.getPrecision(), t.getScale())
    if root in ("CHAR", "VARCHAR"):
        return j.StringData.fromString(_java_string(value))
    if root in ("BINARY", "VARBINARY"):
        return jp.JArray(jp.JByte)(value)
    if root in ("TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE"):
        millis, nanos = divmod(value, 1_000_000)
        return j.TimestampData.fromEpochMillis(jp.JLong(millis), jp.JInt(nanos))
    if root == "ARRAY":
        element = t.getElementType()
        return j.GenericArrayData(jp.JArray(j.Object)([to_internal(element, v) for v in value]))
    if root == "MAP":
        entries = j.LinkedHashMap()  # keeps our order, so the encoder sees entries as we list them
        for k, v in value:
            entries.put(to_internal(t.getKeyType(), k), to_internal(t.getValueType(), v))
        return j.GenericMapData(entries)
    if root == "ROW":
        fields = t.getFields()
        row = j.GenericRowData(len(fields))
        for i, v in enumerate(value):
            row.setField(i, to_internal(fields[i].getType(), v))
        return row
    raise ValueError(f"no conversion for {t}")


def _java_string(value: str):
    """The Java string of `value`; one holding a lone surrogate (which jpype's UTF-8 bridge
    refuses) is built from its UTF-16 code units."""
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        jp = java().jpype
        units = memoryview(value.encode("utf-16-le", "surrogatepass")).cast("H").tolist()
        chars = jp.JArray(jp.JChar)(len(units))
        for i, unit in enumerate(units):
            chars[i] = unit
        return jp.java.lang.String(chars)


# -- Flink internal data -> Python values ---------------------------------------------------------

def from_internal(t, value):
    if value is None:
        return None
    root = str(t.getTypeRoot().name())
    if root == "BOOLEAN":
        return bool(value)
    if root in ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "DATE", "TIME_WITHOUT_TIME_ZONE"):
        return int(value)
    if root in ("FLOAT", "DOUBLE"):
        return float(value)
    if root == "DECIMAL":
        return decimal.Decimal(str(value.toBigDecimal().toString()))
    if root in ("CHAR", "VARCHAR"):
        return _string(bytes(value.toBytes()))
    if root in ("BINARY", "VARBINARY"):
        return bytes(value)
    if root in ("TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE"):
        return int(value.getMillisecond()) * 1_000_000 + int(value.getNanoOfMillisecond())
    if root == "ARRAY":
        return _elements(t.getElementType(), value)
    if root == "MAP":
        keys = _elements(t.getKeyType(), value.keyArray())
        values = _elements(t.getValueType(), value.valueArray())
        return list(zip(keys, values))
    if root == "ROW":
        fields = t.getFields()
        return tuple(from_internal(fields[i].getType(), value.getField(i)) if not value.isNullAt(i)
                     else None for i in range(len(fields)))
    raise ValueError(f"no conversion for {t}")


def _string(utf8: bytes):
    """Flink holds strings as UTF-8 bytes; bytes that are not valid UTF-8 stay bytes so a test sees them."""
    try:
        return utf8.decode("utf-8")
    except UnicodeDecodeError:
        return utf8


def _elements(element_type, array) -> list:
    getter = java().ArrayData.createElementGetter(element_type)
    return [from_internal(element_type, getter.getElementOrNull(array, i)) for i in range(array.size())]
