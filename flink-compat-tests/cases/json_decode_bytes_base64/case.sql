CREATE TABLE src (id INT, b BYTES, v VARBINARY(4), fx BINARY(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'json.ignore-parse-errors' = 'true');
CREATE TABLE dst (id INT, b BYTES, v VARBINARY(4), fx BINARY(3), n INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst SELECT id, b, v, fx, CHAR_LENGTH(CAST(b AS STRING)) FROM src;
