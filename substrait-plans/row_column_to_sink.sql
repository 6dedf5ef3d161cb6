-- A ROW column read and written as it is: the plan's root names list its nested field names after
-- it, depth first (Substrait's rule, which DataFusion's consumer enforces).
CREATE TABLE src (id INT, r ROW<a INT, inner_row ROW<s STRING, d DECIMAL(10, 3)>>, t STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_rows (id INT, r ROW<a INT, inner_row ROW<s STRING, d DECIMAL(10, 3)>>, t STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_rows SELECT id, r, t FROM src WHERE id > 1;
