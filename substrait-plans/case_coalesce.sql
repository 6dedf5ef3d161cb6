-- CASE (searched and simple), COALESCE, IS NULL as a value.
CREATE TABLE src (id INT, ti TINYINT, si SMALLINT, i INT, j INT, b BIGINT, m DECIMAL(10, 3), s STRING, t STRING)
WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_rows (id INT, label STRING, scaled INT, missing BOOLEAN, fallback INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows
SELECT id,
       CASE WHEN i IS NULL THEN 'none' WHEN i < 0 THEN 'negative' WHEN i BETWEEN 0 AND 9 THEN 'small' ELSE 'big' END,
       CASE s WHEN 'a' THEN i * 10 WHEN 'b' THEN NULL ELSE i END,
       i IS NULL,
       COALESCE(i, j, -1)
FROM src;
