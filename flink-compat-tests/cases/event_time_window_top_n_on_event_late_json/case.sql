CREATE TABLE sales (shop STRING, item STRING, amount INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:sales}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE top_items (window_start TIMESTAMP(3), window_end TIMESTAMP(3), item STRING, total INT, rn BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:top_items}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO top_items
SELECT window_start, window_end, item, total, rn FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY total DESC, item) AS rn FROM (
    SELECT window_start, window_end, item, SUM(amount) AS total
    FROM TABLE(TUMBLE(TABLE sales, DESCRIPTOR(ts), INTERVAL '10' SECOND))
    WHERE shop <> 'test'
    GROUP BY window_start, window_end, item))
WHERE rn <= 2;
