SET 'accelerator.encode-stages.fused.enabled' = 'true';
SET 'accelerator.top-n.enabled' = 'true';
CREATE TABLE orders (`user` STRING, amount INT, cat STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE top2 (cat STRING, rn BIGINT, `user` STRING, amount INT, PRIMARY KEY (cat, rn) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:top2}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO top2 SELECT cat, rn, `user`, amount FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY cat ORDER BY amount DESC) AS rn FROM orders) WHERE rn <= 2;
