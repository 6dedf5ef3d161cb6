CREATE TABLE src (payload BYTES) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw');
CREATE TABLE dst (payload BYTES) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}', 'format' = 'raw');
INSERT INTO dst SELECT payload FROM src WHERE payload IS NOT NULL;
