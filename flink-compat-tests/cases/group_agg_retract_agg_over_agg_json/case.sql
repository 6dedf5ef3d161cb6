SET 'accelerator.group-aggregate.enabled' = 'true';
CREATE TABLE bids (auction BIGINT, category INT, price BIGINT, rate DECIMAL(10, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_category (category INT, auctions BIGINT, total BIGINT, avg_final BIGINT, avg_rate DECIMAL(38, 6), PRIMARY KEY (category) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:per_category}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO per_category SELECT category, COUNT(*), SUM(final), AVG(final), AVG(r) FROM (
  SELECT auction, category, MAX(price) AS final, SUM(rate) AS r FROM bids WHERE category IS NOT NULL GROUP BY auction, category)
  GROUP BY category;
