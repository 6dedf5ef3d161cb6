SET 'accelerator.encode-stages.fused.enabled' = 'true';
SET 'accelerator.deduplicate.enabled' = 'true';
CREATE TABLE orders (`user` STRING, amount INT, cat STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results (`user` STRING, amount INT, PRIMARY KEY (`user`) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO results SELECT `user`, amount FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY `user` ORDER BY ts DESC) AS rn
  FROM orders) WHERE rn = 1;
