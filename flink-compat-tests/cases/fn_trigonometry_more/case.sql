CREATE TABLE src (id INT, ti TINYINT, si SMALLINT, i INT, b BIGINT, f FLOAT, d DOUBLE, m DECIMAL(10, 3), big DECIMAL(38, 10)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       ASIN(f / 1e39) AS r1,
       ACOS(0.5) AS r2,
       SINH(f / 1e38) AS r3,
       COSH(f / 1e38) AS r4,
       TANH(d) AS r5,
       COT(f) AS r6
FROM src;
