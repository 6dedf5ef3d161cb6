-- DECIMAL arithmetic whose exact result type fits 38 digits.
CREATE TABLE src (id INT, ti TINYINT, si SMALLINT, i INT, j INT, b BIGINT, m DECIMAL(10, 3), s STRING, t STRING)
WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_rows (id INT, r_sum DECIMAL(12, 3), r_diff DECIMAL(14, 3), r_prod DECIMAL(20, 6), r_neg DECIMAL(10, 3),
  r_abs DECIMAL(10, 3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows
SELECT id, m + m, m - i, m * m, -m, ABS(m) FROM src;
