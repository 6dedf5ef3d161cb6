CREATE TABLE src (id INT, s STRING, t STRING, n INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       TRIM(s) AS r1,
       TRIM(LEADING ' ' FROM s) AS r2,
       TRIM(TRAILING ' ' FROM s) AS r3,
       LTRIM(s) AS r4,
       RTRIM(s) AS r5,
       TRIM(BOTH 'a' FROM s) AS r6
FROM src;
