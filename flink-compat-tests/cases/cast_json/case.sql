CREATE TABLE src (s STRING, i INT, d DOUBLE, ts TIMESTAMP(3), dt DATE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE casts (s_int INT, s_dec DECIMAL(8, 3), i_str STRING, d_int BIGINT, d_str STRING,
  ts_str STRING, ts_date DATE, dt_ts TIMESTAMP(0), try_int INT, b BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:casts}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO casts
SELECT TRY_CAST(s AS INT), TRY_CAST(s AS DECIMAL(8, 3)), CAST(i AS STRING), CAST(d AS BIGINT), CAST(d AS STRING),
       CAST(ts AS STRING), CAST(ts AS DATE), CAST(dt AS TIMESTAMP(0)), TRY_CAST(s AS INT), TRY_CAST(s AS BOOLEAN)
FROM src;
