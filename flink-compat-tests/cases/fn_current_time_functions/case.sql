SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME(0), s STRING, epoch BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       CURRENT_DATE > dt AS r1,
       NOW() > ltz AS r2,
       CURRENT_TIMESTAMP IS NOT NULL AS r3,
       LOCALTIMESTAMP > ts AS r4,
       CURRENT_TIME IS NOT NULL AS r5,
       LOCALTIME IS NOT NULL AS r6
FROM src;
