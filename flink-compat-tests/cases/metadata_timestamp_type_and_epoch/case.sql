CREATE TABLE src (id INT,
  ts_type STRING METADATA FROM 'timestamp-type' VIRTUAL,
  epoch INT METADATA FROM 'leader-epoch' VIRTUAL,
  tpc STRING METADATA FROM 'topic' VIRTUAL,
  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp') WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'json');
CREATE TABLE dst (id INT, ts_type STRING, epoch INT, topic_known BOOLEAN, ts_ms BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst SELECT id, ts_type, epoch, tpc LIKE '%-src-%', UNIX_TIMESTAMP(CAST(ts AS STRING)) FROM src;
