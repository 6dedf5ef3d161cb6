SET 'table.local-time-zone' = 'America/New_York';
CREATE TABLE src (id INT, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, tm TIME(0), s STRING, epoch BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json')
AS SELECT id,
       EXTRACT(DOW FROM dt) AS r1,
       EXTRACT(DOY FROM ts) AS r2,
       EXTRACT(WEEK FROM ts) AS r3,
       EXTRACT(QUARTER FROM ts) AS r4,
       EXTRACT(MILLISECOND FROM ts) AS r5,
       EXTRACT(CENTURY FROM dt) AS r6,
       EXTRACT(MILLENNIUM FROM dt) AS r7,
       EXTRACT(DECADE FROM dt) AS r8
FROM src;
