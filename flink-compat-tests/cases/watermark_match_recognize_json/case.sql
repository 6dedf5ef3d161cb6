CREATE TABLE ticks (sym STRING, price INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:ticks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE drops (sym STRING, start_ts TIMESTAMP(3), bottom INT, end_ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:drops}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO drops
SELECT * FROM ticks MATCH_RECOGNIZE (
  PARTITION BY sym ORDER BY ts
  MEASURES A.ts AS start_ts, MIN(B.price) AS bottom, C.ts AS end_ts
  ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A B+ C)
  DEFINE A AS A.price >= 9, B AS B.price < 9, C AS C.price >= 9);
