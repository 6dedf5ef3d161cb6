CREATE TABLE src (id INT, v STRING, n INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE merged (id INT, v STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:merged}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO merged
SELECT id, UPPER(v) FROM src WHERE n > 0
UNION ALL SELECT id * 10, v FROM src WHERE n < 5
UNION ALL SELECT id + 1000, CONCAT(v, '!') FROM src WHERE n IS NULL OR n = 3;
