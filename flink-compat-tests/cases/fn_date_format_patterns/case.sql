SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME(0), s STRING, epoch BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       DATE_FORMAT(ts, 'yyyy-MM-dd''T''HH:mm:ss.SSS') AS r1,
       DATE_FORMAT(ltz, 'yyyy-MM-dd HH:mm:ss') AS r2,
       DATE_FORMAT(ts, 'D w a hh') AS r3,
       DATE_FORMAT(s, 'MM/dd/yy') AS r4
FROM src;
