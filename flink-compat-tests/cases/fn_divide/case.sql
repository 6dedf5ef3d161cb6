CREATE TABLE src (id INT, ti TINYINT, si SMALLINT, i INT, b BIGINT, f FLOAT, d DOUBLE, m DECIMAL(10, 3), big DECIMAL(38, 10)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       i / 3 AS r1,
       b / 7 AS r2,
       d / 3 AS r3,
       m / 3 AS r4,
       f / 2 AS r5,
       i / 2.0 AS r6
FROM src;
