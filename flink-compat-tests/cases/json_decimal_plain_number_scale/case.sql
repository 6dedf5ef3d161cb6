CREATE TABLE src (id INT, amount DECIMAL(10, 2), rate DECIMAL(6, 4)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE dst (id INT, amount DECIMAL(10, 2), rate DECIMAL(6, 4)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json', 'json.encode.decimal-as-plain-number' = 'true');
INSERT INTO dst SELECT id, amount, rate FROM src;
