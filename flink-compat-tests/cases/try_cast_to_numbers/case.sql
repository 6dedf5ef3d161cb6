CREATE TABLE src (id INT, s STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       TRY_CAST(s AS TINYINT) AS r1,
       TRY_CAST(s AS INT) AS r2,
       TRY_CAST(s AS BIGINT) AS r3,
       TRY_CAST(s AS FLOAT) AS r4,
       TRY_CAST(s AS DOUBLE) AS r5,
       TRY_CAST(s AS DECIMAL(5, 2)) AS r6
FROM src;
