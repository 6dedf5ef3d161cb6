-- q2: selection. Bids on a set of auctions.
-- kind: stateless
CREATE TABLE nexmark_q2 (auction BIGINT, price BIGINT) WITH (${sink});
INSERT INTO nexmark_q2 SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0;
