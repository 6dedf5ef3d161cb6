SET 'accelerator.top-n.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE items (category STRING, region STRING, item STRING, price BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:items}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE top_items (category STRING, region STRING, rn BIGINT, item STRING, price BIGINT, PRIMARY KEY (category, region, rn) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:top_items}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO top_items SELECT category, region, rn, item, price FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY category, region
  ORDER BY price DESC) AS rn FROM items WHERE category IS NOT NULL AND region IS NOT NULL) WHERE rn <= 2;
