SET 'accelerator.group-window-aggregate.enabled' = 'true';
SET 'accelerator.exchange.batched.enabled' = 'true';
SET 'parallelism.default' = '2';
CREATE TABLE events (event_type INT, auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING,
  `dateTime` TIMESTAMP(3), extra STRING, WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bid}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE out_sessions (bidder BIGINT, bid_count BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out_sessions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
CREATE VIEW bid AS SELECT auction, bidder, price, `dateTime` FROM events WHERE event_type = 2;
INSERT INTO out_sessions
SELECT B.bidder, COUNT(*), SESSION_START(B.`dateTime`, INTERVAL '10' SECOND), SESSION_END(B.`dateTime`, INTERVAL '10' SECOND)
FROM bid B GROUP BY B.bidder, SESSION(B.`dateTime`, INTERVAL '10' SECOND);
