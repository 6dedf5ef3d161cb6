CREATE TABLE src (id INT, tag STRING, amount INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'json', 'key.fields' = 'id;tag', 'value.format' = 'json', 'value.fields-include' = 'ALL');
CREATE TABLE dst (id INT, tag STRING, amount INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'key.fields' = 'tag', 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY');
INSERT INTO dst SELECT id, tag, amount FROM src WHERE amount IS NULL OR amount > 0;
