SET 'accelerator.deduplicate.enabled' = 'true';
CREATE TABLE orders (`user` STRING, amount INT, cat STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND, pt AS PROCTIME()) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE firsts (`user` STRING, amount INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:firsts}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO firsts SELECT `user`, amount FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY `user` ORDER BY pt) AS rn FROM orders) WHERE rn = 1;
