CREATE TABLE src (region STRING, id INT, amount INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'csv', 'key.fields' = 'region;id', 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY');
CREATE TABLE dst (region STRING, id INT, amount INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'csv', 'key.fields' = 'id;region', 'value.format' = 'csv', 'value.fields-include' = 'ALL');
INSERT INTO dst SELECT region, id, amount FROM src;
