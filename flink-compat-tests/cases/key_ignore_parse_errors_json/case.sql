CREATE TABLE src (id INT, amount INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'json', 'key.fields' = 'id', 'key.json.ignore-parse-errors' = 'true', 'value.json.ignore-parse-errors' = 'true', 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY');
CREATE TABLE dst (id INT, amount INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'value.format' = 'json');
INSERT INTO dst SELECT id, amount FROM src;
