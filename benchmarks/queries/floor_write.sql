-- The floor: the same topic read and written as `raw` bytes with no processing (stock Flink).
-- What any accelerator still pays for Kafka I/O.
-- kind: floor
CREATE TABLE nexmark_raw (`value` BYTES) WITH (
  'connector' = 'kafka', 'topic' = '${source_topic}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'raw'
);
CREATE TABLE floor_sink (`value` BYTES) WITH (
  'connector' = 'kafka', 'topic' = '${sink_topic}',
  'properties.bootstrap.servers' = '${bootstrap}', 'sink.partitioner' = 'fixed',
  'format' = 'raw'
);
INSERT INTO floor_sink SELECT `value` FROM nexmark_raw;
