-- Encode stage: a regular join of two append-only streams (stock Flink: joins are not accelerated
-- yet) feeds a Calc and a Kafka json sink; the Calc and the sink's json encoding run accelerated
-- over the join's rows.
CREATE TABLE person (id BIGINT, name STRING, state STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:person}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE auction (id BIGINT, seller BIGINT, category BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:auction}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_join (name STRING, auction BIGINT, big BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_join
SELECT UPPER(P.name), A.id * 10, A.category > 2 FROM auction AS A INNER JOIN person AS P ON A.seller = P.id;
