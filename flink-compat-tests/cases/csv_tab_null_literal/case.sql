CREATE TABLE src (id INT, name STRING, tags ARRAY<STRING>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'csv',
  'csv.field-delimiter' = '\t', 'csv.null-literal' = '\N');
CREATE TABLE dst (id INT, name STRING, tags ARRAY<STRING>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'csv',
  'csv.field-delimiter' = '\t', 'csv.null-literal' = '\N', 'csv.quote-character' = '''', 'csv.array-element-delimiter' = ';');
INSERT INTO dst SELECT * FROM src;
