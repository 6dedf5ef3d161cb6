CREATE TABLE src (id INT, ts TIMESTAMP(3), us TIMESTAMP(6)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       HOUR(ts) AS r1,
       MINUTE(ts) AS r2,
       SECOND(ts) AS r3,
       EXTRACT(MILLISECOND FROM ts) AS r4,
       EXTRACT(HOUR FROM us) * 60 + EXTRACT(MINUTE FROM us) AS r5,
       EXTRACT(SECOND FROM us) * 1000 + EXTRACT(MILLISECOND FROM us) AS r6
FROM src;
