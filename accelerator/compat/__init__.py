"""The compatibility suite: the same SQL on stock and on accelerated Flink, compared at Kafka."""
