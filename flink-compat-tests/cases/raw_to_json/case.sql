CREATE TABLE lines (line STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:lines}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'raw');
CREATE TABLE parsed (line STRING, len INT, first_word STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:parsed}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO parsed SELECT line, CHAR_LENGTH(line), SPLIT_INDEX(line, ' ', 0) FROM lines;
