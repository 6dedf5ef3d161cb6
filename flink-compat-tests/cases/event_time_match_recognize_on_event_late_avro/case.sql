CREATE TABLE ticks (sym STRING, price INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:ticks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'avro',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE dips (sym STRING, start_ts TIMESTAMP(3), start_price INT, low INT, dip_rows BIGINT, recovered_ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dips}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dips
SELECT * FROM ticks MATCH_RECOGNIZE (
  PARTITION BY sym ORDER BY ts
  MEASURES S.ts AS start_ts, S.price AS start_price, MIN(B.price) AS low, COUNT(B.price) AS dip_rows,
    E.ts AS recovered_ts
  ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
  PATTERN (S B+ E)
  DEFINE B AS B.price < S.price, E AS E.price >= S.price);
