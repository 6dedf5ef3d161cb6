SET 'accelerator.deduplicate.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE events (k STRING, v INT, s STRING, pt AS PROCTIME()) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE latest (k STRING, v INT, s STRING, PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:latest}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO latest SELECT k, v, s FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt DESC) AS rn FROM events WHERE k IS NOT NULL) WHERE rn = 1;
