CREATE TABLE orders (id BIGINT, customer STRING, price DECIMAL(10, 2), qty INT, note STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:orders}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE big_json (id BIGINT, customer STRING, total DECIMAL(21, 2)) WITH (
  'connector' = 'kafka', 'topic' = '${topic:big_json}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
CREATE TABLE all_csv (id BIGINT, who STRING, qty INT, note STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:all_csv}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'csv');
CREATE TABLE small_avro (id BIGINT, price DECIMAL(10, 2), half_qty INT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:small_avro}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'avro');
EXECUTE STATEMENT SET BEGIN
INSERT INTO big_json SELECT id, customer, price * qty FROM orders WHERE price * qty >= 100;
INSERT INTO all_csv SELECT id, LOWER(customer), qty, note FROM orders;
INSERT INTO small_avro SELECT id, price, qty / 2 FROM orders WHERE qty < 10 AND price IS NOT NULL;
END;
