CREATE TABLE events (kind STRING, v INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE labelled (kind STRING, label STRING, v2 INT, is_null BOOLEAN, fallback INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:labelled}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO labelled
SELECT kind,
       CASE WHEN v IS NULL THEN 'none' WHEN v < 0 THEN 'negative' WHEN v BETWEEN 0 AND 9 THEN 'small' ELSE 'big' END,
       CASE kind WHEN 'a' THEN v * 10 WHEN 'b' THEN NULL ELSE v END,
       v IS NULL,
       COALESCE(v, -1)
FROM events;
