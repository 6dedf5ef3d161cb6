CREATE TABLE src (id INT, ts TIMESTAMP(3), ns TIMESTAMP(9)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id, DATE_FORMAT(ts, 'yyyy-MM-dd') AS ymd, DATE_FORMAT(ts, 'EEE, d MMM yyyy') AS named
FROM src;
