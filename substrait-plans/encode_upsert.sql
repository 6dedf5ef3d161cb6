-- Encode stage of an upsert-kafka sink: a stock group aggregate's upserts keyed by the primary
-- key, the key csv with a 'key.fields-prefix', the value json without the key column
-- ('value.fields-include' = 'EXCEPT_KEY'). Deletes are written by Flink's own sink as tombstones.
CREATE TABLE events (k STRING, x BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE totals (k_name STRING, n BIGINT, total BIGINT, PRIMARY KEY (k_name) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:totals}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'csv', 'key.fields-prefix' = 'k_', 'value.format' = 'json',
  'value.fields-include' = 'EXCEPT_KEY');
INSERT INTO totals SELECT k, COUNT(*), SUM(x) FROM events GROUP BY k;
