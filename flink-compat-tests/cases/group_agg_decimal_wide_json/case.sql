SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE events (k STRING, w DECIMAL(30, 10), n DECIMAL(5, 0)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE money (k STRING, w_lo DECIMAL(30, 10), w_hi DECIMAL(30, 10), w_sum DECIMAL(38, 10), w_avg DECIMAL(38, 10), n_lo DECIMAL(5, 0), n_hi DECIMAL(5, 0), n_sum DECIMAL(38, 0), n_avg DECIMAL(38, 6), PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:money}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO money SELECT k, MIN(w), MAX(w), SUM(w), AVG(w), MIN(n), MAX(n), SUM(n), AVG(n) FROM events WHERE k IS NOT NULL GROUP BY k;
