-- A flat `bid` table: the bids alone, one JSON object per bid with the columns of the standard
-- `bid` view (no event-time attribute). A query named `q0@bid` runs q0.sql over this table
-- instead of the standard source and views.
CREATE TABLE bid (
  auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR,
  `dateTime` TIMESTAMP(3), extra VARCHAR
) WITH (
  'connector' = 'kafka',
  'topic' = '${source_topic}',
  'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset',
  'format' = '${format}'
);
