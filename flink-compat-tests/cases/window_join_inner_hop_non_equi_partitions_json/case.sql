SET 'accelerator.window-join.enabled' = 'true';
CREATE TABLE ad_views (ad STRING, region STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:views}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE clicks (ad STRING, cost INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:clicks}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE matched (ad STRING, region STRING, cost INT, window_start TIMESTAMP(3), window_end TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:matched}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO matched
SELECT v.ad, v.region, c.cost, v.window_start, v.window_end
FROM (SELECT * FROM TABLE(HOP(TABLE ad_views, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '4' SECOND))) v
JOIN (SELECT * FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '4' SECOND))) c
ON v.ad = c.ad AND v.window_start = c.window_start AND v.window_end = c.window_end
  AND c.cost > CHAR_LENGTH(v.region);
