SET 'accelerator.group-aggregate.enabled' = 'true';
SET 'accelerator.exchange.batched.enabled' = 'true';
SET 'parallelism.default' = '2';
SET 'table.exec.sink.require-on-conflict' = 'false';
CREATE TABLE events (k STRING, i INT, d DATE, x BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE totals (k STRING, i INT, d DATE, n BIGINT, s BIGINT, lo BIGINT,
  PRIMARY KEY (k, i, d) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:totals}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO totals
SELECT COALESCE(k, '<null>'), COALESCE(i, 7), COALESCE(d, DATE '1970-01-02'), n, s, lo
FROM (SELECT k, i, d, COUNT(*) AS n, SUM(x) AS s, MIN(x) AS lo FROM events GROUP BY k, i, d);
