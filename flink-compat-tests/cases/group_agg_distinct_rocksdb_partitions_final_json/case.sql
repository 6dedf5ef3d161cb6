SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'state.backend.type' = 'rocksdb';
CREATE TABLE events (k STRING, s STRING, x BIGINT, i INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE counted (k STRING, n BIGINT, ds BIGINT, dx BIGINT, dx_pos BIGINT, sx BIGINT,
  PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:counted}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO counted SELECT k, COUNT(*), COUNT(DISTINCT s), COUNT(DISTINCT x), COUNT(DISTINCT x) FILTER (WHERE i > 0),
  SUM(DISTINCT x) FROM events GROUP BY k;
