CREATE TABLE src (id INT, note STRING,
  hs MAP<STRING, BYTES> METADATA FROM 'headers',
  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp') WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE dst (id INT, note STRING, hs_copy MAP<STRING, BYTES>,
  out_headers MAP<STRING, BYTES> METADATA FROM 'headers',
  out_ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp') WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst SELECT id, note, hs, hs, ts FROM src WHERE id > 0;
