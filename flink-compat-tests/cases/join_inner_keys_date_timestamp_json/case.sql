SET 'accelerator.join.enabled' = 'true';
CREATE TABLE readings (id INT, d DATE, t TIMESTAMP(3), v INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:readings}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE calendar (d DATE, t TIMESTAMP(3), tag STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:calendar}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE joined (id INT, d DATE, t TIMESTAMP(3), v INT, tag STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:joined}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO joined SELECT R.id, R.d, R.t, R.v, C.tag FROM readings AS R JOIN calendar AS C ON R.d = C.d AND R.t = C.t;
