CREATE TABLE src (id INT, ti TINYINT, si SMALLINT, i INT, b BIGINT, f FLOAT, d DOUBLE, m DECIMAL(10, 3), big DECIMAL(38, 10)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       ti * 3 AS r1,
       i * 2 AS r2,
       b * 2 AS r3,
       f * 2 AS r4,
       d * d AS r5,
       m * m AS r6,
       m * 2 AS r7
FROM src;
