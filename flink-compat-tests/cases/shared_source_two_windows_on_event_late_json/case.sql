CREATE TABLE bids (bidder STRING, price INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE per_tumble (bidder STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), bids BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_tumble}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
CREATE TABLE per_hop (window_start TIMESTAMP(3), window_end TIMESTAMP(3), total INT, top INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:per_hop}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
EXECUTE STATEMENT SET BEGIN
INSERT INTO per_tumble
SELECT bidder, window_start, window_end, COUNT(*)
FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))
WHERE price > 10
GROUP BY bidder, window_start, window_end;
INSERT INTO per_hop
SELECT window_start, window_end, SUM(price), MAX(price)
FROM TABLE(HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND))
GROUP BY window_start, window_end;
END;
