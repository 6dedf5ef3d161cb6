SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, s STRING, epoch BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results (id INT, r1 TIMESTAMP_LTZ(3), r2 TIMESTAMP_LTZ(3), r3 TIMESTAMP_LTZ(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO results
SELECT id, TO_TIMESTAMP_LTZ(s, 'yyyy-MM-dd HH:mm:ss'), TO_TIMESTAMP_LTZ(s, 'yyyy-MM-dd HH:mm:ss', 'UTC'),
       TO_TIMESTAMP_LTZ(epoch, 3)
FROM src;
