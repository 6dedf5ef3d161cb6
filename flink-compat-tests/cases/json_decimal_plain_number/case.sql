CREATE TABLE src (id INT, small DECIMAL(38, 18), big DECIMAL(38, 2), z DECIMAL(10, 4)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE plain (id INT, small DECIMAL(38, 18), big DECIMAL(38, 2), z DECIMAL(10, 4)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:plain}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json',
  'json.encode.decimal-as-plain-number' = 'true');
CREATE TABLE sci (id INT, small DECIMAL(38, 18), big DECIMAL(38, 2), z DECIMAL(10, 4)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:sci}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
EXECUTE STATEMENT SET BEGIN
INSERT INTO plain SELECT * FROM src;
INSERT INTO sci SELECT * FROM src;
END;
