-- q0: pass-through. Every bid, as read: the cost of the source and sink formats alone.
-- kind: stateless
CREATE TABLE nexmark_q0 (
  auction BIGINT, bidder BIGINT, price BIGINT, `dateTime` TIMESTAMP(3), extra VARCHAR
) WITH (${sink});
INSERT INTO nexmark_q0 SELECT auction, bidder, price, `dateTime`, extra FROM bid;
