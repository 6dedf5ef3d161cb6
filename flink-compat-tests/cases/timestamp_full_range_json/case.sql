CREATE TABLE src (id INT, ts TIMESTAMP(3), ts9 TIMESTAMP(9), ltz TIMESTAMP_LTZ(6)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE dst (id INT, ts TIMESTAMP(3), ts9 TIMESTAMP(9), ltz TIMESTAMP_LTZ(6), next_day TIMESTAMP(3),
                  hour_of_day BIGINT, second_of_minute BIGINT, finer_is_later BOOLEAN, before_1000 BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json', 'json.timestamp-format.standard' = 'ISO-8601');
INSERT INTO dst
SELECT id, ts, ts9, ltz,
       CASE WHEN ts < TIMESTAMP '9999-12-01 00:00:00' THEN ts + INTERVAL '1' DAY END,
       EXTRACT(HOUR FROM ts), EXTRACT(SECOND FROM ts9),
       ts9 > ts, ts9 < TIMESTAMP '1000-01-01 00:00:00.000000001'
FROM src
WHERE ts IS NULL OR ts <> TIMESTAMP '2000-01-01 00:00:00';
