CREATE TABLE src (id INT,
  hs MAP<STRING, BYTES> METADATA FROM 'headers' VIRTUAL) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'json');
CREATE TABLE dst (id INT, n INT, a STRING, missing STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst SELECT id, CARDINALITY(hs), CAST(hs['a'] AS STRING), CAST(hs['zz'] AS STRING) FROM src;
