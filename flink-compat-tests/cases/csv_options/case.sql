CREATE TABLE src (id INT, name STRING, score DOUBLE, tags ARRAY<STRING>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'csv',
  'csv.field-delimiter' = ';', 'csv.quote-character' = '''', 'csv.null-literal' = 'N/A',
  'csv.allow-comments' = 'true', 'csv.ignore-parse-errors' = 'true', 'csv.array-element-delimiter' = '|');
CREATE TABLE dst (id INT, name STRING, score DOUBLE, tags ARRAY<STRING>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}', 'format' = 'csv',
  'csv.field-delimiter' = '|', 'csv.null-literal' = 'NULL', 'csv.array-element-delimiter' = ',',
  'csv.escape-character' = '\', 'csv.disable-quote-character' = 'true');
INSERT INTO dst SELECT id, name, score, tags FROM src;
