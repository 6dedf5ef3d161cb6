SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, ts TIMESTAMP(3), ns TIMESTAMP(9)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       DATE_FORMAT(ts, 'yyyy-MM-dd') AS r1,
       DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss.SSS') AS r2,
       DATE_FORMAT(ns, 'uuuu/M/d h:m:s K k SSSSSSSSS S') AS r3,
       DATE_FORMAT(ts, 'yy''MM'' ''at'' HH') AS r4,
       DATE_FORMAT(ns, 'y yyy yyyyy uu') AS r5
FROM src;
