SET 'accelerator.join.enabled' = 'true';
SET 'state.backend.type' = 'rocksdb';
CREATE TABLE auctions (id BIGINT, item STRING, seller BIGINT, category INT, reserve BIGINT, `dateTime` TIMESTAMP(3), expires TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:auctions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, `dateTime` TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE persons (id BIGINT, name STRING, credit BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:persons}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE joined (auction BIGINT, price BIGINT, item STRING, seller_name STRING, credit BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:joined}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO joined SELECT B.auction, B.price, A.item, P.name, P.credit FROM bids AS B JOIN auctions AS A ON B.auction = A.id AND B.`dateTime` BETWEEN A.`dateTime` AND A.expires JOIN persons AS P ON A.seller = P.id AND P.credit >= B.price AND P.name <> A.item;
