SET 'accelerator.group-aggregate.enabled' = 'true';
CREATE TABLE events (k STRING, x BIGINT, i INT, d DOUBLE, m DECIMAL(10, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE filtered (k STRING, n BIGINT, positives BIGINT, total BIGINT, avg_d DOUBLE, high_i INT,
  low_m DECIMAL(10, 2), PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:filtered}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO filtered SELECT k, COUNT(*), COUNT(*) FILTER (WHERE x > 0), SUM(x) FILTER (WHERE i IS NOT NULL),
  AVG(d) FILTER (WHERE x < 0), MAX(i) FILTER (WHERE d > 0), MIN(m) FILTER (WHERE i > x)
FROM events GROUP BY k;
