CREATE TABLE src (
  id INT,
  msg_key STRING,
  kafka_partition INT METADATA FROM 'partition' VIRTUAL,
  kafka_offset BIGINT METADATA FROM 'offset' VIRTUAL,
  kafka_ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  hdrs MAP<STRING, BYTES> METADATA FROM 'headers'
) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'key.format' = 'raw', 'key.fields' = 'msg_key', 'value.format' = 'json',
  'value.fields-include' = 'EXCEPT_KEY');
CREATE TABLE dst (
  id INT, msg_key STRING, kafka_partition INT, kafka_offset BIGINT, ts_text STRING, trace STRING,
  out_ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  out_headers MAP<STRING, BYTES> METADATA FROM 'headers'
) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'raw', 'key.fields' = 'msg_key', 'value.format' = 'json',
  'value.fields-include' = 'ALL');
INSERT INTO dst
SELECT id, msg_key, kafka_partition, kafka_offset, CAST(kafka_ts AS STRING),
       CAST(hdrs['trace'] AS STRING), kafka_ts, hdrs
FROM src;
