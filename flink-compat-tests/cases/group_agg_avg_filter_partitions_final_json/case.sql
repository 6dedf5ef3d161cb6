SET 'accelerator.group-aggregate.enabled' = 'true';
CREATE TABLE events (k STRING, x BIGINT, i INT, d DOUBLE, m DECIMAL(10, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE averages (k STRING, avg_x BIGINT, avg_i INT, avg_d DOUBLE, avg_m DECIMAL(38, 6), positives BIGINT,
  filtered_avg_d DOUBLE, PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:averages}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO averages SELECT k, AVG(x), AVG(i), AVG(d), AVG(m), COUNT(*) FILTER (WHERE x > 0),
  AVG(d) FILTER (WHERE i < 0) FROM events GROUP BY k;
