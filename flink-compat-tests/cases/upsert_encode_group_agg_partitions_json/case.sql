SET 'accelerator.encode-stages.upsert.enabled' = 'true';
SET 'accelerator.group-aggregate.enabled' = 'true';
CREATE TABLE events (k STRING, x BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE totals (k STRING, n BIGINT, total BIGINT, low BIGINT, high BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:totals}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO totals SELECT k, COUNT(*), SUM(x), MIN(x), MAX(x) FROM events GROUP BY k;
