-- q11: user sessions. Bids per bidder in each session of activity (10-second gap).
-- kind: stateful
CREATE TABLE nexmark_q11 (
  bidder BIGINT, bid_count BIGINT, starttime TIMESTAMP(3), endtime TIMESTAMP(3)
) WITH (${sink});
INSERT INTO nexmark_q11
SELECT
  B.bidder,
  COUNT(*) AS bid_count,
  SESSION_START(B.`dateTime`, INTERVAL '10' SECOND) AS starttime,
  SESSION_END(B.`dateTime`, INTERVAL '10' SECOND) AS endtime
FROM bid B
GROUP BY B.bidder, SESSION(B.`dateTime`, INTERVAL '10' SECOND);
