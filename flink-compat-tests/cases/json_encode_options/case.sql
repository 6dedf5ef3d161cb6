CREATE TABLE src (id INT, amount DECIMAL(12, 4), ratio DOUBLE, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), label STRING,
  attrs MAP<STRING, INT>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'json.timestamp-format.standard' = 'ISO-8601');
CREATE TABLE plain (id INT, amount DECIMAL(12, 4), ratio DOUBLE, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), label STRING,
  attrs MAP<STRING, INT>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:plain}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json', 'json.encode.decimal-as-plain-number' = 'true', 'json.encode.ignore-null-fields' = 'true',
  'json.timestamp-format.standard' = 'ISO-8601', 'json.map-null-key.mode' = 'LITERAL',
  'json.map-null-key.literal' = 'NULL_KEY');
CREATE TABLE defaults (id INT, amount DECIMAL(12, 4), ratio DOUBLE, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), label STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:defaults}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
EXECUTE STATEMENT SET BEGIN
INSERT INTO plain SELECT id, amount, ratio, ts, ltz, label, attrs FROM src;
INSERT INTO defaults SELECT id, amount, ratio, ts, ltz, label FROM src;
END;
