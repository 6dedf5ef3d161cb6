-- String functions: case mapping, lengths and SUBSTRING on code points, CONCAT with NULL, TRIM, LIKE.
CREATE TABLE src (id INT, ti TINYINT, si SMALLINT, i INT, j INT, b BIGINT, m DECIMAL(10, 3), s STRING, t STRING)
WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_rows (id INT, up STRING, low STRING, len INT, sub STRING, tail STRING, neg STRING, joined STRING,
  concat3 STRING, trimmed STRING, ltrimmed STRING, rtrimmed STRING, liked BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows
SELECT id, UPPER(s), LOWER(s), CHAR_LENGTH(s), SUBSTRING(s, 2, 3), SUBSTRING(s FROM 3), SUBSTRING(s, -2, 5),
       s || '-' || t, CONCAT(s, t, 'z'), TRIM(s), TRIM(LEADING 'x' FROM s), TRIM(TRAILING 'xy' FROM s),
       s LIKE '%b_'
FROM src;
