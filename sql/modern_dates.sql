-- ====================================================================
-- date_trunc and more date parts of timestamp and timestamptz columns on
-- the ClickHouse 26.5 engine (chDB behind test/chdb/front.py, a test
-- harness, not a server); the body, shared with dates.sql, is
-- sql/include/dates.sql. Here x1 is a DateTime64(6) in Europe/Berlin with
-- microseconds from 1900-01-02 to 2299-12-30 and x2 a Date32 from
-- 1900-01-01 to 2299-12-31. Then the range ends of DateTime64 in a zone
-- other than UTC and DateTime64(9)'s rounding to microseconds. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_dt FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_dt;
SELECT clickhouse_exec('ch_dt', 'DROP TABLE IF EXISTS regress_modern.' || t)
  FROM unnest(ARRAY['dts', 'dts_end', 'dts9']) t;
SELECT clickhouse_exec('ch_dt', 'CREATE TABLE regress_modern.dts (id Int32, t DateTime(''Europe/Berlin''), u DateTime, n Nullable(DateTime(''America/New_York'')), d Date, x1 DateTime64(6, ''Europe/Berlin''), x2 Date32) ENGINE = MergeTree ORDER BY id');
-- edge instants as in dates.sql; x1 and x2 at 1900-01-02 (x2: 1900-01-01),
-- 1950-06-15 12:34:56.789012, 1969-12-31 23:59:59.999999 UTC,
-- 1970-01-01 00:00:00.5, the leap days 1900-02-28 (no leap day), 2000-02-29,
-- 2104-02-29, 2200-02-28, 2299-12-30 23:59:59.999999 (x2: 2299-12-31)
SELECT clickhouse_exec('ch_dt', 'INSERT INTO regress_modern.dts SELECT number, toDateTime(e), toDateTime(e), if(number % 5 = 3, NULL, toDateTime(e)), toDate(dd), fromUnixTimestamp64Micro(x, ''Europe/Berlin''), toDate32(addDays(toDate32(''1900-01-01''), xd)) FROM (SELECT number, [0, 1, 86399, 259200, 345600, 951827400, 1582934400, 1585443599, 1585443600, 1603587599, 1603587600, 2147483648, 1483228799, 4291747199, 4294771199][number + 1] AS e, [0, 1, 59, 789, 11016, 10957, 18321, 18322, 49672, 49707, 3, 4, 5, 6, 7][number + 1] AS dd, toInt64([-2208902400000000, -616850703210988, -1, 500000, -2203891200000000, 951782400000000, 4233081600000000, 7263216000000000, 10413705599999999, 1585443599999999, 1603587600000001, 0, 999999, -2208902399000001, 10413619200000000][number + 1]) AS x, [0, 18327, 25566, 25567, 58, 36583, 74172, 109571, 146096, 146095, 1, 365, 366, 25202, 40000][number + 1] AS xd FROM system.numbers LIMIT 15)');
-- 300 seeded pseudo-random instants (x1: microseconds over 1900-01-02 ..
-- 2299-12-30; x2: days over Date32's range)
SELECT clickhouse_exec('ch_dt', 'INSERT INTO regress_modern.dts SELECT 100 + number, toDateTime(e), toDateTime(e), if(number % 7 = 0, NULL, toDateTime(e)), toDate(intDiv(e, 86400)), fromUnixTimestamp64Micro(toInt64(-2208902400000000 + (number * 2654435761 * 1000003 + 777) % 12622608000000000), ''Europe/Berlin''), toDate32(addDays(toDate32(''1900-01-01''), toInt32((number * 40503 + 11) % 146097))) FROM (SELECT number, toUInt32((number * 2654435761 + 12345) % 4294771200) AS e FROM system.numbers LIMIT 300)');
\i sql/include/dates.sql

-- ==== the range ends: PostgreSQL-style 22008 errors (the marker guard)
\i sql/include/show_error.sql
-- DateTime64's first and last day in another zone than UTC: their wall
-- times fall outside what ClickHouse computes parts of
SELECT clickhouse_exec('ch_dt', 'CREATE TABLE regress_modern.dts_end (id Int32, t DateTime64(3, ''Asia/Kolkata'')) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_dt', 'INSERT INTO regress_modern.dts_end VALUES (1, ''1900-01-01 05:30:00''), (2, ''2300-01-01 05:29:59'')');
CREATE FOREIGN TABLE dts_end (id int, t timestamp) SERVER ch_dt OPTIONS (table 'dts_end');
SELECT * FROM show_error('SELECT date_trunc(''day'', t), count(*) FROM dts_end GROUP BY 1');
SELECT * FROM show_error('SELECT id FROM dts_end WHERE extract(doy FROM t) > 0');
-- DateTime64(9) is read rounded half to even to microseconds, and its date
-- parts are those of the rounded value (dt64.c), also where that carries
-- into the next second (id 5): compared with a local copy
SELECT clickhouse_exec('ch_dt', 'CREATE TABLE regress_modern.dts9 (id Int32, t DateTime64(9, ''UTC'')) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_dt', 'INSERT INTO regress_modern.dts9 VALUES (1, ''2000-01-01 00:00:00.000000500''), (2, ''2000-01-01 00:00:00.000001500''), (3, ''1950-01-01 00:00:00.123456789''), (4, ''1969-12-31 23:59:59.000000501''), (5, ''2000-01-01 00:00:59.9999996'')');
CREATE FOREIGN TABLE dts9 (id int, t timestamp) SERVER ch_dt OPTIONS (table 'dts9');
CREATE TABLE dts9_l AS SELECT * FROM dts9;
SET datestyle = 'ISO, YMD';
SELECT id, t FROM dts9 ORDER BY id;
SELECT extract(microseconds FROM t) AS us, date_part('epoch', t) AS e, count(*) FROM dts9 WHERE id < 5 GROUP BY 1, 2 ORDER BY 1;
SELECT extract(microseconds FROM t) AS us, date_part('epoch', t) AS e, count(*) FROM dts9_l WHERE id < 5 GROUP BY 1, 2 ORDER BY 1;
\i sql/include/diff_check.sql
SELECT q, c.pushed, c.same, c.nrows, c.err FROM unnest(ARRAY[
  'SELECT date_part(''second'', t), count(*) FROM dts9 GROUP BY 1',
  'SELECT date_trunc(''second'', t), count(*) FROM dts9 GROUP BY 1',
  'SELECT date_trunc(''minute'', t), count(*) FROM dts9 GROUP BY 1',
  'SELECT extract(minute FROM t), extract(microseconds FROM t), count(*) FROM dts9 GROUP BY 1, 2',
  'SELECT id FROM dts9 WHERE date_part(''second'', t) = 0',
  'SELECT id FROM dts9 WHERE date_trunc(''minute'', t) = ''2000-01-01 00:01:00'''
]) q, diff_check(q, 'dts9', '(Aggregate|Sort|Filter)', false, true) c;
DROP TABLE dts9_l;
RESET datestyle;
DROP FUNCTION show_error(text);
SELECT clickhouse_exec('ch_dt', 'DROP TABLE IF EXISTS regress_modern.' || t)
  FROM unnest(ARRAY['dts', 'dts_end', 'dts9']) t;
DROP SERVER ch_dt CASCADE;
