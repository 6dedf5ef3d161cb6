SET 'accelerator.group-aggregate.enabled' = 'true';
CREATE TABLE events (k STRING, s STRING, x BIGINT, i INT, d DOUBLE, m DECIMAL(10, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE summed (k STRING, dd BIGINT, dm BIGINT, si INT, sx BIGINT, sd DOUBLE, sm DECIMAL(38, 2), ai INT,
  mi INT, xd DOUBLE, si_pos INT, PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:summed}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO summed SELECT k, COUNT(DISTINCT d), COUNT(DISTINCT m), SUM(DISTINCT i), SUM(DISTINCT x),
  SUM(DISTINCT d), SUM(DISTINCT m), AVG(DISTINCT i), MIN(DISTINCT i), MAX(DISTINCT d),
  SUM(DISTINCT i) FILTER (WHERE x > 0)
FROM events WHERE k IS NOT NULL GROUP BY k;
