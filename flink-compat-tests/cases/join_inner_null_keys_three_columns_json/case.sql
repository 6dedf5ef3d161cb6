SET 'accelerator.join.enabled' = 'true';
CREATE TABLE lhs (a BIGINT, b STRING, c INT, v INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:lhs}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE rhs (a BIGINT, b STRING, c INT, w STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:rhs}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE joined (a BIGINT, b STRING, c INT, v INT, w STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:joined}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO joined SELECT L.a, L.b, L.c, L.v, R.w FROM lhs AS L JOIN rhs AS R ON L.a = R.a AND L.b = R.b AND L.c = R.c;
