-- q22: get URL directories. The first three path segments of each bid's URL.
-- kind: stateless
CREATE TABLE nexmark_q22 (
  auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR,
  dir1 VARCHAR, dir2 VARCHAR, dir3 VARCHAR
) WITH (${sink});
INSERT INTO nexmark_q22
SELECT
  auction, bidder, price, channel,
  SPLIT_INDEX(url, '/', 3) AS dir1,
  SPLIT_INDEX(url, '/', 4) AS dir2,
  SPLIT_INDEX(url, '/', 5) AS dir3
FROM bid;
