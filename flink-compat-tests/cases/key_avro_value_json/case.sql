CREATE TABLE src (id INT, name STRING, amount DECIMAL(8, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'json', 'key.fields' = 'id', 'value.format' = 'json', 'value.fields-include' = 'ALL');
CREATE TABLE dst (id INT, name STRING, amount DECIMAL(8, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'avro', 'key.fields' = 'id;name', 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY');
INSERT INTO dst SELECT id, name, amount FROM src;
