CREATE TABLE src (v STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw',
  'raw.charset' = 'ISO-8859-1');
CREATE TABLE dst (v STRING, n INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
CREATE TABLE back (v STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:back}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'raw',
  'raw.charset' = 'UTF-16LE');
EXECUTE STATEMENT SET BEGIN
INSERT INTO dst SELECT v, CHAR_LENGTH(v) FROM src;
INSERT INTO back SELECT v FROM src;
END;
