SET 'accelerator.deduplicate.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
SET 'state.backend.type' = 'rocksdb';
CREATE TABLE events (k STRING, v INT, pt AS PROCTIME()) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE firsts (k STRING, v INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:firsts}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO firsts SELECT k, v FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt ASC) AS rn FROM events) WHERE rn = 1;
