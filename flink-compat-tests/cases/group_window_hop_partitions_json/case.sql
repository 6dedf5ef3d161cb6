SET 'accelerator.group-window-aggregate.enabled' = 'true';
CREATE TABLE trades (acct STRING, qty INT, px DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:trades}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE hopping (acct STRING, n BIGINT, qty INT, max_px DOUBLE, sum_px DOUBLE, w_start TIMESTAMP(3),
  w_end TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:hopping}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO hopping
SELECT acct, COUNT(*), SUM(qty), MAX(px), SUM(px), HOP_START(ts, INTERVAL '2' SECOND, INTERVAL '5' SECOND),
  HOP_END(ts, INTERVAL '2' SECOND, INTERVAL '5' SECOND)
FROM trades GROUP BY acct, HOP(ts, INTERVAL '2' SECOND, INTERVAL '5' SECOND);
