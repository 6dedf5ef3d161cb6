SET 'accelerator.top-n.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE people (g INT, name STRING, v INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:people}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE firsts (g INT, rn BIGINT, name STRING, v INT, PRIMARY KEY (g, rn) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:firsts}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO firsts SELECT g, rn, name, v FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY g ORDER BY name ASC) AS rn
  FROM people WHERE g IS NOT NULL) WHERE rn <= 3;
