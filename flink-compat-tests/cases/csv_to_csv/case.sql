CREATE TABLE readings (sensor STRING, reading DOUBLE, ok BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:readings}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'csv');
CREATE TABLE alerts (sensor STRING, reading DOUBLE, note STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:alerts}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'csv');
INSERT INTO alerts SELECT sensor, reading, CASE WHEN ok THEN 'fine, really' ELSE 'check "this"' END
FROM readings WHERE reading > 1.5 OR NOT ok;
