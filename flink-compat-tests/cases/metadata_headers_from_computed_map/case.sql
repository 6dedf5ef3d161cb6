CREATE TABLE src (id INT, a STRING, b STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE dst (id INT, a STRING,
  hs MAP<STRING, BYTES> METADATA FROM 'headers') WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst SELECT id, a,
  MAP[COALESCE(a, 'none'), CAST(b AS BYTES), 'dup', CAST(a AS BYTES), 'dup', CAST(b AS BYTES), 'k', CAST(NULL AS BYTES)]
FROM src;
