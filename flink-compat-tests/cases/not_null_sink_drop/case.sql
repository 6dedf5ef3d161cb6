SET 'table.exec.sink.not-null-enforcer' = 'DROP';
CREATE TABLE src (id INT, name STRING, note STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE dst (id INT NOT NULL, name STRING NOT NULL, note STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst SELECT id, UPPER(name), note FROM src;
