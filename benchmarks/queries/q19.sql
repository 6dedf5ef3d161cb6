-- q19: the 10 highest bids of each auction (a top-N: an upsert stream keyed by auction and rank).
-- kind: stateful
CREATE TABLE nexmark_q19 (
  auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, `dateTime` TIMESTAMP(3),
  extra VARCHAR, rank_number BIGINT, PRIMARY KEY (auction, rank_number) NOT ENFORCED
) WITH (${upsert_sink});
INSERT INTO nexmark_q19
SELECT * FROM
(SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number FROM bid)
WHERE rank_number <= 10;
