-- A raw source (one BIGINT per message, little-endian) filtered and written as json.
CREATE TABLE src (reading BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw',
  'raw.endianness' = 'little-endian');
CREATE TABLE out_rows (reading BIGINT, doubled BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows SELECT reading, reading * 2 FROM src WHERE reading > 0;
