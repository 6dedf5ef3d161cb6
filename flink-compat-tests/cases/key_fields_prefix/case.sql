CREATE TABLE src (k_id INT, k_region STRING, id INT, amount INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'json', 'key.fields' = 'k_id;k_region', 'key.fields-prefix' = 'k_',
  'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY');
CREATE TABLE dst (k_region STRING, id INT, total INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'key.fields' = 'k_region', 'key.fields-prefix' = 'k_',
  'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY');
INSERT INTO dst SELECT k_region, k_id, amount * 10 FROM src;
