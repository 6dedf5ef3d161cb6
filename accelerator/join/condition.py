"""A regular join's non-equi condition, evaluated over all of a batch's candidate joined rows at once.

Stock Flink 2.2.1's StreamingJoinOperator walks the other side's rows of the input row's key and
asks `JoinConditionWithNullFilters.apply(left row, right row)` of each (the input row on its own
side of the pair): the NULL key filter, then the generated condition; a pair is emitted only when
the condition is TRUE, FALSE and NULL emit nothing, and the pairs it keeps keep their order. The
row itself is stored on its side whatever the condition says, so the state is unaffected.

The descriptor's `condition` section (the planner's JoinCondition) is a Substrait plan, exported
by the same expression registry as a Calc's condition, that reads the joined rows (the left
input's fields, then the right input's) as the table `decoded` and answers one BOOLEAN column.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from accelerator.plans.stage import StagePlan


class JoinCondition:
    """Opened once per stage (DataFusion refuses a plan it cannot run here, not at the first batch)."""

    def __init__(self, name: str | None, section: dict, joined: pa.Schema):
        column = section["column"]
        self._plan = StagePlan.of(f"{name}/condition", joined, pa.schema([pa.field(column, pa.bool_())]),
                                  section["plan"])

    def holds(self, joined: pa.RecordBatch) -> np.ndarray:
        """Per joined row, whether stock emits it: the condition is TRUE (a NULL keeps no pair)."""
        if joined.num_rows == 0:
            return np.zeros(0, dtype=bool)
        result = self._plan.execute(joined).column(0)
        return pc.fill_null(result, False).to_numpy(zero_copy_only=False).astype(bool)


def open_condition(name: str | None, section: dict | None, joined: pa.Schema) -> JoinCondition | None:
    """The condition of a join whose descriptor has a `condition` section, else None (an equi-join)."""
    return None if section is None else JoinCondition(name, section, joined)
