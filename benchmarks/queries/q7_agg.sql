-- q7, aggregation half: the highest price of each 10-second tumbling window (Nexmark q7's inner
-- window maximum, without the join back to the bids that carry it).
-- kind: stateful
CREATE TABLE nexmark_q7_agg (maxprice BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3)) WITH (${sink});
INSERT INTO nexmark_q7_agg
SELECT MAX(price) AS maxprice, window_start AS starttime, window_end AS endtime
FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))
GROUP BY window_start, window_end;
