CREATE TABLE src (id INT, name STRING, score DOUBLE, amount DECIMAL(10, 2), ok BOOLEAN, d DATE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'csv',
  'csv.ignore-parse-errors' = 'true');
CREATE TABLE dst (id INT, name STRING, score DOUBLE, amount DECIMAL(10, 2), ok BOOLEAN, d DATE) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst SELECT * FROM src;
