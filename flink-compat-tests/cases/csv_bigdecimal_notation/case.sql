CREATE TABLE src (id INT, small DECIMAL(38, 18), big DECIMAL(38, 0)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE sci (id INT, small DECIMAL(38, 18), big DECIMAL(38, 0)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:sci}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'csv');
CREATE TABLE plain (id INT, small DECIMAL(38, 18), big DECIMAL(38, 0)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:plain}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'csv',
  'csv.write-bigdecimal-in-scientific-notation' = 'false');
EXECUTE STATEMENT SET BEGIN
INSERT INTO sci SELECT * FROM src;
INSERT INTO plain SELECT * FROM src;
END;
