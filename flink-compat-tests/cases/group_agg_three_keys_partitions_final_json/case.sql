SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE sales (region STRING, yr INT, vip BOOLEAN, amount BIGINT, price DECIMAL(10, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:sales}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE totals (region STRING, yr INT, vip BOOLEAN, n BIGINT, total BIGINT, lo DECIMAL(10, 2), hi DECIMAL(10, 2), avg_price DECIMAL(38, 6), PRIMARY KEY (region, yr, vip) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:totals}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO totals SELECT region, yr, vip, COUNT(*), SUM(amount), MIN(price), MAX(price), AVG(price) FROM sales
WHERE region IS NOT NULL AND yr IS NOT NULL AND vip IS NOT NULL GROUP BY region, yr, vip;
