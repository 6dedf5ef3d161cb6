-- q7: highest bid. The bids with the highest price of their 10-second window (a tumbling-window
-- maximum joined back to the bids).
-- kind: stateful
CREATE TABLE nexmark_q7 (
  auction BIGINT, price BIGINT, bidder BIGINT, `dateTime` TIMESTAMP(3), extra VARCHAR
) WITH (${sink});
INSERT INTO nexmark_q7
SELECT B.auction, B.price, B.bidder, B.`dateTime`, B.extra
FROM bid B
JOIN (
  SELECT MAX(price) AS maxprice, window_end AS `dateTime`
  FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))
  GROUP BY window_start, window_end
) B1
ON B.price = B1.maxprice
WHERE B.`dateTime` BETWEEN B1.`dateTime` - INTERVAL '10' SECOND AND B1.`dateTime`;
