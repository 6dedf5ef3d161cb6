-- Rows stage over a watermarked source: the source and the filter before the window run accelerated,
-- and the stage's watermark section evaluates the WATERMARK per message for the operator, which
-- generates Flink's per-split watermarks for the window after it.
CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  `dateTime` TIMESTAMP(3), extra STRING, WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_window (channel STRING, window_start TIMESTAMP(3), bids BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window SELECT channel, window_start, COUNT(*) FROM TABLE(TUMBLE(
  (SELECT * FROM bid WHERE price > 100), DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))
GROUP BY channel, window_start, window_end;
