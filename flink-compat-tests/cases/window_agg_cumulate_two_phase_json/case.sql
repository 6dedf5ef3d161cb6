SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'accelerator.window-aggregate.local-phase.enabled' = 'false';
CREATE TABLE bids (auction BIGINT, price BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE per_window (auction BIGINT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), bids BIGINT,
  priced BIGINT, total BIGINT, low BIGINT, high BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window
SELECT auction, window_start, window_end, COUNT(*), COUNT(price), SUM(price), MIN(price), MAX(price)
FROM TABLE(CUMULATE(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '20' SECOND))
GROUP BY auction, window_start, window_end;
