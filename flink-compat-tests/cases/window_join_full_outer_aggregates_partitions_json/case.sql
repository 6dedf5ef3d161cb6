SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'accelerator.window-join.enabled' = 'true';
CREATE TABLE ad_views (ad STRING, region STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:views}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE clicks (ad STRING, cost INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE ctr (view_ad STRING, click_ad STRING, window_start TIMESTAMP(3), n_views BIGINT, n_clicks BIGINT, cost INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:ctr}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO ctr
SELECT v.ad, c.ad, COALESCE(v.window_start, c.window_start), v.n, c.n, c.cost
FROM (SELECT ad, window_start, window_end, COUNT(*) AS n
      FROM TABLE(TUMBLE(TABLE ad_views, DESCRIPTOR(ts), INTERVAL '5' SECOND))
      WHERE region <> 'bot' GROUP BY ad, window_start, window_end) v
FULL OUTER JOIN
     (SELECT ad, window_start, window_end, COUNT(*) AS n, SUM(cost) AS cost
      FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECOND))
      GROUP BY ad, window_start, window_end) c
ON v.ad = c.ad AND v.window_start = c.window_start AND v.window_end = c.window_end;
