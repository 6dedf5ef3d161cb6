CREATE TABLE words (id INT, s STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:words}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE out_words (id INT, up STRING, low STRING, len INT, sub STRING, trimmed STRING,
  replaced STRING, concatenated STRING, pos INT, liked BOOLEAN) WITH (
  'connector' = 'kafka', 'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO out_words
SELECT id, UPPER(s), LOWER(s), CHAR_LENGTH(s), SUBSTRING(s, 2, 3), TRIM(s), REPLACE(s, 'a', 'ä'),
       CONCAT(s, '|', CAST(id AS STRING)), POSITION('b' IN s), s LIKE '%a_c%'
FROM words;
