"""The stage behind a Kafka sink fed by stock Flink operators (kind "encode"): the input batch is
their rows, one column per field in the Arrow layout of its Flink type (`types.to_arrow`, which
the shim's RowData writer fills), a string as the Java string Flink's json and csv serializers
write (a lone surrogate, in a column only the json encoder reads, in its three-byte form, which
the encoder escapes as Flink's serializer does); the stage runs the plan of the Calcs it took over
(none: the rows as they are) and encodes the result as the sink's messages, as a segment stage does."""

from __future__ import annotations

import pyarrow as pa

from accelerator.plans import udfs
from accelerator.plans.stage import StagePlan
from accelerator.sidecar import segment_stage  # the module, not its names: stages imports both
from accelerator.sidecar.stages import DescriptorError, register

KIND = "encode"


class EncodeStage:
    def __init__(self, descriptor: dict):
        self.name = descriptor.get("name")
        if descriptor.get("decode") is not None or not descriptor.get("encode"):
            raise DescriptorError(f"stage {self.name!r}: an encode stage has an encode spec and no decode spec")
        self._input_names = [f["name"] for f in descriptor["input"]["fields"]]
        self._plan = StagePlan(descriptor)
        self._encoder = segment_stage.MessageEncoder(self.name, descriptor)

    @property
    def input_names(self) -> list[str]:
        """The stage's input fields: the columns of the rows it encodes, in order."""
        return list(self._input_names)

    @property
    def schema(self) -> pa.Schema:
        """The answer's columns: the value bytes, the key bytes when the sink writes keys, the written metadata."""
        return self._encoder.schema

    def process(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        if batch.schema.names != self._input_names:
            raise ValueError(f"stage {self.name!r}: batch columns {batch.schema.names} are not the stage's"
                             f" input fields {self._input_names}")
        # A lone surrogate reaches the sidecar only in a column no function reads, bound for the
        # json encoder (the shim's LoneSurrogateColumns), so REGEXP_EXTRACT's '?' is a '?'.
        udfs.BATCH.lone_surrogates_possible = False
        return self._encoder.encode(self._plan.execute(batch))


register(KIND, EncodeStage)
