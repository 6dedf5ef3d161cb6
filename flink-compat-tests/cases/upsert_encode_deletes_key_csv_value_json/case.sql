SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE events (k STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_count (cnt BIGINT, label STRING, keys BIGINT, PRIMARY KEY (cnt, label) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:per_count}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'csv', 'value.format' = 'json');
INSERT INTO per_count SELECT cnt, 'n,' || CAST(cnt AS STRING), COUNT(*) FROM (SELECT k, COUNT(*) AS cnt FROM events GROUP BY k)
  GROUP BY cnt;
