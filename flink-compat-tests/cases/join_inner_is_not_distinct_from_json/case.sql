SET 'accelerator.join.enabled' = 'true';
CREATE TABLE lhs (id INT, k INT, item STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:lhs}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE rhs (k INT, name STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:rhs}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE joined (id INT, k INT, item STRING, name STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:joined}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO joined SELECT L.id, L.k, L.item, R.name FROM lhs AS L JOIN rhs AS R ON L.k IS NOT DISTINCT FROM R.k;
