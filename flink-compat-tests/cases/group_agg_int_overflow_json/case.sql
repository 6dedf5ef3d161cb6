SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE nums (k STRING, i INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:nums}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE sums (k STRING, si INT, lo INT, hi INT, avg_i INT, PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:sums}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO sums SELECT k, SUM(i), MIN(i), MAX(i), AVG(i) FROM nums WHERE k IS NOT NULL GROUP BY k;
