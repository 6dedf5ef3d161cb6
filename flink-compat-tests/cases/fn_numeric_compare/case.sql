CREATE TABLE src (id INT, ti TINYINT, si SMALLINT, i INT, b BIGINT, f FLOAT, d DOUBLE, m DECIMAL(10, 3), big DECIMAL(38, 10)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       i > 0 AS r1,
       d <= 0 AS r2,
       m = 0 AS r3,
       b BETWEEN 0 AND 10 AS r4,
       i NOT BETWEEN -5 AND 5 AS r5,
       f <> d AS r6
FROM src;
