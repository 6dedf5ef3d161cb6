CREATE TABLE src (k STRING, id INT, name STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'raw', 'key.fields' = 'k', 'value.format' = 'csv', 'value.fields-include' = 'EXCEPT_KEY');
CREATE TABLE dst (k STRING, id INT, name STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'raw', 'key.fields' = 'k', 'value.format' = 'csv', 'value.fields-include' = 'ALL');
INSERT INTO dst SELECT UPPER(k), id, name FROM src;
