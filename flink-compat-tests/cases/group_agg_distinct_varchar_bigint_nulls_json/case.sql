SET 'accelerator.group-aggregate.enabled' = 'true';
CREATE TABLE events (k STRING, s STRING, x BIGINT, i INT, d DOUBLE, m DECIMAL(10, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE counted (k STRING, n BIGINT, ds BIGINT, ds_pos BIGINT, ds_neg BIGINT, dx BIGINT, dx_pos BIGINT,
  dx_i BIGINT, nx BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:counted}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO counted SELECT k, COUNT(*), COUNT(DISTINCT s), COUNT(DISTINCT s) FILTER (WHERE x > 0),
  COUNT(DISTINCT s) FILTER (WHERE x < 0), COUNT(DISTINCT x), COUNT(DISTINCT x) FILTER (WHERE i > 0),
  COUNT(DISTINCT x) FILTER (WHERE i IS NOT NULL), COUNT(x)
FROM events WHERE k IS NOT NULL GROUP BY k;
