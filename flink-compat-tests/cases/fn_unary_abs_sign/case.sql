CREATE TABLE src (id INT, ti TINYINT, si SMALLINT, i INT, b BIGINT, f FLOAT, d DOUBLE, m DECIMAL(10, 3), big DECIMAL(38, 10)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       -i AS r1,
       -d AS r2,
       ABS(i) AS r3,
       ABS(m) AS r4,
       SIGN(d) AS r5,
       SIGN(m) AS r6,
       ABS(ti) AS r7
FROM src;
