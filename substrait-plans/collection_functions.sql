-- ARRAY and MAP functions: element access (1-based; NULL for a NULL or out-of-range index), CARDINALITY,
-- map lookup (missing or NULL key is NULL), the ARRAY and MAP constructors (a repeated MAP key keeps its
-- first position and last value) and element-wise casts.
CREATE TABLE src (id INT, arr ARRAY<INT>, names ARRAY<STRING>, nested ARRAY<ARRAY<INT>>, m MAP<STRING, INT>,
  i INT, k STRING, ts ARRAY<TIMESTAMP(3)>)
WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_rows (id INT, at_two INT, at_i INT, first_name STRING, arr_len INT, nested_len INT, map_len INT,
  a INT, at_k INT, pair ARRAY<INT>, words ARRAY<STRING>, built MAP<STRING, INT>, arr_text ARRAY<STRING>,
  wide MAP<STRING, BIGINT>, first_ts TIMESTAMP(3), inner_second INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows
SELECT id, arr[2], arr[i], names[1], CARDINALITY(arr), CARDINALITY(nested), CARDINALITY(m), m['a'], m[k],
       ARRAY[id, i], ARRAY[k, 'z'], MAP['a', id, 'b', i, 'a', 7], CAST(arr AS ARRAY<STRING>),
       CAST(m AS MAP<STRING, BIGINT>), ts[1], nested[1][2]
FROM src
WHERE CARDINALITY(arr) IS NULL OR CARDINALITY(arr) < 5;
