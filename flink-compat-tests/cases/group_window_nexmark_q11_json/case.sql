SET 'accelerator.group-window-aggregate.enabled' = 'true';
CREATE TABLE nexmark (
  event_type INT,
  person ROW<id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR, state VARCHAR,
    `dateTime` TIMESTAMP(3), extra VARCHAR>,
  auction ROW<id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT,
    `dateTime` TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR>,
  bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, `dateTime` TIMESTAMP(3),
    extra VARCHAR>,
  `dateTime` AS CASE WHEN event_type = 0 THEN person.`dateTime` WHEN event_type = 1 THEN auction.`dateTime`
    ELSE bid.`dateTime` END,
  WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND
) WITH (
  'connector' = 'kafka', 'topic' = '${topic:nexmark}', 'properties.bootstrap.servers' = '${bootstrap}',
  'properties.group.id' = 'nexmark', 'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE VIEW person AS SELECT person.id, person.name, `dateTime` FROM nexmark WHERE event_type = 0;
CREATE VIEW auction AS SELECT auction.id, auction.seller, `dateTime` FROM nexmark WHERE event_type = 1;
CREATE VIEW bid AS SELECT bid.auction, bid.bidder, bid.price, `dateTime` FROM nexmark WHERE event_type = 2;
CREATE TABLE out_sessions (bidder BIGINT, bid_count BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out_sessions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_sessions
SELECT B.bidder, COUNT(*), SESSION_START(B.`dateTime`, INTERVAL '10' SECOND), SESSION_END(B.`dateTime`, INTERVAL '10' SECOND)
FROM bid B GROUP BY B.bidder, SESSION(B.`dateTime`, INTERVAL '10' SECOND);
