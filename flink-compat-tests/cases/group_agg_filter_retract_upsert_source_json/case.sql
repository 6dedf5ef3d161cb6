SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE accounts (id INT, k STRING, x BIGINT, d DOUBLE, PRIMARY KEY (id) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:accounts}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.bounded.mode' = 'latest-offset', 'key.format' = 'json', 'value.format' = 'json');
CREATE TABLE totals (k STRING, n BIGINT, pos BIGINT, neg_sum BIGINT, avg_d DOUBLE, nd BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:totals}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO totals SELECT k, COUNT(*), COUNT(*) FILTER (WHERE x > 0), SUM(x) FILTER (WHERE x < 0),
  AVG(d) FILTER (WHERE d <> 0), COUNT(d) FILTER (WHERE x IS NULL) FROM accounts WHERE k IS NOT NULL GROUP BY k;
