-- Encode stage: a raw source in a charset other than UTF-8 stays stock Flink (fallback_raw_source);
-- the Calc after it and the Kafka json sink run accelerated over the rows Flink's raw format decodes.
CREATE TABLE src (line STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw',
  'raw.charset' = 'ISO-8859-1');
CREATE TABLE out_rows (line STRING, len INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows SELECT UPPER(line), CHAR_LENGTH(line) FROM src;
