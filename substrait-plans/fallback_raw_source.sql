-- Fallback: a raw source in UTF-16 (Java's and Python's replacement of a malformed sequence differ).
CREATE TABLE src (line STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw',
  'raw.charset' = 'UTF-16LE');
CREATE TABLE out_rows (line STRING, len INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows SELECT UPPER(line), CHAR_LENGTH(line) FROM src;
