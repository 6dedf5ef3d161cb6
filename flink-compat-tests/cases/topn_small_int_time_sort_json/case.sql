SET 'accelerator.top-n.enabled' = 'true';
SET 'accelerator.encode-stages.upsert.enabled' = 'true';
CREATE TABLE events (k STRING, t TINYINT, s SMALLINT, tm TIME(0), v INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE tops (k STRING, rn BIGINT, t TINYINT, s SMALLINT, tm TIME(0), v INT, PRIMARY KEY (k, rn) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${topic:tops}', 'properties.bootstrap.servers' = '${bootstrap}',
  'key.format' = 'json', 'value.format' = 'json');
INSERT INTO tops SELECT k, rn, t, s, tm, v FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k
  ORDER BY t DESC NULLS LAST, s ASC, tm DESC) AS rn FROM events WHERE k IS NOT NULL) WHERE rn <= 3;
