-- TIMESTAMP and TIMESTAMP_LTZ of the years 0000-9999 with every sub-millisecond digit: literals
-- (flink_timestamp, a NULL one too; Calcite's start at the year 0001), comparisons, COALESCE,
-- CASE, a precision-raising CAST and an INTERVAL shift (flink_timestamp_plus_millis), all on the
-- (millis, nanos) layout.
CREATE TABLE times (id INT, ts TIMESTAMP(9), ms TIMESTAMP(3), ltz TIMESTAMP_LTZ(6)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_times (id INT, ts TIMESTAMP(9), first_or_ts TIMESTAMP(9), late BOOLEAN, raised TIMESTAMP(9),
  kept TIMESTAMP(3), shifted TIMESTAMP(3), ltz TIMESTAMP_LTZ(6), ltz_early BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_times
SELECT id,
       ts,
       COALESCE(ts, TIMESTAMP '0001-01-01 00:00:00.000000001'),
       ts > TIMESTAMP '9999-12-31 23:59:59.999999998',
       CAST(ms AS TIMESTAMP(9)),
       CASE WHEN id > 2 THEN ms ELSE CAST(NULL AS TIMESTAMP(3)) END,
       ms - INTERVAL '1' SECOND,
       ltz,
       ltz < TO_TIMESTAMP_LTZ(0, 3)
FROM times;
