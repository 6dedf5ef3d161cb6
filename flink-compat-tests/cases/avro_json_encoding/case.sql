CREATE TABLE src (id INT, name STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3), tags ARRAY<STRING>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE dst (id INT, name STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3), tags ARRAY<STRING>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'avro',
  'avro.encoding' = 'json');
INSERT INTO dst SELECT * FROM src;
