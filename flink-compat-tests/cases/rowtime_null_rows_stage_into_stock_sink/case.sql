CREATE TABLE events (id INT, name STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE dst (id INT, name STRING, ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'avro', 'avro.encoding' = 'json');
INSERT INTO dst SELECT id, UPPER(name), ts FROM events WHERE id > 0;
