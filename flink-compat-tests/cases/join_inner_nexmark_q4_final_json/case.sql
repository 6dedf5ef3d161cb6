SET 'accelerator.join.enabled' = 'true';
SET 'state.backend.type' = 'rocksdb';
CREATE TABLE auctions (id BIGINT, item STRING, seller BIGINT, category INT, reserve BIGINT, `dateTime` TIMESTAMP(3), expires TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:auctions}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE bids (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, `dateTime` TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bids}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE q4 (category INT, avg_final BIGINT, PRIMARY KEY (category) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:q4}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO q4 SELECT Q.category, AVG(Q.final) FROM (SELECT MAX(B.price) AS final, A.category FROM auctions AS A, bids AS B WHERE A.id = B.auction AND B.`dateTime` BETWEEN A.`dateTime` AND A.expires GROUP BY A.id, A.category) AS Q GROUP BY Q.category;
