-- Filters: comparisons of every supported kind, AND/OR/NOT, IS [NOT] NULL.
CREATE TABLE src (id INT, ti TINYINT, si SMALLINT, i INT, j INT, b BIGINT, m DECIMAL(10, 3), s STRING, t STRING)
WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_rows (id INT, s STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows SELECT id, s FROM src
WHERE (i > 10 AND b <= 5000000000) OR (NOT (s <> 'keep') AND t IS NOT NULL) OR (m >= 2.5 AND ti < si) OR j IS NULL;
