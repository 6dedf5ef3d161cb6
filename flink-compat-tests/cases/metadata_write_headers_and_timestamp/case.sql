CREATE TABLE src (id INT, name STRING, at_ms BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE dst (id INT, name STRING,
  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  hs MAP<STRING, BYTES> METADATA FROM 'headers') WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst SELECT id, name, TO_TIMESTAMP_LTZ(at_ms, 3),
  MAP['id', CAST(CAST(id AS STRING) AS BYTES), 'name', CAST(name AS BYTES), 'empty', CAST('' AS BYTES)] FROM src;
