CREATE TABLE src (
  id INT,
  note STRING,
  kafka_partition INT METADATA FROM 'partition' VIRTUAL,
  kafka_offset BIGINT METADATA FROM 'offset' VIRTUAL,
  kafka_ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  kafka_ts_type STRING METADATA FROM 'timestamp-type' VIRTUAL,
  kafka_topic STRING METADATA FROM 'topic' VIRTUAL,
  kafka_epoch INT METADATA FROM 'leader-epoch' VIRTUAL
) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE dst (id INT, note STRING, kafka_partition INT, kafka_offset BIGINT, kafka_ts TIMESTAMP_LTZ(3),
  ts_type STRING, topic_prefix STRING, epoch INT, next_offset BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst
SELECT id, note, kafka_partition, kafka_offset, kafka_ts, kafka_ts_type, SUBSTRING(kafka_topic, 1, 22), kafka_epoch,
       kafka_offset + 1
FROM src WHERE kafka_partition = 1 OR id > 2;
