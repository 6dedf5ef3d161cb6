SET 'accelerator.group-aggregate.enabled' = 'true';
CREATE TABLE events (k STRING, t TINYINT, s SMALLINT, i INT, x BIGINT, f FLOAT, d DOUBLE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE averages (k STRING, avg_t TINYINT, avg_s SMALLINT, avg_i INT, avg_x BIGINT, avg_f FLOAT, avg_d DOUBLE,
  PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:averages}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO averages SELECT k, AVG(t), AVG(s), AVG(i), AVG(x), AVG(f), AVG(d) FROM events GROUP BY k;
