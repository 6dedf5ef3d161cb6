-- The write floor of a query: its output topic (written once by the query's stock run) copied as
-- `raw` bytes into a fresh topic by stock Flink. The Kafka writing the query pays whatever its
-- operators cost (plus the reading of that output, which the query itself does not do).
-- kind: floor
CREATE TABLE output_raw (`value` BYTES) WITH (
  'connector' = 'kafka', 'topic' = '${source_topic}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'raw'
);
CREATE TABLE floor_sink (`value` BYTES) WITH (
  'connector' = 'kafka', 'topic' = '${sink_topic}',
  'properties.bootstrap.servers' = '${bootstrap}', 'sink.partitioner' = 'fixed',
  'format' = 'raw'
);
INSERT INTO floor_sink SELECT `value` FROM output_raw;
