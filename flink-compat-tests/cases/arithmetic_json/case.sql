CREATE TABLE nums (i INT, b BIGINT, d DOUBLE, m DECIMAL(10, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:nums}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE results (i_plus INT, b_times BIGINT, i_div INT, i_mod INT, d_div DOUBLE, m_times DECIMAL(21, 4),
  m_plus DECIMAL(11, 2), mixed DOUBLE, neg BIGINT, ab INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:results}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO results
SELECT i + 1, b * 3, i / 7, MOD(i, 7), d / 3, m * m, m + 1, d * i, -b, ABS(i)
FROM nums WHERE i <> 0;
