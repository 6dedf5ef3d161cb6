SET 'accelerator.encode-stages.upsert.enabled' = 'true';
SET 'accelerator.deduplicate.enabled' = 'true';
CREATE TABLE events (k STRING, x INT, note STRING, pt AS PROCTIME()) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE latest (k_id STRING, x INT, note STRING, PRIMARY KEY (k_id) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:latest}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'key.fields-prefix' = 'k_', 'value.format' = 'csv',
  'value.fields-include' = 'EXCEPT_KEY');
INSERT INTO latest SELECT k, x, note FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt DESC) AS rn
  FROM events) WHERE rn = 1;
