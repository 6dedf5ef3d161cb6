SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE accounts (id INT, x BIGINT, m DECIMAL(10, 2), PRIMARY KEY (id) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:accounts}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.bounded.mode' = 'latest-offset', 'key.format' = 'json', 'value.format' = 'json');
CREATE TABLE totals (n BIGINT, total BIGINT, avg_m DECIMAL(38, 6)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:totals}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'debezium-json');
INSERT INTO totals SELECT COUNT(*), SUM(x), AVG(m) FROM accounts;
