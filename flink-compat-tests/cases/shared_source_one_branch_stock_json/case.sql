CREATE TABLE bid (auction BIGINT, price BIGINT, url STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:bid}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE channels (auction BIGINT, channel STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:channels}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
CREATE TABLE doubled (auction BIGINT, price BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:doubled}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
EXECUTE STATEMENT SET BEGIN
INSERT INTO channels SELECT auction, REGEXP_EXTRACT(url, 'channel_id=(.*)', 1) FROM bid;
INSERT INTO doubled SELECT auction, price * 2 FROM bid WHERE price > 10;
END;
