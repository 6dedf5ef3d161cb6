-- A protobuf table whose message class is not on the classpath when the plan is made: the
-- segment stays on stock Flink (which needs the class too), saying so.
CREATE TABLE bid (auction BIGINT, price BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
  'format' = 'protobuf', 'protobuf.message-class-name' = 'com.example.NotCompiled');
CREATE TABLE out_bid (auction BIGINT, price BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_bid SELECT auction, price FROM bid;
