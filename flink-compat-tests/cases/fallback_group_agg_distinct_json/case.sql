SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'table.optimizer.distinct-agg.split.enabled' = 'true';
CREATE TABLE events (k STRING, x BIGINT, i INT, d DOUBLE, m DECIMAL(10, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE totals (k STRING, n BIGINT, total BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:totals}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO totals SELECT k, COUNT(DISTINCT x), SUM(x) FROM events GROUP BY k;
