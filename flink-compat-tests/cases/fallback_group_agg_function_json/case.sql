SET 'accelerator.group-aggregate.enabled' = 'true';
CREATE TABLE events (k STRING, x BIGINT, i INT, d DOUBLE, m DECIMAL(10, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE extremes (i STRING, n BIGINT, first_k STRING, PRIMARY KEY (i) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:extremes}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO extremes SELECT CAST(i AS STRING), COUNT(*), FIRST_VALUE(k) FROM events GROUP BY CAST(i AS STRING);
