SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'accelerator.window-join.enabled' = 'true';
CREATE TABLE ad_views (ad STRING, region STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:views}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE hot_ads (ad STRING, num BIGINT, window_end TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:hot_ads}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO hot_ads
SELECT AdViews.ad, AdViews.num, AdViews.endtime
FROM (
  SELECT ad, COUNT(*) AS num, window_start AS starttime, window_end AS endtime
  FROM TABLE(HOP(TABLE ad_views, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND))
  GROUP BY ad, window_start, window_end
) AS AdViews
JOIN (
  SELECT MAX(CountViews.num) AS maxn, CountViews.starttime, CountViews.endtime
  FROM (
    SELECT COUNT(*) AS num, window_start AS starttime, window_end AS endtime
    FROM TABLE(HOP(TABLE ad_views, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND))
    GROUP BY ad, window_start, window_end
  ) AS CountViews
  GROUP BY CountViews.starttime, CountViews.endtime
) AS MaxViews
ON AdViews.starttime = MaxViews.starttime AND AdViews.endtime = MaxViews.endtime
  AND AdViews.num >= MaxViews.maxn;
