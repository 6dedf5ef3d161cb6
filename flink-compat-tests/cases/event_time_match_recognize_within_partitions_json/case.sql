CREATE TABLE ticks (sym STRING, price INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:ticks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE rallies (sym STRING, start_ts TIMESTAMP(3), start_price INT, peak INT, ups BIGINT, drop_price INT, drop_ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:rallies}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO rallies
SELECT * FROM ticks MATCH_RECOGNIZE (
  PARTITION BY sym ORDER BY ts
  MEASURES S.ts AS start_ts, S.price AS start_price, LAST(UP.price) AS peak, COUNT(UP.price) AS ups,
    D.price AS drop_price, D.ts AS drop_ts
  ONE ROW PER MATCH AFTER MATCH SKIP TO LAST D
  PATTERN (S UP{2,} D) WITHIN INTERVAL '6' SECOND
  DEFINE UP AS (LAST(UP.price, 1) IS NULL AND UP.price > S.price) OR UP.price > LAST(UP.price, 1),
    D AS D.price < LAST(UP.price));
