CREATE TABLE src (id INT, kind STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE dst (id INT, kind STRING,
  tpc STRING METADATA FROM 'topic') WITH (
  'connector' = 'kafka', 'topic' = '${topic:odd};${topic:even}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst SELECT id, kind, CASE WHEN kind = 'odd' THEN '${topic:odd}' ELSE '${topic:even}' END FROM src;
