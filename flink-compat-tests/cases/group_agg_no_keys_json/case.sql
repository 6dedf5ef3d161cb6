SET 'accelerator.group-aggregate.enabled' = 'true';
CREATE TABLE events (k STRING, x BIGINT, i INT, d DOUBLE, m DECIMAL(10, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE totals (n BIGINT, total BIGINT, avg_d DOUBLE, low_i INT, high_m DECIMAL(10, 2), positives BIGINT,
  PRIMARY KEY (n) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:totals}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO totals SELECT COUNT(*), SUM(x), AVG(d), MIN(i), MAX(m), COUNT(*) FILTER (WHERE x > 0) FROM events;
