SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE events (k STRING, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(6), dt DATE, tm TIME) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE extremes (k STRING, lo_ts TIMESTAMP(3), hi_ts TIMESTAMP(3), lo_ltz TIMESTAMP_LTZ(6),
  hi_ltz TIMESTAMP_LTZ(6), lo_dt DATE, hi_dt DATE, lo_tm TIME, hi_tm TIME, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:extremes}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO extremes SELECT k, MIN(ts), MAX(ts), MIN(ltz), MAX(ltz), MIN(dt), MAX(dt), MIN(tm), MAX(tm), COUNT(*)
FROM events GROUP BY k;
