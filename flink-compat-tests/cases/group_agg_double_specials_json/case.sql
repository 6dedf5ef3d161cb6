SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE events (k STRING, d DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE stats (k STRING, lo DOUBLE, hi DOUBLE, total DOUBLE, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:stats}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO stats SELECT k, MIN(d), MAX(d), SUM(d), COUNT(d) FROM events WHERE k IS NOT NULL GROUP BY k;
