"""The batch exchange: rows a rows stage hands to an accelerated keyed operator, split by the
subtask Flink's keyed shuffle would send each row to, so whole Arrow batches cross the shuffle."""
