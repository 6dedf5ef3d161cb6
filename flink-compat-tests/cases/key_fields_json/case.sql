CREATE TABLE src (id INT, region STRING, amount INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'json', 'key.fields' = 'id', 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY');
CREATE TABLE dst (region STRING, id INT, doubled INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'key.fields' = 'region;id', 'value.format' = 'json', 'value.fields-include' = 'ALL');
INSERT INTO dst SELECT region, id, amount * 2 FROM src;
