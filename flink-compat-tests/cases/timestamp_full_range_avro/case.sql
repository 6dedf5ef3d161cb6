CREATE TABLE src (id INT, ts TIMESTAMP(3), ts6 TIMESTAMP(6)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'avro',
  'avro.timestamp_mapping.legacy' = 'false');
CREATE TABLE dst (id INT, ts TIMESTAMP(3), ts6 TIMESTAMP(6), later BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'avro', 'avro.timestamp_mapping.legacy' = 'false');
INSERT INTO dst SELECT id, ts, ts6, ts6 > ts FROM src;
