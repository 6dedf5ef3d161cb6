-- A csv source (semicolons, a null literal, bad records skipped) filtered and written as json.
CREATE TABLE src (id BIGINT, name STRING, price DECIMAL(10, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'csv',
  'csv.field-delimiter' = ';', 'csv.null-literal' = 'NULL', 'csv.ignore-parse-errors' = 'true');
CREATE TABLE out_rows (id BIGINT, name STRING, price DECIMAL(10, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows SELECT id, name, price FROM src WHERE id IS NOT NULL;
