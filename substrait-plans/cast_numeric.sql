-- Value-preserving CASTs between numeric and string types.
CREATE TABLE src (id INT, ti TINYINT, si SMALLINT, i INT, j INT, b BIGINT, m DECIMAL(10, 3), s STRING, t STRING)
WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_rows (id INT, as_bigint BIGINT, as_decimal DECIMAL(14, 2), as_double DOUBLE, as_text STRING,
  wider DECIMAL(16, 5), small_text STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows
SELECT id, CAST(i AS BIGINT), CAST(i AS DECIMAL(14, 2)), CAST(b AS DOUBLE), CAST(b AS STRING),
       CAST(m AS DECIMAL(16, 5)), CAST(ti AS STRING)
FROM src;
