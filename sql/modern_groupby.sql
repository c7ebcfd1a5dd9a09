-- ====================================================================
-- GROUP BY expressions, the HAVING split and partition-wise aggregation on
-- the ClickHouse 26.5 engine (chDB behind test/chdb/front.py, a test
-- harness, not a server); the body, shared with groupby.sql, is
-- sql/include/groupby.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_gb FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE SERVER ch_gb2 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_gb;
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_gb2;
\i sql/include/groupby.sql
-- DateTime64 (with and without a zone) and the end of DateTime's range on
-- the 26.5 engine: date parts of timestamp columns from 1900 to 2299,
-- compared with the local copy, in a session zone that is neither
SET timezone = 'America/New_York';
SET datestyle = 'ISO, YMD';
SELECT clickhouse_exec('ch_gb', 'DROP TABLE IF EXISTS regress_modern.gbt64');
SELECT clickhouse_exec('ch_gb', 'CREATE TABLE regress_modern.gbt64 (id Int32, t3 DateTime64(3), t6 DateTime64(6, ''Asia/Kolkata''), te DateTime(''Pacific/Kiritimati''), dd Date32) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_gb', 'INSERT INTO regress_modern.gbt64 SELECT number, toDateTime64(arrayElement(a, number % length(a) + 1), 3, ''UTC''), toDateTime64(arrayElement(a, (number * 7) % length(a) + 1), 6, ''UTC''), toDateTime(toUInt32(number * 2654435761 % 4294967296)), toDate32(toDateTime64(arrayElement(a, (number * 5) % length(a) + 1), 3, ''UTC'')) FROM numbers(120) ARRAY JOIN [[''1900-01-01 00:00:00'', ''1900-12-31 23:59:59.999'', ''1950-06-15 12:34:56.789'', ''1969-12-29 00:00:00'', ''1969-12-31 23:59:59.999'', ''1970-01-04 23:00:00'', ''2000-02-29 18:30:00'', ''2105-12-31 23:59:59'', ''2106-02-07 06:28:15'', ''2106-02-08 00:00:00'', ''2149-06-06 12:00:00'', ''2200-03-01 00:00:00'', ''2299-12-31 23:59:59.999'']] AS a');
CREATE FOREIGN TABLE gbt64 (id int, t3 timestamp, t6 timestamp, te timestamp, dd timestamp) SERVER ch_gb OPTIONS (table 'gbt64');
CREATE TABLE gbt64_l AS SELECT * FROM gbt64;
SELECT min(t3), max(t3), min(t6), max(t6), min(te), max(te), min(dd), max(dd) FROM gbt64;
CREATE FUNCTION gb64_diff(q text, OUT pushed boolean, OUT missing bigint, OUT extra bigint)
LANGUAGE plpgsql AS $$
DECLARE
  plan text;
BEGIN
  EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) t', format(q, 'gbt64_l'), format(q, 'gbt64')) INTO missing;
  EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) t', format(q, 'gbt64'), format(q, 'gbt64_l')) INTO extra;
  EXECUTE 'EXPLAIN (COSTS OFF) ' || format(q, 'gbt64') INTO plan;
  pushed := plan LIKE 'Foreign Scan%';
END $$;
SELECT left(q, 80) AS query, c.* FROM (VALUES
  ('SELECT extract(year FROM t3), extract(month FROM t3), extract(day FROM t3), extract(hour FROM t3), extract(minute FROM t3), count(*) FROM %s GROUP BY 1, 2, 3, 4, 5'),
  ('SELECT extract(decade FROM t3), extract(millennium FROM t3), count(*) FROM %s GROUP BY 1, 2'),
  ('SELECT extract(week FROM t3), extract(isoyear FROM t3), count(*) FROM %s GROUP BY 1, 2'),
  ('SELECT extract(year FROM te), extract(week FROM te), extract(day FROM te), extract(hour FROM te), extract(minute FROM te), count(*) FROM %s GROUP BY 1, 2, 3, 4, 5'),
  ('SELECT date_part(''year'', te), date_part(''isoyear'', te), date_part(''quarter'', t3), count(*) FROM %s GROUP BY 1, 2, 3'),
  ('SELECT id FROM %s WHERE extract(year FROM t3) < 1970 OR extract(hour FROM te) = 13'),
  -- a Date32 read as timestamp: its midnight
  ('SELECT extract(year FROM dd), extract(week FROM dd), extract(hour FROM dd), extract(isoyear FROM dd), count(*) FROM %s GROUP BY 1, 2, 3, 4')
) v(q), gb64_diff(q) c;
-- in a zone other than UTC the first and last day of DateTime64's range
-- raise (their wall times fall outside what ClickHouse computes parts of);
-- without them every part is PostgreSQL's
DO $$
BEGIN
  PERFORM extract(week FROM t6), count(*) FROM gbt64 GROUP BY 1;
  RAISE NOTICE 'no error';
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE '% %', SQLSTATE, left(SQLERRM, 42);
END $$;
SELECT left(q, 80) AS query, c.* FROM (VALUES
  ('SELECT extract(quarter FROM t6), extract(week FROM t6), extract(isoyear FROM t6), extract(hour FROM t6), count(*) FROM %s WHERE id %% 13 <> 0 AND id %% 13 <> 11 GROUP BY 1, 2, 3, 4')
) v(q), gb64_diff(q) c;
DROP FUNCTION gb64_diff(text);
DROP TABLE gbt64_l;
SELECT clickhouse_exec('ch_gb', 'DROP TABLE regress_modern.gbt64');
RESET timezone;
DROP SERVER ch_gb CASCADE;
DROP SERVER ch_gb2 CASCADE;
