SET 'accelerator.group-aggregate.enabled' = 'true';
CREATE TABLE events (k STRING, m DECIMAL(10, 2), p DECIMAL(20, 8), h DECIMAL(38, 0)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE averages (k STRING, avg_m DECIMAL(38, 6), avg_p DECIMAL(38, 8), avg_h DECIMAL(38, 6), n BIGINT,
  PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:averages}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO averages SELECT k, AVG(m), AVG(p), AVG(h), COUNT(*) FROM events GROUP BY k;
