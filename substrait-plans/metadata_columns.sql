-- Kafka metadata columns read beside the value.
CREATE TABLE src (
  id INT,
  note STRING,
  kafka_partition INT METADATA FROM 'partition' VIRTUAL,
  kafka_offset BIGINT METADATA FROM 'offset' VIRTUAL,
  kafka_ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'
) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_rows (id INT, note STRING, kafka_partition INT, kafka_offset BIGINT, kafka_ts TIMESTAMP_LTZ(3),
  next_offset BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows SELECT id, note, kafka_partition, kafka_offset, kafka_ts, kafka_offset + 1 FROM src;
