-- ====================================================================
-- Date parts, date_trunc and to_char of timestamptz and date columns on
-- the ClickHouse 26.5 engine (chDB behind test/chdb/front.py, a test
-- harness, not a server): the dates18 body (sql/include/dates18.sql), where
-- the server has Date32 and the forms stay toYear() .. toSecond() (the
-- same SQL as before dates18). Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_d18 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_d18;
\i sql/include/dates18.sql

-- ==== a Date32 read as timestamptz (1900-01-01 .. 2299-12-31): its parts
-- are those of its midnight in UTC, from its day number (negative before
-- 1970) on every server; before, toHour() and the other time-of-day parts
-- refused a Date or Date32 (ILLEGAL_TYPE_OF_ARGUMENT, 42804 here)
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_d18', 'DROP TABLE IF EXISTS regress_modern.d18x');
SELECT clickhouse_exec('ch_d18', 'CREATE TABLE regress_modern.d18x (id Int32, x Date32) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_d18', format('INSERT INTO regress_modern.d18x SELECT number, addDays(toDate32(''1970-01-01''), [%s][number + 1]) FROM system.numbers LIMIT %s',
         string_agg((x - date '1970-01-01')::text, ', ' ORDER BY o), count(*)))
  FROM unnest(ARRAY['1900-01-01', '1900-02-28', '1900-03-01', '1900-12-31', '1901-01-01', '1904-02-29',
                    '1908-12-31', '1909-01-03', '1969-12-28', '1969-12-29', '1969-12-31', '1970-01-01',
                    '2000-02-29', '2100-03-01', '2149-06-07', '2200-02-28', '2200-03-01', '2299-12-31']::date[]) WITH ORDINALITY v(x, o);
SELECT clickhouse_exec('ch_d18', 'INSERT INTO regress_modern.d18x SELECT 100 + number, addDays(toDate32(''1900-01-01''), toInt32((number * 7919 + 31) % 146097)) FROM system.numbers LIMIT 300');
CREATE FOREIGN TABLE d18x (id int, x timestamptz) SERVER ch_d18 OPTIONS (table 'd18x');
CREATE TABLE d18x_l AS SELECT * FROM d18x;
SELECT count(*), min(x), max(x) FROM d18x_l;
CREATE FUNCTION d18x_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int, OUT err text)
  LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'd18x', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|WindowAgg|Unique|Group|Filter)', false, true) $$;
SELECT f, ck.*
  FROM unnest(ARRAY['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'isoyear',
                    'decade', 'century', 'millennium', 'dow', 'isodow', 'doy', 'epoch']) WITH ORDINALITY v(f, o),
       LATERAL d18x_check(format('SELECT id, date_part(%L, x) FROM d18x GROUP BY 1, 2', f)) ck
  ORDER BY o;
SELECT f, ck.*
  FROM unnest(ARRAY['hour', 'day', 'week', 'month', 'quarter', 'year', 'century']) WITH ORDINALITY v(f, o),
       LATERAL d18x_check(format('SELECT id, date_trunc(%L, x) FROM d18x GROUP BY 1, 2', f)) ck
  ORDER BY o;
SELECT k, ck.*
  FROM unnest(ARRAY['YYYY-MM-DD HH24:MI:SS.US', 'IYYY-IW-ID DDD J', 'Dy Mon W WW Q CC']) WITH ORDINALITY v(k, o),
       LATERAL d18x_check(format('SELECT id, to_char(x, %L) FROM d18x GROUP BY 1, 2', k)) ck
  ORDER BY o;
DROP FUNCTION d18x_check(text);
DROP TABLE d18x_l;
DROP FOREIGN TABLE d18x;
SELECT clickhouse_exec('ch_d18', 'DROP TABLE IF EXISTS regress_modern.d18x');
RESET timezone;
RESET datestyle;
DROP SERVER ch_d18 CASCADE;
