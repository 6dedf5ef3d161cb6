-- q4: the average closing price per category: the highest bid of each auction placed while it
-- was open (a regular join with a time condition), then averaged per category (a grouped
-- aggregate over the first one's updates): an upsert stream keyed by category.
-- kind: stateful
-- compare: final
CREATE TABLE nexmark_q4 (id BIGINT, final BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH (${upsert_sink});
INSERT INTO nexmark_q4
SELECT Q.category, AVG(Q.final)
FROM (
  SELECT MAX(B.price) AS final, A.category
  FROM auction A, bid B
  WHERE A.id = B.auction AND B.`dateTime` BETWEEN A.`dateTime` AND A.expires
  GROUP BY A.id, A.category
) Q
GROUP BY Q.category;
