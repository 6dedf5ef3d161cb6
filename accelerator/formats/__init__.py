"""Kafka message formats decoded to Arrow and encoded back exactly as Flink's formats do.

Each format says which row types and options it reproduces exactly (`supported`); anything else
stays on stock Flink.
"""


class FormatError(ValueError):
    """A message could not be decoded (or a row encoded) the way Flink would have.

    `row` is the index of the offending message or row within the batch; the caller adds where it
    came from (topic, partition, offset).
    """

    def __init__(self, row: int, reason: str, remedy: str = ""):
        self.row = row
        self.reason = reason
        self.remedy = remedy
        super().__init__(f"row {row}: {reason}" + (f". {remedy}" if remedy else ""))
