CREATE TABLE a (id INT, v STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:a}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE b (id INT, v STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:b}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE merged (id INT, v STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:merged}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO merged SELECT id, UPPER(v) FROM a UNION ALL SELECT id * 10, v FROM b WHERE id > 1;
