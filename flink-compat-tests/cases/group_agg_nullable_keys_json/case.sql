SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
SET 'table.exec.sink.not-null-enforcer' = 'DROP';
CREATE TABLE events (a STRING, b INT, x BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE totals (a STRING, b INT, n BIGINT, total BIGINT, hi BIGINT, PRIMARY KEY (a, b) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:totals}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO totals SELECT a, b, COUNT(*), SUM(x), MAX(x) FROM events GROUP BY a, b;
