-- ====================================================================
-- date_trunc and more date parts of timestamp and timestamptz columns on
-- ClickHouse 18.16 (dates); the body, shared with modern_dates.sql (the
-- 26.5 engine), is sql/include/dates.sql. Here x1 is a DateTime in
-- Asia/Kolkata and x2 a Date (the 26.5 twin: DateTime64(6), Date32). Then
-- the range ends: 18.16's date parts end inside 2106-02-06, so the last
-- days of DateTime's range raise 22008 (before: throwIf's P0001). Live.
-- ====================================================================
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
\set ch_db regress
CREATE SERVER ch_dt FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_dt;
SELECT clickhouse_exec('ch_dt', 'DROP TABLE IF EXISTS regress.' || t)
  FROM unnest(ARRAY['dts', 'dts_end']) t;
SELECT clickhouse_exec('ch_dt', 'CREATE TABLE regress.dts (id Int32, t DateTime(''Europe/Berlin''), u DateTime, n Nullable(DateTime(''America/New_York'')), d Date, x1 DateTime(''Asia/Kolkata''), x2 Date) ENGINE = MergeTree ORDER BY id');
-- edge instants (UTC epochs): 1970-01-01 00:00:00 and 00:00:01, 1970-01-01
-- 23:59:59, 1970-01-04 and -05, 2000-02-29 12:30, 2020-02-29, Berlin's DST
-- changes of 2020 (03-29 00:59:59/01:00 and 10-25 00:59:59/01:00 UTC),
-- 2038-01-19 03:14:08, 2016-12-31 23:59:59, 2105-12-31 23:59:59, 2106-02-04
-- 23:59:59 (the last second 18.16 computes parts of); dates likewise; n
-- and x1 from where 18.16's table of days begins in their zones (1970-01-01
-- 00:00 local: 18000 in New York; 66600, Kolkata's first local midnight):
-- before that they raise (the end of this file)
SELECT clickhouse_exec('ch_dt', 'INSERT INTO regress.dts SELECT number, toDateTime(e), toDateTime(e), if(number % 5 = 3, NULL, toDateTime(greatest(e, 18000))), toDate(dd), toDateTime(greatest(e, 66600)), toDate(dd) FROM (SELECT number, [0, 1, 86399, 259200, 345600, 951827400, 1582934400, 1585443599, 1585443600, 1603587599, 1603587600, 2147483648, 1483228799, 4291747199, 4294771199][number + 1] AS e, [0, 1, 59, 789, 11016, 10957, 18321, 18322, 49672, 49707, 3, 4, 5, 6, 7][number + 1] AS dd FROM system.numbers LIMIT 15)');
-- 300 seeded pseudo-random instants over the whole range 18.16 computes
SELECT clickhouse_exec('ch_dt', 'INSERT INTO regress.dts SELECT 100 + number, toDateTime(e), toDateTime(e), if(number % 7 = 0, NULL, toDateTime(greatest(e, 18000))), toDate(intDiv(e, 86400)), toDateTime(greatest(e, 66600)), toDate(intDiv(e, 86400)) FROM (SELECT number, toUInt32((number * 2654435761 + 12345) % 4294771200) AS e FROM system.numbers LIMIT 300)');
\i sql/include/dates.sql

-- ==== the range ends: PostgreSQL-style 22008 errors (the marker guard)
\i sql/include/show_error.sql
SELECT clickhouse_exec('ch_dt', 'CREATE TABLE regress.dts_end (id Int32, t DateTime(''Europe/Berlin''), d Date, ny DateTime(''America/New_York''), k DateTime(''Asia/Kolkata'')) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_dt', 'INSERT INTO regress.dts_end SELECT number + 1, toDateTime([4294771200, 4294967295][number + 1]), toDate([49708, 49710][number + 1]), toDateTime([18000, 17999][number + 1]), toDateTime([66600, 66599][number + 1]) FROM system.numbers LIMIT 2');
CREATE FOREIGN TABLE dts_end (id int, t timestamp, tz timestamptz, d timestamp, ny timestamp, k timestamp)
  SERVER ch_dt OPTIONS (table 'dts_end');
ALTER FOREIGN TABLE dts_end ALTER COLUMN tz OPTIONS (ADD column_name 't');
SET timezone = 'UTC';
SELECT * FROM show_error('SELECT date_trunc(''day'', t), count(*) FROM dts_end GROUP BY 1');
SELECT * FROM show_error('SELECT id FROM dts_end WHERE extract(second FROM t) = 0');
-- (dates18) a timestamptz column's parts come from the epoch on 18.16
-- (pushdown_epoch.c): 2106-02-05 .. 2106-02-07 06:28:15 answered, as
-- PostgreSQL answers (this raised 22008 before)
SELECT id, extract(year FROM tz), date_trunc('day', tz) FROM dts_end WHERE extract(year FROM tz) = 2106 GROUP BY 1, 2, 3 ORDER BY 1;
EXPLAIN (COSTS OFF) SELECT id, extract(year FROM tz), date_trunc('day', tz) FROM dts_end WHERE extract(year FROM tz) = 2106 GROUP BY 1, 2, 3 ORDER BY 1;
SELECT * FROM show_error('SELECT date_part(''epoch'', d), count(*) FROM dts_end GROUP BY 1');
-- where 18.16's table of days begins: 1970-01-01 in the column's zone. Before
-- it (local 1969 west of UTC) its parts were wrong: toHour(toDateTime(0),
-- 'America/New_York') is 11 there, toYear 1970, so extract(year) of a
-- New York column gave 1970 for 1969-12-31 19:00 (this failed before);
-- in a zone of non-whole hours so were the first day's minutes
-- (toMinute(toDateTime(0), 'Asia/Kolkata') is 198). Those instants raise.
SET datestyle = 'ISO, YMD';
SELECT id, ny, k FROM dts_end ORDER BY id;
SELECT * FROM show_error('SELECT id FROM dts_end WHERE extract(year FROM ny) = 1969');
SELECT * FROM show_error('SELECT extract(minute FROM k), count(*) FROM dts_end GROUP BY 1');
RESET timezone;
RESET datestyle;
DROP FUNCTION show_error(text);
SELECT clickhouse_exec('ch_dt', 'DROP TABLE IF EXISTS regress.' || t)
  FROM unnest(ARRAY['dts', 'dts_end']) t;
DROP SERVER ch_dt CASCADE;
