-- q1: currency conversion. Bid prices from dollars to euros.
-- kind: stateless
CREATE TABLE nexmark_q1 (
  auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), `dateTime` TIMESTAMP(3), extra VARCHAR
) WITH (${sink});
INSERT INTO nexmark_q1 SELECT auction, bidder, 0.908 * price AS price, `dateTime`, extra FROM bid;
