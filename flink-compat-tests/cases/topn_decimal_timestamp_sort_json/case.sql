SET 'accelerator.top-n.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE trades (k STRING, amount DECIMAL(10, 2), at_ts TIMESTAMP(3), v INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:trades}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE top_trades (k STRING, rn BIGINT, amount DECIMAL(10, 2), at_ts TIMESTAMP(3), v INT, PRIMARY KEY (k, rn) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:top_trades}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO top_trades SELECT k, rn, amount, at_ts, v FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k
  ORDER BY amount DESC NULLS LAST, at_ts ASC NULLS FIRST) AS rn FROM trades WHERE k IS NOT NULL) WHERE rn <= 4;
