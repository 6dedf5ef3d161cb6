CREATE TABLE bid (auction BIGINT, bidder ROW<id BIGINT, name STRING>, price BIGINT, channel STRING, url STRING,
  placed ROW<seconds BIGINT, nanos INT>, extra STRING, ratio DOUBLE, sealed BOOLEAN, payload BYTES, quantity INT,
  delta BIGINT,
  ts AS TO_TIMESTAMP_LTZ(placed.seconds * 1000 + placed.nanos / 1000000, 3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bid}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'protobuf', 'protobuf.message-class-name' = 'acc.compat.Bid',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_window (channel STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), bids BIGINT, volume BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_window}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO per_window
SELECT channel, window_start, window_end, COUNT(*), SUM(price * quantity)
FROM TABLE(CUMULATE(TABLE bid, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '15' SECOND))
GROUP BY channel, window_start, window_end;
