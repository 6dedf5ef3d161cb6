SET 'accelerator.join.enabled' = 'true';
CREATE TABLE people (kind STRING, id BIGINT, name STRING, state STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE sales (kind STRING, id BIGINT, seller BIGINT, category INT, item STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE q3 (id BIGINT, item STRING, name STRING, state STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:q3}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO q3 SELECT S.id, S.item, P.name, P.state FROM sales AS S JOIN people AS P ON S.seller = P.id WHERE S.kind = 'auction' AND P.kind = 'person' AND S.category = 10 AND P.state IN ('OR', 'ID', 'CA');
