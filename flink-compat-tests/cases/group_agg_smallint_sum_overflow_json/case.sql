SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE events (k STRING, s SMALLINT, t TINYINT, f FLOAT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE sums (k STRING, ss SMALLINT, st TINYINT, sf FLOAT, lo SMALLINT, hi TINYINT, lo_f FLOAT, n BIGINT,
  PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:sums}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO sums SELECT k, SUM(s), SUM(t), SUM(f), MIN(s), MAX(t), MIN(f), COUNT(*) FROM events GROUP BY k;
