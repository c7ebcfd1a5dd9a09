-- ====================================================================
-- Answers that were wrong (issue 12, item 9) on the ClickHouse 26.5 engine
-- (chDB behind test/chdb/front.py, a test harness, not a server). The
-- body, shared with answers.sql (18.16), is sql/include/answers.sql; then
-- what only 26.5 has: arrays of tuples, DateTime64, versioned aggregate
-- states. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_ans FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_ans;
\i sql/include/answers.sql

-- ==== a named tuple with a DateTime64 and a LowCardinality(Nullable) element;
-- an array of tuples as an array of a composite (18.16 splits such a column)
SELECT clickhouse_exec('ch_ans', 'DROP TABLE IF EXISTS regress_modern.ans_tup2');
SELECT clickhouse_exec('ch_ans', 'CREATE TABLE regress_modern.ans_tup2 (id UInt8, t Tuple(a Int32, b String), w Tuple(at DateTime64(3, ''Asia/Tokyo''), n LowCardinality(Nullable(String))), at Array(Tuple(UInt8, Nullable(String)))) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_ans', 'INSERT INTO regress_modern.ans_tup2 VALUES (1, (7, ''x,y''), (''2020-01-01 09:00:00.125'', ''lc''), [(1, ''a''), (2, NULL)]), (2, (-1, ''''), (''1960-06-01 00:00:00'', NULL), [])');
CREATE TYPE ans_p AS (k smallint, v text);
CREATE TYPE ans_w AS (at timestamptz, n text);
CREATE TYPE ans_wl AS (at timestamp, n text);
CREATE FOREIGN TABLE ans_tup2 (id int, t ans_t2, w ans_w, wl ans_wl OPTIONS (column_name 'w'),
  at ans_p[]) SERVER ch_ans;
SET timezone = 'PST8PDT';
SELECT id, t, (t).b, w, wl, (w).n IS NULL AS n_null FROM ans_tup2 ORDER BY id;
SELECT id, at, cardinality(at) AS len, at[1].v, at[2].v IS NULL AS v2_null
  FROM ans_tup2 ORDER BY id;
RESET timezone;

-- ==== DateTime64 read as date and time, and its conditions (toDate32:
-- dates before 1970 are not clamped)
SELECT clickhouse_exec('ch_ans', 'DROP TABLE IF EXISTS regress_modern.ans_dt64');
SELECT clickhouse_exec('ch_ans', 'CREATE TABLE regress_modern.ans_dt64 (id UInt8, x DateTime64(3), xz Nullable(DateTime64(6, ''Asia/Tokyo''))) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_ans', 'INSERT INTO regress_modern.ans_dt64 VALUES (1, ''1960-06-01 23:30:00.500'', ''1960-06-01 23:30:00.123456''), (2, ''2200-01-01 01:00:00'', NULL), (3, ''1990-01-01 02:00:00'', ''1990-01-01 02:00:00'')');
CREATE FOREIGN TABLE ans_dt64 (id int, x date, xz date, t time OPTIONS (column_name 'x'),
  tz time OPTIONS (column_name 'xz'), t0 time(0) OPTIONS (column_name 'x'))
  SERVER ch_ans;
SET timezone = 'PST8PDT';
SELECT * FROM ans_dt64 ORDER BY id;
CREATE TABLE ans_dt64_local AS SELECT * FROM ans_dt64;
-- sent as toDate32(x, 'UTC'): toDate() would wrap 1960 and 2200 into 2139
-- and 2020
SELECT * FROM ans_explain_analyze($$SELECT id FROM ans_dt64 WHERE x >= '2000-01-01' AND x <= '2149-06-06' OR xz = '1990-01-01'$$);
SELECT id FROM ans_dt64 WHERE x >= '2000-01-01' AND x <= '2149-06-06' OR xz = '1990-01-01' ORDER BY id;
SELECT id FROM ans_dt64_local WHERE x >= '2000-01-01' AND x <= '2149-06-06' OR xz = '1990-01-01' ORDER BY id;
SELECT x, count(*) FROM ans_dt64 GROUP BY x ORDER BY x;
-- dates outside Date's range stay local (see pushdown.sql)
SELECT id FROM ans_dt64 WHERE x = '1960-06-01' OR xz = '1990-01-01' ORDER BY id;
SELECT id FROM ans_dt64_local WHERE x = '1960-06-01' OR xz = '1990-01-01' ORDER BY id;
SELECT id FROM ans_dt64 WHERE x < '1970-01-01' OR x > '2149-12-31' ORDER BY id;
SELECT id FROM ans_dt64_local WHERE x < '1970-01-01' OR x > '2149-12-31' ORDER BY id;
SELECT id FROM ans_dt64 WHERE tz = '02:00' ORDER BY id;
RESET timezone;

-- ==== timestamptz values outside DateTime64's range (1900-01-01 00:00:00 ..
-- 2299-12-31 23:59:59.999999 UTC) compared with DateTime/DateTime64 columns:
-- ClickHouse's toDateTime64 moves such a date into the range and keeps the
-- time of day, so `dt6 > '1850-01-01'` lost the row at 1900-01-01 00:00:00
-- (13 rows for 14) and `< '2400-01-01'` the one at 2299-12-31 23:59:59.999999.
-- Now written as a number one second beyond the range (Remote SQL Sent).
CREATE FOREIGN TABLE ans_ts64 (id int, dt timestamptz, dt3 timestamptz, dt6 timestamptz,
  dt9 timestamptz, dt3_ny timestamptz)
  SERVER ch_ans OPTIONS (database 'regress_modern', table 'datetimes');
CREATE TABLE ans_ts64_local AS SELECT * FROM ans_ts64;
SET timezone = 'UTC';
SELECT * FROM ans_explain_analyze($$SELECT count(*) FROM ans_ts64 WHERE dt6 > '1850-01-01'$$);
SELECT * FROM ans_explain_analyze($$SELECT count(*) FROM ans_ts64 WHERE dt6 < '2400-01-01'$$);
CREATE FUNCTION ans_ts64_check() RETURNS TABLE (cases int, sent int, mismatches text)
LANGUAGE plpgsql AS $f$
DECLARE
  c text; op text; v text; a bigint; b bigint; p bigint; n int := 0; nsent int := 0;
  bad text := '';
  plan text;
BEGIN
  FOREACH c IN ARRAY ARRAY['dt', 'dt3', 'dt6', 'dt9', 'dt3_ny'] LOOP
    FOREACH op IN ARRAY ARRAY['<', '<=', '=', '<>', '>', '>='] LOOP
      FOREACH v IN ARRAY ARRAY['1850-01-01 00:00:00+00', '1899-12-31 23:00:00+00',
          '1899-12-31 23:59:59.999999+00', '1900-01-01 00:00:00+00',
          '1900-01-01 00:00:00.000001+00', '2262-04-11 23:47:16.854775+00',
          '2299-12-31 23:59:59.999999+00', '2300-01-01 00:00:00+00', '2400-01-01 00:00:00+00',
          '0001-01-01 00:00:00+00', '1969-12-31 23:59:59.999999+00'] LOOP
        -- DateTime64(9) ends at 2262-04-11 23:47:16.854775807: a later value
        -- of scale 6 raises ClickHouse's DECIMAL_OVERFLOW (README, Limits)
        CONTINUE WHEN c = 'dt9' AND v IN ('2262-04-11 23:47:16.854775+00', '2299-12-31 23:59:59.999999+00');
        n := n + 1;
        EXECUTE format('SELECT count(*) FROM ans_ts64 WHERE %I %s %L::timestamptz', c, op, v) INTO a;
        EXECUTE format('SELECT count(*) FROM ans_ts64_local WHERE %I %s %L::timestamptz', c, op, v) INTO b;
        -- the same as a prepared statement's parameter (a generic plan)
        EXECUTE format('PREPARE ans_ts64_q(timestamptz) AS SELECT count(*) FROM ans_ts64 WHERE %I %s $1', c, op);
        SET LOCAL plan_cache_mode = force_generic_plan;
        EXECUTE format('EXECUTE ans_ts64_q(%L)', v) INTO p;
        DEALLOCATE ans_ts64_q;
        EXECUTE format('EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM ans_ts64 WHERE %I %s %L::timestamptz', c, op, v) INTO plan;
        IF plan LIKE 'Foreign Scan%' THEN nsent := nsent + 1; END IF;
        IF a <> b OR p <> b THEN
          bad := bad || format('%s %s %s: %s/%s (local %s); ', c, op, v, a, p, b);
        END IF;
      END LOOP;
    END LOOP;
  END LOOP;
  RETURN QUERY SELECT n, nsent, bad;
END $f$;
SELECT * FROM ans_ts64_check();
RESET timezone;
DROP FUNCTION ans_ts64_check();
DROP FOREIGN TABLE ans_ts64;
DROP TABLE ans_ts64_local;

-- ==== IMPORT: a versioned aggregate state (AggregateFunction(1, f, ...)):
-- the hint names f, not the version
SELECT clickhouse_exec('ch_ans', 'DROP DATABASE IF EXISTS regress_ans_import');
SELECT clickhouse_exec('ch_ans', 'CREATE DATABASE regress_ans_import');
SELECT clickhouse_exec('ch_ans', 'CREATE TABLE regress_ans_import.agg (k UInt8, s AggregateFunction(1, sumMap, Array(UInt8), Array(UInt64)), q AggregateFunction(quantiles(0.5, 0.9), UInt64), u AggregateFunction(uniq, String)) ENGINE = AggregatingMergeTree ORDER BY k');
CREATE SCHEMA ans_imp;
IMPORT FOREIGN SCHEMA regress_ans_import FROM SERVER ch_ans INTO ans_imp;
SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute
  WHERE attrelid = 'ans_imp.agg'::regclass AND attnum > 0 ORDER BY attnum;
SELECT clickhouse_exec('ch_ans', 'DROP DATABASE regress_ans_import');

DROP SERVER ch_ans CASCADE;
DROP SCHEMA ans_imp;
DROP TYPE ans_t3, ans_n, ans_in, ans_p, ans_td, ans_t2, ans_tu, ans_w, ans_wl;
DROP TABLE ans_dt_local, ans_dt64_local;
DROP FUNCTION ans_explain_analyze(text);
