CREATE TABLE src (id INT, s STRING, t STRING, n INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       REPLACE(s, ' ', '') AS r1,
       REPLACE(s, 'aa', 'a') AS r2,
       REPLACE(s, '😀', ':)') AS r3,
       REPLACE(s, 'ß', '') AS r4,
       CHAR_LENGTH(s) - CHAR_LENGTH(REPLACE(s, 'l', '')) AS r5
FROM src;
