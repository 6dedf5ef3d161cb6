-- q17: auction statistics report. Per auction and day: bids in three price ranges, minimum,
-- maximum, average and total price (a grouped aggregate: an upsert stream keyed by auction and day).
-- kind: stateful
CREATE TABLE nexmark_q17 (
  auction BIGINT, `day` VARCHAR, total_bids BIGINT, rank1_bids BIGINT, rank2_bids BIGINT,
  rank3_bids BIGINT, min_price BIGINT, max_price BIGINT, avg_price BIGINT, sum_price BIGINT,
  PRIMARY KEY (auction, `day`) NOT ENFORCED
) WITH (${upsert_sink});
INSERT INTO nexmark_q17
SELECT
  auction,
  DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') AS `day`,
  COUNT(*) AS total_bids,
  COUNT(*) FILTER (WHERE price < 10000) AS rank1_bids,
  COUNT(*) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bids,
  COUNT(*) FILTER (WHERE price >= 1000000) AS rank3_bids,
  MIN(price) AS min_price,
  MAX(price) AS max_price,
  AVG(price) AS avg_price,
  SUM(price) AS sum_price
FROM bid
GROUP BY auction, DATE_FORMAT(`dateTime`, 'yyyy-MM-dd');
