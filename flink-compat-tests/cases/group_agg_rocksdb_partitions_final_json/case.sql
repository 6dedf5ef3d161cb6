SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
SET 'state.backend.type' = 'rocksdb';
CREATE TABLE events (k STRING, x BIGINT, d DOUBLE, m DECIMAL(10, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE totals (k STRING, n BIGINT, total BIGINT, lo BIGINT, hi BIGINT, avg_d DOUBLE, avg_m DECIMAL(38, 6), PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:totals}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO totals SELECT k, COUNT(*), SUM(x), MIN(x), MAX(x), AVG(d), AVG(m) FROM events WHERE k IS NOT NULL GROUP BY k;
