-- Fallback: an avro TIMESTAMP(6) under the legacy timestamp mapping (flink-avro 2.2.1 keeps milliseconds).
CREATE TABLE src (id BIGINT, ts TIMESTAMP(6)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'avro');
CREATE TABLE out_rows (id BIGINT, ts TIMESTAMP(6)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows SELECT id, ts FROM src;
