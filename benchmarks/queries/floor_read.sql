-- The read floor of a source topic: every message read through Flink's Kafka source as `raw`
-- bytes into a `blackhole` sink (stock Flink). The Kafka reading every query of that topic pays
-- whatever its operators cost.
-- kind: floor
CREATE TABLE source_raw (`value` BYTES) WITH (
  'connector' = 'kafka', 'topic' = '${source_topic}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'raw'
);
CREATE TABLE floor_sink (`value` BYTES) WITH ('connector' = 'blackhole');
INSERT INTO floor_sink SELECT `value` FROM source_raw;
