CREATE TABLE src (id INT, l3 TIMESTAMP_LTZ(3), l6 TIMESTAMP_LTZ(6), l0 TIMESTAMP_LTZ(0) NOT NULL) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'avro',
  'avro.timestamp_mapping.legacy' = 'false');
CREATE TABLE dst (id INT, l3 TIMESTAMP_LTZ(3), l6 TIMESTAMP_LTZ(6), l0 TIMESTAMP_LTZ(0)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'avro', 'avro.timestamp_mapping.legacy' = 'false');
INSERT INTO dst SELECT id, l3, l6, l0 FROM src;
