CREATE TABLE src (id INT, a BOOLEAN, b BOOLEAN, x INT, y INT, s STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       a IS TRUE AS r1,
       a IS NOT FALSE AS r2,
       b IS UNKNOWN AS r3,
       a IS DISTINCT FROM b AS r4,
       a IS NOT DISTINCT FROM b AS r5,
       a IS NOT TRUE AS r6,
       b IS FALSE AS r7,
       (x > y) IS TRUE AS r8
FROM src;
