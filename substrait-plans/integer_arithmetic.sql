-- Integer arithmetic: Flink wraps on overflow, divides as Java does, MOD takes the dividend's sign.
CREATE TABLE src (id INT, ti TINYINT, si SMALLINT, i INT, j INT, b BIGINT, m DECIMAL(10, 3), s STRING, t STRING)
WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_rows (id INT, r_plus INT, r_times INT, r_bplus BIGINT, r_tiny INT, r_small INT, r_minus INT,
  r_neg INT, r_abs INT, r_div INT, r_mod INT, r_pct INT, r_bdiv BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows
SELECT id, i + 1, i * 2, b + 1, ti + 100, si * 100, i - j, -i, ABS(i), i / j, MOD(i, j), i % 7, b / 2
FROM src WHERE j IS NULL OR j <> 0;
