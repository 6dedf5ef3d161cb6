-- q12: processing-time windows. Bids per bidder in each 10-second tumbling window of processing
-- time. Which window a bid lands in depends on the wall clock, and the windows still open when the
-- input ends never fire, so runs differ in their rows: the benchmark checks what holds on every
-- run, each bidder's total over the windows that fired is at most the bidder's bids in the input.
-- kind: stateful
-- compare: at-most-bids bidder bid_count
CREATE TABLE nexmark_q12 (
  bidder BIGINT, bid_count BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3)
) WITH (${sink});
INSERT INTO nexmark_q12
SELECT
  B.bidder,
  COUNT(*) AS bid_count,
  TUMBLE_START(B.p_time, INTERVAL '10' SECOND) AS starttime,
  TUMBLE_END(B.p_time, INTERVAL '10' SECOND) AS endtime
FROM (SELECT *, PROCTIME() AS p_time FROM bid) B
GROUP BY B.bidder, TUMBLE(B.p_time, INTERVAL '10' SECOND);
