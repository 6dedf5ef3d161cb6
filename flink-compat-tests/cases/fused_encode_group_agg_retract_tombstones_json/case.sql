SET 'accelerator.encode-stages.fused.enabled' = 'true';
SET 'accelerator.group-aggregate.enabled' = 'true';
CREATE TABLE accounts (id INT, k STRING, x BIGINT, d DOUBLE, m DECIMAL(10, 2), PRIMARY KEY (id) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:accounts}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.bounded.mode' = 'latest-offset', 'key.format' = 'json', 'value.format' = 'json');
CREATE TABLE totals (k STRING, n BIGINT, nx BIGINT, sx BIGINT, sd DOUBLE, am DECIMAL(38, 6), PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:totals}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO totals SELECT k, COUNT(*), COUNT(x), SUM(x), SUM(d), AVG(m) FROM accounts WHERE k IS NOT NULL GROUP BY k;
