SET 'accelerator.window-aggregate.enabled' = 'true';
SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE';
CREATE TABLE events (k STRING, x BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '3' SECOND) WITH (
  'connector' = 'kafka', 'topic' = '${topic:events}', 'properties.bootstrap.servers' = '${bootstrap}',
  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
  'scan.watermark.emit.strategy' = 'on-event');
CREATE TABLE tumbling (k STRING, window_end TIMESTAMP(3), n BIGINT, total BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:tumbling}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
CREATE TABLE hopping (k STRING, window_end TIMESTAMP(3), hi BIGINT, lo BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${topic:hopping}', 'properties.bootstrap.servers' = '${bootstrap}',
  'format' = 'json');
EXECUTE STATEMENT SET BEGIN
INSERT INTO tumbling SELECT k, window_end, COUNT(*), SUM(x) FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND))
  GROUP BY k, window_start, window_end;
INSERT INTO hopping SELECT k, window_end, MAX(x), MIN(x) FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '15' SECOND))
  GROUP BY k, window_start, window_end;
END;
