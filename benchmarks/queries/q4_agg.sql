-- q4, aggregation half: the highest bid per auction (Nexmark q4's MAX(price) per auction, without
-- its join to the auctions, so without the category and the per-category average on top). A
-- grouped aggregate over the bids: an upsert stream keyed by auction.
-- kind: stateful
CREATE TABLE nexmark_q4_agg (auction BIGINT, final BIGINT, PRIMARY KEY (auction) NOT ENFORCED) WITH (${upsert_sink});
INSERT INTO nexmark_q4_agg
SELECT auction, MAX(price) AS final
FROM bid
GROUP BY auction;
