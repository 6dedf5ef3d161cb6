SET 'accelerator.over-aggregate.enabled' = 'true';
CREATE TABLE clicks (page STRING, ts TIMESTAMP(3), pt AS PROCTIME()) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_rows (page STRING, ts TIMESTAMP(3), n BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out_rows}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows
SELECT page, ts, COUNT(*) OVER (PARTITION BY page ORDER BY pt ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM clicks;
