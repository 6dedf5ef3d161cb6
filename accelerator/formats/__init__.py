"""Kafka message formats decoded to Arrow and encoded back exactly as Flink's formats do.

Each format says which row types and options it reproduces exactly (`supported`); anything else
stays on stock Flink.
"""


class FormatError(ValueError):
    """A message could not be decoded the way Flink would have.

    `row` is the index of the offending message within the batch; the JVM adds where it came from
    (topic, partition, offset).
    """

    def __init__(self, row: int, reason: str, remedy: str = ""):
        self.row = row
        self.reason = reason
        self.remedy = remedy
        super().__init__(f"row {row}: {reason}" + (f". {remedy}" if remedy else ""))


class EncodeError(ValueError):
    """A result row cannot be encoded the way Flink would have (Flink's writer fails on it too).

    `result_row` counts the rows the query kept in this batch; unlike `FormatError.row` it names
    no Kafka message, so the JVM adds no record coordinates to it.
    """

    def __init__(self, result_row: int, reason: str, remedy: str = ""):
        self.result_row = result_row
        self.reason = reason
        self.remedy = remedy
        super().__init__(f"result row {result_row} of this batch (counting only rows the query keeps): {reason}"
                         + (f". {remedy}" if remedy else ""))
