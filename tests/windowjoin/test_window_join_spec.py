"""What the window join stage refuses when it opens: a SEMI or ANTI join whose output is not the
left input's row. The stage emits a SEMI or ANTI join's left rows as they are held (`fire`), so a
descriptor whose output differs from them would answer rows of the wrong shape; the regular join's
stage refuses the same (tests/join/test_join_semi_anti.py)."""

from __future__ import annotations

import pytest

from accelerator.sidecar.stages import DescriptorError
from accelerator.windowjoin.stage import WindowJoinStage

LEFT = [{"name": "k", "type": "VARCHAR(2147483647)"}, {"name": "a", "type": "BIGINT"}]
RIGHT = [{"name": "k0", "type": "VARCHAR(2147483647)"}, {"name": "b", "type": "BIGINT"}]
TRANSPORT = [{"name": "$key", "type": "VARBINARY(2147483647) NOT NULL"}, {"name": "$key_group", "type": "INT NOT NULL"},
             {"name": "$side", "type": "TINYINT NOT NULL"}, {"name": "$window_end", "type": "BIGINT NOT NULL"},
             {"name": "$trigger", "type": "BIGINT NOT NULL"}]


def descriptor(join_type: str, output: list[dict]) -> dict:
    return {"protocol": 1, "kind": "window_join", "name": "wj", "join_type": join_type, "left_arity": len(LEFT),
            "keys": [{"left": LEFT[0], "right": RIGHT[0], "left_index": 0, "right_index": 0, "filter_nulls": True}],
            "input": {"fields": TRANSPORT + LEFT + RIGHT}, "joined": {"fields": LEFT + RIGHT},
            "output": {"fields": output}, "state": {"format": 1, "fingerprint": "ab" * 32}}


@pytest.mark.parametrize("join_type", ["SEMI", "ANTI"])
def test_a_semi_or_anti_window_join_opens_with_the_left_row_as_its_output(join_type):
    stage = WindowJoinStage(descriptor(join_type, LEFT))
    assert stage.spec.output_schema.names == ["k", "a"]


@pytest.mark.parametrize("join_type", ["SEMI", "ANTI"])
@pytest.mark.parametrize("output", [
    LEFT + RIGHT,  # the joined row
    LEFT[:1],  # fewer fields
    [LEFT[0], {"name": "a", "type": "INT"}],  # another type
    [LEFT[0], {"name": "a", "type": "BIGINT NOT NULL"}],  # another nullability
    [LEFT[0], {"name": "amount", "type": "BIGINT"}],  # another name
], ids=["joined", "fewer", "type", "nullability", "name"])
def test_a_semi_or_anti_window_join_whose_output_is_not_the_left_row_is_refused(join_type, output):
    with pytest.raises(DescriptorError, match=rf"^stage 'wj': a {join_type} join's output fields must be the left"
                                              r" input's, the joined row's first 2$"):
        WindowJoinStage(descriptor(join_type, output))
