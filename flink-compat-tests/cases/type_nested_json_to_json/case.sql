CREATE TABLE src (`id` INT, `rr` ROW<a ARRAY<ROW<x INT, m MAP<STRING, ARRAY<INT>>>>, b ROW<c STRING, d DOUBLE>>, `mr` MAP<STRING, ROW<p DOUBLE, q ARRAY<STRING>>>, `aa` ARRAY<ARRAY<STRING>>, `am` ARRAY<MAP<STRING, INT>>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:src}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE dst (`id` INT, `rr` ROW<a ARRAY<ROW<x INT, m MAP<STRING, ARRAY<INT>>>>, b ROW<c STRING, d DOUBLE>>, `mr` MAP<STRING, ROW<p DOUBLE, q ARRAY<STRING>>>, `aa` ARRAY<ARRAY<STRING>>, `am` ARRAY<MAP<STRING, INT>>) WITH (
  'connector' = 'kafka', 'topic' = '${topic:dst}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO dst SELECT `id`, `rr`, `mr`, `aa`, `am` FROM src;
