-- ====================================================================
-- Pushdown on a ClickHouse 26.5 engine (chDB behind test/chdb/front.py, a
-- test harness, not a server): the SQL the FDW generates for aggregates,
-- HAVING and use_remote_estimate gives PostgreSQL's answers there too
-- (each query is also run on a local copy). Live (see modern_types.sql).
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
CREATE SERVER ch_mpd FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress_modern');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_mpd;
SET datestyle = 'ISO, YMD';
SELECT clickhouse_exec('ch_mpd', 'DROP TABLE IF EXISTS regress_modern.mpd');
SELECT clickhouse_exec('ch_mpd',
  'CREATE TABLE regress_modern.mpd (id UInt32, g Nullable(Int32), i Nullable(Int64), f Nullable(Float64), d Nullable(Date)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_mpd', 'INSERT INTO regress_modern.mpd VALUES
  (1, NULL, NULL, NULL, NULL), (2, 1, 0, 0, ''2020-01-01''), (3, 1, -5, -1.5, ''2020-01-01''),
  (4, 2, 7, 2.5, ''2020-01-02''), (5, 2, 9223372036854775807, 100, NULL),
  (6, 3, -9223372036854775808, nan, ''2020-01-03''), (7, 3, 3, inf, ''2020-01-03''),
  (8, 4, NULL, NULL, ''2020-01-04''), (9, 4, NULL, 1, ''2020-01-04''), (10, NULL, 4, -inf, NULL)');
CREATE FOREIGN TABLE mpd (id int, g int, i bigint, f float8, d date) SERVER ch_mpd;
CREATE TABLE mpd_local AS SELECT * FROM mpd;

-- HAVING with NULL sums, bigint sums past int64, NaN
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT g, sum(i), count(*) FROM mpd GROUP BY g HAVING NOT (sum(i) > 5) OR sum(i) IS NULL;
SELECT g, sum(i), count(*) FROM mpd GROUP BY g HAVING NOT (sum(i) > 5) OR sum(i) IS NULL ORDER BY g;
SELECT g, sum(i), count(*) FROM mpd_local GROUP BY g HAVING NOT (sum(i) > 5) OR sum(i) IS NULL ORDER BY g;
SELECT g, sum(i) FROM mpd GROUP BY g HAVING sum(i) > 5 ORDER BY g;
SELECT g, sum(i) FROM mpd_local GROUP BY g HAVING sum(i) > 5 ORDER BY g;
SELECT d, sum(f) FROM mpd GROUP BY d HAVING sum(f) > 1 AND max(id) IS NOT NULL ORDER BY d;
SELECT d, sum(f) FROM mpd_local GROUP BY d HAVING sum(f) > 1 AND max(id) IS NOT NULL ORDER BY d;
SELECT count(*) FROM mpd HAVING count(*) > 3;
SELECT count(*) FROM mpd HAVING count(*) > 30;

-- use_remote_estimate: the row count from system.parts
ALTER FOREIGN TABLE mpd OPTIONS (ADD use_remote_estimate 'on');
EXPLAIN SELECT * FROM mpd;


-- date parts of DateTime64 and Date32 across their whole range (1900-2299), under
-- UTC: the fields sent agree with PostgreSQL; date_trunc, timestamptz::date and
-- doy stay local (26.5 clamps toStartOfMonth() of 1950 to 1970 and says doy 364
-- for 2299-12-31)
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_mpd', 'DROP TABLE IF EXISTS regress_modern.mpd64');
SELECT clickhouse_exec('ch_mpd',
  'CREATE TABLE regress_modern.mpd64 (id UInt32, ts DateTime64(6, ''UTC''), d Date32) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_mpd', 'INSERT INTO regress_modern.mpd64 VALUES
  (1, ''1900-01-01 00:00:00'', ''1900-01-01''), (2, ''1950-06-15 12:34:56.789'', ''1950-06-15''),
  (3, ''1969-12-31 23:59:59.999999'', ''1969-12-31''), (4, ''2200-12-31 12:00:00'', ''2200-12-31''),
  (5, ''2299-12-31 23:00:00'', ''2299-12-31'')');
CREATE FOREIGN TABLE mpd64 (id int, ts timestamptz, d date) SERVER ch_mpd;
CREATE TABLE mpd64_local AS SELECT * FROM mpd64;
SELECT * FROM mpd64 ORDER BY id;
\i sql/include/pushdown_check.sql
SELECT c.* FROM unnest(ARRAY[
  'extract(year from ts) = 1950', 'extract(month from ts) = 12', 'extract(hour from ts) = 23',
  'extract(week from ts) = 52', 'extract(isoyear from ts) = 2201', 'extract(quarter from ts) = 4',
  'extract(year from d) < 1970', 'extract(dow from d) = 1', 'extract(isodow from d) = 7', 'extract(week from d) = 1',
  'date_trunc(''month'', ts) = ''1950-06-01 00:00:00+00''', 'ts::date = ''2299-12-31''',
  'extract(doy from d) = 365', 'extract(doy from ts) = 365', 'extract(dow from ts) = 0',
  'ts < ''1960-01-01 00:00:00+00''', 'ts > ''2250-01-01 00:00:00.5+00''', 'd < ''1950-01-01''', 'd > ''2200-01-01'''
]) p, pd_check(p, 'mpd64', 'mpd64_local') c;
DROP FUNCTION pd_check(text, text, text);
DROP TABLE mpd64_local;
DROP TABLE mpd_local;
DROP SERVER ch_mpd CASCADE;
