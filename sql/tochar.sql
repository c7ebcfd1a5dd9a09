-- ====================================================================
-- to_char of timestamp, timestamptz and date columns on ClickHouse 18.16
-- (tochar); the body, shared with modern_tochar.sql (the 26.5 engine), is
-- sql/include/tochar.sql. Here x1 is a DateTime in Asia/Kolkata and x2 a
-- Date; to_char of timestamptz and date columns is computed from the epoch
-- on 18.16 (dates18: toUInt32 of a DateTime, toUInt16 of a Date; below).
-- Then the range ends: 18.16's date parts end inside 2106-02-06, so the
-- last days of DateTime's range raise 22008 for a timestamp column (a date
-- column is answered by PostgreSQL). Live.
-- ====================================================================
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
\set ch_db regress
CREATE SERVER ch_tc FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_tc;
SELECT clickhouse_exec('ch_tc', 'DROP TABLE IF EXISTS regress.' || t)
  FROM unnest(ARRAY['tcs', 'tcs_end']) t;
SELECT clickhouse_exec('ch_tc', 'CREATE TABLE regress.tcs (id Int32, t DateTime(''Europe/Berlin''), u DateTime, n Nullable(DateTime(''America/New_York'')), d Date, x1 DateTime(''Asia/Kolkata''), x2 Date) ENGINE = MergeTree ORDER BY id');
-- edge instants (UTC): 1970-01-01 (ISO week 1 of 1970), midnight and noon
-- (AM/PM, HH12), leap days, the years around ISO week 53 (2004-12-31 ..
-- 2005-01-03, 2008-12-29, 2009-12-31 .. 2010-01-03, 2015-12-31 ..
-- 2016-01-03), Berlin's DST changes of 2020, 2100-03-01 (no leap day in
-- 2100), the last second 18.16 computes parts of (2106-02-04 23:59:59); n
-- and x1 from where 18.16's table of days begins in their zones (18000 in
-- New York; 66600 in Kolkata); every fifth n NULL
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_tc', format('INSERT INTO regress.tcs SELECT number, toDateTime(e), toDateTime(e), if(number %% 5 = 3, NULL, toDateTime(greatest(e, 18000))), toDate(intDiv(e, 86400)), toDateTime(greatest(e, 66600)), toDate(intDiv(e, 86400)) FROM (SELECT number, [%s][number + 1] AS e FROM system.numbers LIMIT %s)',
         string_agg(extract(epoch FROM x)::bigint::text, ', ' ORDER BY o), count(*)))
  FROM unnest(ARRAY['1970-01-01 00:00:00', '1970-01-01 00:00:01', '1970-01-01 11:59:59', '1970-01-01 12:00:00',
                    '1970-01-01 23:59:59', '1970-01-04 12:00:00', '1970-01-05 00:00:00', '1972-02-29 12:00:00',
                    '1976-12-31 23:59:59', '1999-12-31 23:59:59', '2000-01-01 00:00:00', '2000-02-29 12:30:00',
                    '2004-12-31 12:00:00', '2005-01-01 00:00:00', '2005-01-02 23:59:59', '2005-01-03 00:00:00',
                    '2008-12-29 06:00:00', '2009-12-31 18:00:00', '2010-01-03 12:00:00', '2012-01-01 00:00:00',
                    '2015-12-31 00:00:00', '2016-01-03 23:00:00', '2020-02-29 00:00:00', '2020-03-29 00:59:59',
                    '2020-03-29 01:00:00', '2020-10-25 00:59:59', '2020-10-25 01:00:00', '2021-01-03 11:00:00',
                    '2038-01-19 03:14:08', '2099-12-31 23:59:59', '2100-03-01 00:00:00', '2104-02-29 12:00:00',
                    '2105-12-31 23:59:59', '2106-02-04 23:59:59']::timestamptz[]) WITH ORDINALITY v(x, o);
-- 300 seeded pseudo-random instants over the whole range 18.16 computes
SELECT clickhouse_exec('ch_tc', 'INSERT INTO regress.tcs SELECT 100 + number, toDateTime(e), toDateTime(e), if(number % 7 = 0, NULL, toDateTime(greatest(e, 18000))), toDate(intDiv(e, 86400)), toDateTime(greatest(e, 66600)), toDate(intDiv(e, 86400)) FROM (SELECT number, toUInt32((number * 2654435761 + 12345) % 4294771200) AS e FROM system.numbers LIMIT 300)');
RESET timezone;
-- the columns sent here: all six; timestamptz and date from the epoch
-- (dates18; before, they stayed local on 18.16, whose date parts raise over
-- the last days of DateTime's range and a Date's from 2106-02-05 on)
SET tc.cols = 't,u,n,d,x1,x2';
SET tc.cols_any_zone = 't,n,x1,d::timestamp,x2::timestamp';
\i sql/include/tochar.sql
SET timezone = 'UTC';
-- (dates18: one Foreign Scan; before, the timestamptz and date parts were local)
EXPLAIN (COSTS OFF) SELECT id, to_char(u, 'YYYY Mon'), to_char(d, 'YYYY Mon'), to_char(x2::timestamp, 'YYYY Mon') FROM tcs GROUP BY 1, 2, 3, 4;
RESET timezone;
RESET tc.cols;
RESET tc.cols_any_zone;

-- ==== the range ends: PostgreSQL-style 22008 errors (the marker guards)
\i sql/include/show_error.sql
SELECT clickhouse_exec('ch_tc', 'CREATE TABLE regress.tcs_end (id Int32, t DateTime(''Europe/Berlin''), d Date, ny DateTime(''America/New_York'')) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_tc', 'INSERT INTO regress.tcs_end SELECT number + 1, toDateTime([4294771200, 4294967295][number + 1]), toDate([49708, 49710][number + 1]), toDateTime([18000, 17999][number + 1]) FROM system.numbers LIMIT 2');
CREATE FOREIGN TABLE tcs_end (id int, t timestamp, d date, ny timestamp) SERVER ch_tc OPTIONS (table 'tcs_end');
SET timezone = 'UTC';
SELECT * FROM show_error('SELECT to_char(t, ''YYYY-MM-DD''), count(*) FROM tcs_end GROUP BY 1') WHERE field <> 'context';
-- a date column is computed from its day number (dates18): no error, row 1
-- (2106-02-05) and 2 (2106-02-07), as PostgreSQL answers
SELECT * FROM show_error('SELECT id FROM tcs_end WHERE to_char(d, ''YYYY'') = ''2106''') WHERE field <> 'context';
SELECT id, to_char(d, 'YYYY-MM-DD Dy') FROM tcs_end WHERE to_char(d, 'YYYY') = '2106' ORDER BY id;
SELECT * FROM show_error('SELECT id FROM tcs_end WHERE to_char(ny, ''YYYY'') = ''1969''') WHERE field <> 'context';
RESET timezone;
DROP FUNCTION show_error(text);
SELECT clickhouse_exec('ch_tc', 'DROP TABLE IF EXISTS regress.' || t)
  FROM unnest(ARRAY['tcs', 'tcs_end']) t;
DROP SERVER ch_tc CASCADE;
