CREATE TABLE src (id INT, a BOOLEAN, b BOOLEAN, x INT, y INT, s STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       CASE WHEN a THEN 'yes' WHEN b THEN 'maybe' ELSE 'no' END AS r1,
       CASE x WHEN 1 THEN 'one' WHEN 5 THEN 'five' END AS r2,
       CASE WHEN x > y THEN x ELSE y END AS r3
FROM src;
