-- q5, aggregation half: bids per auction in each 10-second window sliding every 2 seconds (Nexmark
-- q5's AuctionBids, without the join to the per-window maximum).
-- kind: stateful
CREATE TABLE nexmark_q5_agg (
  auction BIGINT, num BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3)
) WITH (${sink});
INSERT INTO nexmark_q5_agg
SELECT auction, COUNT(*) AS num, window_start AS starttime, window_end AS endtime
FROM TABLE(HOP(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
GROUP BY auction, window_start, window_end;
