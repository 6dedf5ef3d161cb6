SET 'accelerator.join.enabled' = 'true';
SET 'state.backend.type' = 'rocksdb';
CREATE TABLE payments (id BIGINT, acct BIGINT, amount DECIMAL(10, 2), memo STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:payments}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE ledger (acct BIGINT, amount DECIMAL(10, 2), label STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:ledger}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json');
CREATE TABLE joined (id BIGINT, acct BIGINT, amount DECIMAL(10, 2), memo STRING, label STRING) WITH (
  'connector' = 'kafka', 'topic' = '${topic:joined}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
INSERT INTO joined SELECT P.id, P.acct, P.amount, P.memo, L.label FROM payments AS P JOIN ledger AS L ON P.acct = L.acct AND P.amount = L.amount;
