CREATE TABLE src (line STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw',
  'raw.charset' = 'windows-1252');
CREATE TABLE out_keyed (k STRING, line STRING, len INT, shout STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'key.fields' = 'k', 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY');
INSERT INTO out_keyed
SELECT SUBSTRING(line, 1, 2), line, CHAR_LENGTH(line),
       CASE WHEN CHAR_LENGTH(line) > 3 THEN UPPER(line) ELSE TRIM(line) END
FROM src;
