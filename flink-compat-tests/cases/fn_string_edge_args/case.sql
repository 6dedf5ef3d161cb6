CREATE TABLE src (id INT, s STRING, t STRING, n INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       SUBSTRING(s, 0) AS r1,
       SUBSTRING(s, 100) AS r2,
       SUBSTRING(s, -100, 2) AS r3,
       LPAD(s, 0, 'x') AS r4,
       RPAD(s, 3, '') AS r5,
       REPEAT(s, -1) AS r6,
       REPLACE(s, '', 'x') AS r7,
       CONCAT(s, CAST(NULL AS STRING)) AS r8,
       CONCAT_WS(t, s, s) AS r9
FROM src;
