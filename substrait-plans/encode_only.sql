-- Encode stage without a Calc: a raw source in a charset other than UTF-8 stays stock Flink and
-- feeds the Kafka json sink directly; only the json encoding runs accelerated, over Flink's rows.
CREATE TABLE src (line STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw',
  'raw.charset' = 'ISO-8859-1');
CREATE TABLE out_lines (line STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_lines SELECT line FROM src;
