-- ====================================================================
-- to_char of timestamp, timestamptz and date columns on the ClickHouse
-- 26.5 engine (chDB behind test/chdb/front.py, a test harness, not a
-- server); the body, shared with tochar.sql, is sql/include/tochar.sql.
-- Here x1 is a DateTime64(6) in Europe/Berlin with microseconds from
-- 1900-01-02 to 2299-12-30 and x2 a Date32 from 1900-01-01 to 2299-12-31;
-- d reaches 2149-06-06. Then the range ends of DateTime64 in a zone other
-- than UTC and DateTime64(9)'s rounding to microseconds. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_tc FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_tc;
SELECT clickhouse_exec('ch_tc', 'DROP TABLE IF EXISTS regress_modern.' || t)
  FROM unnest(ARRAY['tcs', 'tcs_end', 'tcs9']) t;
SELECT clickhouse_exec('ch_tc', 'CREATE TABLE regress_modern.tcs (id Int32, t DateTime(''Europe/Berlin''), u DateTime, n Nullable(DateTime(''America/New_York'')), d Date, x1 DateTime64(6, ''Europe/Berlin''), x2 Date32) ENGINE = MergeTree ORDER BY id');
-- edge instants (UTC) as in tochar.sql, x1 at the same instants with a
-- fraction of the row's number of microseconds, x2 on the same days
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_tc', format('INSERT INTO regress_modern.tcs SELECT number, toDateTime(e), toDateTime(e), if(number %% 5 = 3, NULL, toDateTime(e)), toDate(intDiv(e, 86400)), fromUnixTimestamp64Micro(toInt64(e) * 1000000 + number * 37, ''Europe/Berlin''), toDate32(addDays(toDate32(''1970-01-01''), toInt32(intDiv(e, 86400)))) FROM (SELECT number, [%s][number + 1] AS e FROM system.numbers LIMIT %s)',
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
-- the wider types' edges: x1 at microseconds (1900-01-02 00:00:00.000001,
-- 1900-02-28/03-01 (no leap day), 1950-06-15 12:34:56.789012, 1969-12-29
-- (ISO week 1 of 1970), 1969-12-31 23:59:59.999999, 2200-02-28 12:00,
-- 2299-12-30 23:59:59.999999), x2 at 1900-01-01, 1900-03-01, 1969-12-28,
-- 2149-06-07, 2200-02-29 (none: 03-01), 2299-12-31; d at 2149-06-06 (Date's last day)
SELECT clickhouse_exec('ch_tc', format('INSERT INTO regress_modern.tcs SELECT 50 + number, toDateTime(0), toDateTime(0), NULL, toDate(if(number = 0, 65535, 0)), fromUnixTimestamp64Micro(toInt64([%s][number + 1]), ''Europe/Berlin''), toDate32(addDays(toDate32(''1970-01-01''), toInt32([%s][number + 1]))) FROM system.numbers LIMIT %s',
         string_agg((extract(epoch FROM x) * 1000000)::bigint::text, ', ' ORDER BY o),
         string_agg((y - date '1970-01-01')::text, ', ' ORDER BY o), count(*)))
  FROM unnest(ARRAY['1900-01-02 00:00:00.000001', '1900-02-28 23:59:59', '1900-03-01 00:00:00',
                    '1950-06-15 12:34:56.789012', '1969-12-29 00:00:00', '1969-12-31 23:59:59.999999',
                    '2200-02-28 12:00:00', '2299-12-30 23:59:59.999999']::timestamptz[],
              ARRAY['1900-01-01', '1900-03-01', '1969-12-28', '2149-06-07', '2200-03-01', '2299-12-31',
                    '1999-01-01', '2299-12-30']::date[]) WITH ORDINALITY v(x, y, o);
-- 300 seeded pseudo-random instants (x1: microseconds over 1900-01-02 ..
-- 2299-12-30; x2: days over Date32's range)
SELECT clickhouse_exec('ch_tc', 'INSERT INTO regress_modern.tcs SELECT 100 + number, toDateTime(e), toDateTime(e), if(number % 7 = 0, NULL, toDateTime(e)), toDate(intDiv(e, 86400)), fromUnixTimestamp64Micro(toInt64(-2208902400000000 + (number * 2654435761 * 1000003 + 777) % 12622608000000000), ''Europe/Berlin''), toDate32(addDays(toDate32(''1900-01-01''), toInt32((number * 40503 + 11) % 146097))) FROM (SELECT number, toUInt32((number * 2654435761 + 12345) % 4294771200) AS e FROM system.numbers LIMIT 300)');
RESET timezone;
SET tc.cols = 't,u,n,d,x1,x2';
SET tc.cols_any_zone = 't,n,x1,d::timestamp,x2::timestamp';
\i sql/include/tochar.sql
RESET tc.cols;
RESET tc.cols_any_zone;

-- ==== the range ends: PostgreSQL-style 22008 errors (the marker guards)
\i sql/include/show_error.sql
-- DateTime64's first and last day in another zone than UTC: their wall
-- times fall outside what ClickHouse computes parts of
SELECT clickhouse_exec('ch_tc', 'CREATE TABLE regress_modern.tcs_end (id Int32, t DateTime64(3, ''Asia/Kolkata'')) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_tc', 'INSERT INTO regress_modern.tcs_end VALUES (1, ''1900-01-01 05:30:00''), (2, ''2300-01-01 05:29:59'')');
CREATE FOREIGN TABLE tcs_end (id int, t timestamp) SERVER ch_tc OPTIONS (table 'tcs_end');
SELECT * FROM show_error('SELECT to_char(t, ''YYYY-MM-DD''), count(*) FROM tcs_end GROUP BY 1') WHERE field <> 'context';
-- DateTime64(9) is read rounded half to even to microseconds
SELECT clickhouse_exec('ch_tc', 'CREATE TABLE regress_modern.tcs9 (id Int32, t DateTime64(9, ''UTC'')) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_tc', 'INSERT INTO regress_modern.tcs9 VALUES (1, ''2000-01-01 00:00:00.000000500''), (2, ''2000-01-01 00:00:00.000001500''), (3, ''1950-01-01 00:00:00.123456789'')');
CREATE FOREIGN TABLE tcs9 (id int, t timestamp) SERVER ch_tc OPTIONS (table 'tcs9');
SELECT id, to_char(t, 'YYYY-MM-DD HH24:MI:SS.US') FROM tcs9 WHERE to_char(t, 'SS.US') >= '00.000000' ORDER BY id;
EXPLAIN (COSTS OFF) SELECT id FROM tcs9 WHERE to_char(t, 'SS.US') >= '00.000000';
-- where the rounding carries into the next minute (id 4) or the next day
-- (id 5: PostgreSQL reads 2000-12-31 23:59:59.9999996 as 2001-01-01
-- 00:00:00), to_char, date_trunc and extract see the rounded value, as
-- PostgreSQL does (dt64.c binds such columns as their rounded
-- DateTime64(6)); before, ClickHouse's parts were of 2000-12-31 and said
-- 2000, also where they read no fraction. Compared with a local copy.
\i sql/include/diff_check.sql
SELECT clickhouse_exec('ch_tc', 'INSERT INTO regress_modern.tcs9 VALUES (4, ''2000-01-01 00:00:59.9999996''), (5, ''2000-12-31 23:59:59.9999996'')');
CREATE TABLE tcs9_l AS SELECT * FROM tcs9;
SELECT id, t FROM tcs9 ORDER BY id;
SELECT q, c.pushed, c.same, c.nrows, c.err FROM unnest(ARRAY[
  'SELECT id, to_char(t, ''SS.US'') FROM tcs9 WHERE to_char(t, ''SS.US'') >= ''00''',
  'SELECT id FROM tcs9 WHERE to_char(t, ''MI:SS'') = ''01:00''',
  'SELECT date_trunc(''day'', t), count(*) FROM tcs9 GROUP BY 1',
  'SELECT extract(year FROM t), count(*) FROM tcs9 GROUP BY 1',
  'SELECT to_char(t, ''YYYY''), count(*) FROM tcs9 GROUP BY 1',
  'SELECT t::date, count(*) FROM tcs9 GROUP BY 1',
  'SELECT id FROM tcs9 WHERE date_trunc(''year'', t) = ''2000-01-01'''
]) q, diff_check(q, 'tcs9', '(Aggregate|Sort|Filter)', false, true) c;
DROP TABLE tcs9_l;
SELECT clickhouse_exec('ch_tc', 'TRUNCATE TABLE regress_modern.tcs9');
SELECT clickhouse_exec('ch_tc', 'INSERT INTO regress_modern.tcs9 VALUES (1, ''2000-06-01 00:00:00.000000500'')');
SELECT to_char(t, 'YYYY'), count(*) FROM tcs9 GROUP BY 1;
DROP FUNCTION show_error(text);
-- ==== jsonb_array_length of read_as 'json' columns (jsonb.c): the length of
-- an array; where PostgreSQL raises 22023 (a scalar: a string, number,
-- boolean or JSON null; an object: a non-array), ClickHouse raises for that
-- row and the error is PostgreSQL's; NULL for a missing key. 18.16 has no
-- toJSONString (nothing of read_as 'json' is sent there).
SELECT clickhouse_exec('ch_tc', 'DROP TABLE IF EXISTS regress_modern.tja');
SELECT clickhouse_exec('ch_tc', 'CREATE TABLE regress_modern.tja (id Int32, n Map(String, Array(Nullable(Int64))), t Tuple(a Nullable(Int64), b String, c Array(Nullable(Int32)), d Map(String, Bool)), a Array(Map(String, Nullable(String)))) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_tc', $$INSERT INTO regress_modern.tja VALUES
  (1, map('a', [1, NULL, 3]), (1, 'x', [1, NULL, 3], map('f', true)), [map('k', 'v'), map('k', NULL)]),
  (2, map(), (NULL, '', [], map()), []),
  (3, map('b', [], 'a', [5]), (0, '', [7], map('f', false)), [map()]),
  (4, map('a', [], 'a', [1, 2]), (-5, '[1]', [NULL, NULL], map('g', true, 'f', false)), [map('k', '[]'), map(), map('x', NULL)])$$);
CREATE FOREIGN TABLE tja (id int, n jsonb OPTIONS (read_as 'json'), t jsonb OPTIONS (read_as 'json'),
                          a jsonb OPTIONS (read_as 'json')) SERVER ch_tc OPTIONS (table 'tja');
CREATE TABLE tja_l AS SELECT * FROM tja;
SELECT * FROM tja_l ORDER BY id;
CREATE FUNCTION tj_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int, OUT err text)
  LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'tja', '(Aggregate|Sort|Group|Filter|Limit)', false, true) $$;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM tja WHERE jsonb_array_length(t->'c') > 1;
-- arrays (also empty, also a Map's duplicate key: the last), missing keys
-- (NULL), as conditions and grouping keys; then the values PostgreSQL
-- raises for, compared by SQLSTATE (err) with the local copy's
SELECT q, ck.* FROM (VALUES
  ('SELECT id FROM tja WHERE jsonb_array_length(t->''c'') > 1'),
  ('SELECT id FROM tja WHERE jsonb_array_length(n->''a'') = 2 OR jsonb_array_length(n->''b'') = 0'),
  ('SELECT id FROM tja WHERE jsonb_array_length(n->''zz'') IS NULL'),
  ('SELECT id FROM tja WHERE jsonb_array_length(a) >= 2'),
  ('SELECT id FROM tja WHERE jsonb_array_length(a->5) IS NULL'),
  ('SELECT id, jsonb_array_length(a), jsonb_array_length(t->''c'') FROM tja GROUP BY 1, 2, 3'),
  ('SELECT jsonb_array_length(n->''a''), count(*) FROM tja GROUP BY 1'),
  ('SELECT id FROM tja WHERE jsonb_array_length(t->''a'') > 0'),
  ('SELECT id FROM tja WHERE jsonb_array_length(t->''b'') > 0'),
  ('SELECT id FROM tja WHERE jsonb_array_length(t->''d'') > 0'),
  ('SELECT id FROM tja WHERE jsonb_array_length(t) > 0'),
  ('SELECT id FROM tja WHERE jsonb_array_length(a->0) > 0'),
  ('SELECT id FROM tja WHERE jsonb_array_length(t->''c''->0) > 0'),
  ('SELECT jsonb_array_length(t->''d''), count(*) FROM tja GROUP BY 1')
) v(q), LATERAL tj_check(q) ck;
-- PostgreSQL's errors, with their SQLSTATE
\i sql/include/show_error.sql
SELECT * FROM show_error('SELECT id FROM tja WHERE jsonb_array_length(t->''b'') > 0') WHERE field <> 'context';
SELECT * FROM show_error('SELECT id FROM tja WHERE jsonb_array_length(t->''d'') > 0') WHERE field <> 'context';
DROP FUNCTION show_error(text);
-- kept local: where PostgreSQL may not compute it for every row (under LIMIT)
EXPLAIN (COSTS OFF) SELECT id FROM tja WHERE jsonb_array_length(t->'c') > 1 LIMIT 1;
DROP FUNCTION tj_check(text);
DROP TABLE tja_l;
SELECT clickhouse_exec('ch_tc', 'DROP TABLE regress_modern.tja');

SELECT clickhouse_exec('ch_tc', 'DROP TABLE IF EXISTS regress_modern.' || t)
  FROM unnest(ARRAY['tcs', 'tcs_end', 'tcs9']) t;
DROP SERVER ch_tc CASCADE;
