-- ====================================================================
-- dt64 on the ClickHouse 26.5 engine (chDB behind test/chdb/front.py, a
-- test harness, not a server; 18.16 has no DateTime64, so there is no
-- 18.16 suite): DateTime64(7..9) columns inside expressions ClickHouse
-- computes are sent as the microseconds PostgreSQL reads (rounded half to
-- even: src/fdw/dt64.c). Grouping, DISTINCT, count(DISTINCT), window and
-- ORDER BY keys, two columns compared, IN lists of sub-second constants
-- and date functions, each checked sent and equal to a local copy of the
-- same rows (d64_check: one Foreign Scan with nothing above it, and the
-- same rows, or the same SQLSTATE raised), over ticks at the ties
-- (.0000004/.0000005/.0000006), the carries .9999995 .. .9999999 into the
-- next second, day and year, pre-1970 (negative) ticks, four zones and
-- NULLs; then 150 seeded random rows and 120 seeded random queries. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
-- compile_aggregate_expressions = 0: the engine's JIT-compiled min()/max()
-- of a DateTime64 (any precision) under GROUP BY compare its ticks as if
-- unsigned (min of 1950 and 2000 said 2000), once an aggregate of that
-- form was run three times (min_count_to_compile_aggregate_expression);
-- section 8 shows it without the setting
CREATE SERVER ch_d64 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db', settings 'compile_aggregate_expressions = 0');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_d64;
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
\i sql/include/diff_check.sql

-- ==== 0. the rows: n DateTime64(9, UTC), e Nullable(DateTime64(8,
-- Europe/Berlin)), s DateTime64(7, UTC), k Nullable(DateTime64(9,
-- Asia/Kolkata)), a DateTime64(7, America/Sao_Paulo), m DateTime64(6,
-- UTC); each gets the same wall-time text truncated to its precision
SELECT clickhouse_exec('ch_d64', 'DROP TABLE IF EXISTS regress_modern.d64');
SELECT clickhouse_exec('ch_d64', 'CREATE TABLE regress_modern.d64 (id Int32, n DateTime64(9, ''UTC''), e Nullable(DateTime64(8, ''Europe/Berlin'')), s DateTime64(7, ''UTC''), k Nullable(DateTime64(9, ''Asia/Kolkata'')), a DateTime64(7, ''America/Sao_Paulo''), m DateTime64(6, ''UTC'')) ENGINE = MergeTree ORDER BY id');
CREATE TEMP TABLE d64_src (id int, x text);
-- the edges: each second below with each fraction (ties to even, carries)
INSERT INTO d64_src SELECT (b.o * 20 + f.o)::int, b.x || f.x
  FROM unnest(ARRAY['1900-01-02 00:00:01', '1950-06-30 23:59:59', '1969-12-31 23:59:59', '1970-01-01 00:00:00',
                    '1999-12-31 23:59:59', '2000-01-01 00:00:00', '2000-02-28 23:59:59', '2000-12-31 23:59:59',
                    '2024-03-31 00:59:59', '2262-04-10 23:59:59']) WITH ORDINALITY b(x, o),
       unnest(ARRAY['.000000000', '.000000100', '.000000400', '.000000500', '.000000600', '.000001400',
                    '.000001500', '.000001600', '.000002500', '.000002501', '.999999400', '.999999500',
                    '.999999600', '.999999900', '.999998500', '.999998499']) WITH ORDINALITY f(x, o);
-- 150 seeded pseudo-random instants 1900-01-02 .. 2262-04-10 with nanoseconds
-- (half of them at a tie or a carry)
INSERT INTO d64_src SELECT 1000 + i,
    to_char(to_timestamp(((i::bigint * 2654435761) % 11432102400) - 2208902400) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')
    || CASE WHEN i % 2 = 0 THEN '.' || lpad(((i::bigint * 40503 * 7919) % 1000000000)::text, 9, '0')
            ELSE (ARRAY['.000000500', '.000001500', '.999999500', '.999999600', '.000000400', '.000000600'])[i % 6 + 1] END
  FROM generate_series(1, 150) i;
-- (e, k, a: odd ids the same wall time as n in their zones, even ids the
-- same instant, truncated to their precision)
SELECT clickhouse_exec('ch_d64', 'INSERT INTO regress_modern.d64 VALUES ' || string_agg(format('(%s, %L, %s, %L, %s, %s, %L)', id,
         x, CASE WHEN id % 7 = 3 THEN 'NULL' WHEN id % 2 = 0 THEN format('toDateTime64(%L, 8, ''UTC'')', x) ELSE quote_literal(left(x, 28)) END,
         left(x, 27),
         CASE WHEN id % 5 = 1 THEN 'NULL' WHEN id % 2 = 0 THEN format('toDateTime64(%L, 9, ''UTC'')', x) ELSE quote_literal(x) END,
         CASE WHEN id % 2 = 0 THEN format('toDateTime64(%L, 7, ''UTC'')', x) ELSE quote_literal(left(x, 27)) END, left(x, 26)), ', ' ORDER BY id))
  FROM d64_src;
CREATE FOREIGN TABLE d64 (id int, n timestamptz, e timestamptz, s timestamptz, k timestamptz, a timestamptz, m timestamptz)
  SERVER ch_d64 OPTIONS (table 'd64');
-- the same columns declared timestamp: their wall times in their own zones
CREATE FOREIGN TABLE d64w (id int, n timestamp, e timestamp, s timestamp, k timestamp, a timestamp, m timestamp)
  SERVER ch_d64 OPTIONS (table 'd64');
CREATE TABLE d64_l AS SELECT * FROM d64;
CREATE TABLE d64w_l AS SELECT * FROM d64w;
SELECT count(*), count(e), count(k), min(n), max(n), min(s), max(s), min(k), max(k) FROM d64_l;
-- the reading itself (convert.c): ties to even, the carries
SELECT id, n, e, s, k, a FROM d64_l WHERE id BETWEEN 101 AND 116 ORDER BY id;
CREATE FUNCTION d64_check(q text, ordered boolean DEFAULT false, OUT pushed boolean, OUT same boolean, OUT nrows int, OUT err text)
  LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'd64|d64w', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|WindowAgg|Unique|Group|Filter)', ordered, true) $$;

-- ==== 1. what is sent: the rounded value (EXPLAIN)
EXPLAIN (VERBOSE, COSTS OFF) SELECT n, count(*) FROM d64 GROUP BY n;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM d64 WHERE n = s;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM d64 WHERE n IN ('2000-01-01 00:00:00.000001', '1969-12-31 23:59:59.999999');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, row_number() OVER (PARTITION BY k ORDER BY s, id) FROM d64;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM d64 ORDER BY e NULLS FIRST, id LIMIT 5;
-- a date function: the marker bound when the scan starts (Remote SQL Sent)
EXPLAIN (VERBOSE, COSTS OFF) SELECT date_trunc('second', n), count(*) FROM d64 GROUP BY 1;
-- a comparison with a constant keeps the tick range on the column itself
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM d64 WHERE n = '2000-01-01';

-- ==== 2. keys: GROUP BY, DISTINCT, count(DISTINCT), windows, ORDER BY
-- (before: GROUP BY, DISTINCT, count(DISTINCT) and window keys over these
-- columns stayed local, ClickHouse would have grouped the ticks)
SELECT q, (d64_check(q)).* FROM unnest(ARRAY[
  'SELECT n, count(*) FROM d64 GROUP BY n', 'SELECT e, count(*) FROM d64 GROUP BY e',
  'SELECT s, count(*) FROM d64 GROUP BY s', 'SELECT k, count(*) FROM d64 GROUP BY k',
  'SELECT a, count(*) FROM d64 GROUP BY a', 'SELECT m, count(*) FROM d64 GROUP BY m',
  'SELECT n, s, count(*), min(id) FROM d64 GROUP BY n, s', 'SELECT k, e, max(id) FROM d64 GROUP BY k, e',
  'SELECT n, count(*) FROM d64 GROUP BY n HAVING count(*) > 1', 'SELECT s, min(n), max(k) FROM d64 GROUP BY s',
  'SELECT DISTINCT n FROM d64', 'SELECT DISTINCT e, s FROM d64', 'SELECT DISTINCT k FROM d64',
  'SELECT count(DISTINCT n), count(DISTINCT e), count(DISTINCT s), count(DISTINCT k), count(DISTINCT a) FROM d64',
  'SELECT id % 3, count(DISTINCT n) FROM d64 GROUP BY 1',
  'SELECT min(n), max(n), min(e), max(e), min(s), max(s), min(k), max(k) FROM d64',
  'SELECT id, count(*) OVER (PARTITION BY n) FROM d64', 'SELECT id, count(*) OVER (PARTITION BY e) FROM d64',
  'SELECT id, rank() OVER (ORDER BY s) FROM d64', 'SELECT id, dense_rank() OVER (ORDER BY k) FROM d64',
  'SELECT id, rank() OVER (PARTITION BY s ORDER BY n) FROM d64',
  'SELECT id, row_number() OVER (PARTITION BY k ORDER BY s, id) FROM d64',
  'SELECT id, count(*) OVER (ORDER BY a RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM d64',
  'SELECT n, count(*) FROM d64 WHERE id < 200 GROUP BY ROLLUP (n)',
  'SELECT coalesce(e, k), count(*) FROM d64 GROUP BY 1',
  'SELECT greatest(n, s), least(e, k), count(*) FROM d64 GROUP BY 1, 2']) q;
-- ORDER BY: compared in order (the ties of one microsecond keep id's order)
SELECT q, (d64_check(q, true)).* FROM unnest(ARRAY[
  'SELECT id, n FROM d64 ORDER BY n, id', 'SELECT id FROM d64 ORDER BY s DESC, id LIMIT 40',
  'SELECT id FROM d64 ORDER BY e NULLS FIRST, id LIMIT 30', 'SELECT id FROM d64 ORDER BY k DESC NULLS LAST, id',
  'SELECT id FROM d64 ORDER BY a, n DESC, id LIMIT 50',
  'SELECT n, count(*) FROM d64 GROUP BY n ORDER BY n LIMIT 20',
  'SELECT s, count(*) FROM d64 GROUP BY s ORDER BY count(*) DESC, s LIMIT 10']) q;

-- ==== 3. two columns compared (before: sent as ticks, n = s false for
-- 2000-01-01 00:00:00.000000400 against .0000004's neighbours)
SELECT q, (d64_check(q)).* FROM unnest(ARRAY[
  'SELECT id FROM d64 WHERE n = s', 'SELECT id FROM d64 WHERE n <> s', 'SELECT id FROM d64 WHERE n < e',
  'SELECT id FROM d64 WHERE e <= s', 'SELECT id FROM d64 WHERE k > n', 'SELECT id FROM d64 WHERE a >= s',
  'SELECT id FROM d64 WHERE n = m', 'SELECT id FROM d64 WHERE s <> m', 'SELECT id FROM d64 WHERE m < e',
  'SELECT id FROM d64 WHERE n IS DISTINCT FROM e', 'SELECT id FROM d64 WHERE k IS NOT DISTINCT FROM e',
  'SELECT id FROM d64 WHERE n BETWEEN s AND m', 'SELECT id FROM d64 WHERE NOT (e = k)',
  'SELECT count(*) FILTER (WHERE n = s), count(*) FILTER (WHERE e = k) FROM d64']) q;

-- over a join ClickHouse computes (the columns named by their aliases)
SELECT q, (d64_check(q)).* FROM unnest(ARRAY[
  'SELECT x.n, count(*) FROM d64 x JOIN d64 y ON x.id = y.id WHERE y.id % 3 > 0 GROUP BY x.n',
  'SELECT x.id FROM d64 x JOIN d64 y ON x.id = y.id WHERE x.n = y.s',
  'SELECT x.id, y.id FROM d64 x JOIN d64 y ON x.id = y.id WHERE x.k < y.e OR x.a = y.s',
  'SELECT DISTINCT x.e, y.a FROM d64 x LEFT JOIN d64 y ON x.id = y.id']) q;

-- what stays local (pushed false), equal: a UNION ALL's grouping by a
-- timestamptz key (for a DateTime64(6) too), DISTINCT ON, a correlated
-- subquery's max(); and more key forms sent (OFFSET, lag, first_value)
SELECT q, (d64_check(q)).* FROM unnest(ARRAY[
  'SELECT n, count(*) FROM (SELECT n FROM d64 UNION ALL SELECT s FROM d64) u GROUP BY n',
  'SELECT m, count(*) FROM (SELECT m FROM d64 UNION ALL SELECT m FROM d64) u GROUP BY m',
  'SELECT DISTINCT ON (n) n, id FROM d64 ORDER BY n, id',
  'SELECT id FROM d64 WHERE n = (SELECT max(s) FROM d64 x WHERE x.id = d64.id)',
  'SELECT n, count(*) FROM d64 GROUP BY n ORDER BY n DESC LIMIT 3 OFFSET 2',
  'SELECT id, lag(n) OVER (ORDER BY n, id) FROM d64',
  'SELECT id, first_value(s) OVER (PARTITION BY k ORDER BY id) FROM d64']) q;

-- ==== 4. IN lists of sub-second constants (before: kept local)
SELECT q, (d64_check(q)).* FROM unnest(ARRAY[
  'SELECT id FROM d64 WHERE n IN (''2000-01-01 00:00:00.000001'', ''1969-12-31 23:59:59.999999'', ''1970-01-01'')',
  'SELECT id FROM d64 WHERE s IN (''2000-01-01 00:00:00.000002'', ''2001-01-01'', ''1900-01-02 00:00:01.000001'')',
  'SELECT id FROM d64 WHERE e IN (''2000-01-01 00:00:00.000001'', ''2262-04-10 23:59:59.999999'')',
  'SELECT id FROM d64 WHERE k NOT IN (''2000-01-01 00:00:00.000001'', ''1950-06-30 23:59:59.9995'')',
  'SELECT id FROM d64 WHERE a NOT IN (''1970-01-01'', ''2000-01-01 00:00:00.000002'')',
  'SELECT id FROM d64 WHERE n = ANY (ARRAY[''1950-07-01 00:00:00'', ''2000-12-31 23:59:59.999999'']::timestamptz[])']) q;

-- ==== 5. date functions of the rounded value, as grouping keys and in
-- WHERE (the SELECT list of a plain scan is PostgreSQL's own; date_trunc's
-- millisecond is not sent for any timestamptz column); before, a carry
-- into the next second (x.9999995 .. x.9999999) raised 22008
SELECT f, c, (d64_check(format('SELECT %s, count(*) FROM d64 GROUP BY 1', replace(f, 'X', c)))).*
  FROM unnest(ARRAY['date_trunc(''second'', X)', 'date_trunc(''microseconds'', X)',
                    'date_trunc(''minute'', X)', 'date_trunc(''day'', X)', 'date_trunc(''month'', X)',
                    'date_trunc(''year'', X)', 'extract(minute FROM X)', 'extract(day FROM X)',
                    'extract(year FROM X)', 'extract(dow FROM X)', 'date_part(''second'', X)',
                    'date_part(''microseconds'', X)', 'date_part(''doy'', X)',
                    'to_char(X, ''YYYY-MM-DD HH24:MI:SS'')', 'to_char(X, ''HH24:MI:SS'')',
                    'to_char(X, ''YYYY-MM-DD HH24:MI:SS.US'')', 'to_char(X, ''YYYY'')']) WITH ORDINALITY u(f, fo),
       unnest(ARRAY['n', 'e', 's', 'k']) WITH ORDINALITY v(c, co)
  ORDER BY fo, co;
SELECT f, c, (d64_check(format('SELECT id FROM d64 WHERE %s', replace(f, 'X', c)))).*
  FROM unnest(ARRAY['extract(second FROM X) = 0', 'extract(microseconds FROM X) < 1', 'extract(milliseconds FROM X) >= 59999.999',
                    'extract(epoch FROM X) = 946684800', 'extract(epoch FROM X) < 0',
                    'date_trunc(''second'', X) = ''2000-01-01 00:00:00''', 'date_trunc(''day'', X) = ''2001-01-01''',
                    'to_char(X, ''YYYY-MM-DD HH24:MI:SS'') = ''1970-01-01 00:00:00''',
                    'extract(year FROM X) = 2000 AND extract(minute FROM X) = 0']) WITH ORDINALITY u(f, fo),
       unnest(ARRAY['n', 'e', 's', 'k']) WITH ORDINALITY v(c, co)
  ORDER BY fo, co;
-- timestamp columns: the parts in each column's own zone, any session zone
-- (1900-01-02 00:00:01 in Berlin and Kolkata is on DateTime64's first UTC
-- day, whose parts in another zone raise; and before 1914 Kolkata's and
-- Sao Paulo's offsets were not whole minutes (+05:21:10, -03:06:28), where
-- the engine's toSecond() is wrong (toSecond of 1901-12-22 05:00:00 UTC in
-- Asia/Kolkata is 0, its wall time 10:21:10): those rows left out)
SET timezone = 'America/New_York';
SELECT string_agg(id::text, ', ' ORDER BY id) AS d64_old FROM d64_l WHERE n < '1914-01-01' OR id BETWEEN 21 AND 36 \gset
SELECT f, c, (d64_check(format('SELECT %s, count(*) FROM d64w WHERE id NOT IN (%s) GROUP BY 1', replace(f, 'X', c), :'d64_old'))).*
  FROM unnest(ARRAY['date_trunc(''second'', X)', 'date_trunc(''day'', X)', 'date_trunc(''year'', X)',
                    'extract(hour FROM X)', 'date_part(''microseconds'', X)', 'date_part(''day'', X)',
                    'to_char(X, ''YYYY-MM-DD HH24:MI:SS'')']) WITH ORDINALITY u(f, fo),
       unnest(ARRAY['n', 'e', 's', 'k', 'a']) WITH ORDINALITY v(c, co)
  ORDER BY fo, co;
SET timezone = 'UTC';
-- the same columns declared date: the date of the rounded value in the
-- column's zone (2000-12-31 23:59:59.9999996 is 2001-01-01 there)
CREATE FOREIGN TABLE d64d (id int, n date, e date, s date, k date, a date) SERVER ch_d64 OPTIONS (table 'd64');
CREATE TABLE d64d_l AS SELECT * FROM d64d;
SELECT q, (diff_check(q, 'd64d', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|WindowAgg|Unique|Group|Filter)', false, true)).* FROM unnest(ARRAY[
  'SELECT n, count(*) FROM d64d GROUP BY n', 'SELECT e, count(*) FROM d64d GROUP BY e', 'SELECT s, count(*) FROM d64d GROUP BY s',
  'SELECT k, count(*) FROM d64d GROUP BY k', 'SELECT a, count(*) FROM d64d GROUP BY a',
  'SELECT id FROM d64d WHERE n = ''2001-01-01''', 'SELECT id FROM d64d WHERE s >= ''2000-01-01'' AND k < ''2000-03-01''',
  'SELECT id FROM d64d WHERE a = e']) q;
DROP TABLE d64d_l;
DROP FOREIGN TABLE d64d;
-- what is sent for them: the rounded value inside the parts (Remote SQL
-- Sent: the markers bound when the scan starts)
CREATE FUNCTION d64_sent(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
  FOR l IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF l ~ 'Remote SQL Sent' THEN RETURN NEXT regexp_replace(l, '^ *', ''); END IF;
  END LOOP;
END $$;
SELECT d64_sent('SELECT date_trunc(''second'', s), count(*) FROM d64 WHERE id = 113 GROUP BY 1');
SELECT d64_sent('SELECT extract(day FROM n), count(*) FROM d64w WHERE id = 113 GROUP BY 1');

-- ==== 6. the ends: n at DateTime64(9)'s last tick 2262-04-11
-- 23:47:16.854775807; s a DateTime64(7) whose ticks 2299-12-31
-- 23:59:59.9999995 .. 9 PostgreSQL reads as 2300-01-01 00:00:00: past
-- DateTime64's last value, which ClickHouse's date functions would clamp
-- to 2299; keys and comparisons are exact, date functions raise 22008
SELECT clickhouse_exec('ch_d64', 'DROP TABLE IF EXISTS regress_modern.d64e');
SELECT clickhouse_exec('ch_d64', 'CREATE TABLE regress_modern.d64e (id Int32, n DateTime64(9, ''UTC''), s DateTime64(7, ''UTC''), e DateTime64(8, ''UTC'')) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_d64', 'INSERT INTO regress_modern.d64e VALUES (1, ''2262-04-11 23:47:16.854775807'', ''2299-12-31 23:59:59.9999995'', ''2299-12-31 23:59:59.99999950''), (2, ''2262-04-11 23:47:16.854775500'', ''2299-12-31 23:59:59.9999999'', ''2299-12-31 23:59:59.99999999''), (3, ''2262-04-11 23:47:16.854775499'', ''2299-12-31 23:59:59.9999994'', ''2299-12-31 23:59:59.99999949''), (4, ''1900-01-01 00:00:00.000000499'', ''1900-01-01 00:00:00.0000005'', ''1900-01-01 00:00:00.00000051'')');
CREATE FOREIGN TABLE d64e (id int, n timestamptz, s timestamptz, e timestamptz) SERVER ch_d64 OPTIONS (table 'd64e');
CREATE TABLE d64e_l AS SELECT * FROM d64e;
SELECT * FROM d64e_l ORDER BY id;
SELECT q, (diff_check(q, 'd64e', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|WindowAgg|Unique|Group|Filter)', false, true)).* FROM unnest(ARRAY[
  'SELECT n, count(*) FROM d64e GROUP BY n', 'SELECT s, count(*) FROM d64e GROUP BY s', 'SELECT e, count(*) FROM d64e GROUP BY e',
  'SELECT DISTINCT s FROM d64e', 'SELECT id FROM d64e WHERE s = e', 'SELECT id FROM d64e WHERE s > n',
  'SELECT max(s), max(e), max(n) FROM d64e', 'SELECT id FROM d64e WHERE s IN (''2300-01-01'', ''2299-12-31 23:59:59.999999'')',
  'SELECT date_trunc(''second'', n), count(*) FROM d64e GROUP BY 1', 'SELECT id FROM d64e WHERE extract(microseconds FROM n) > 16854775',
  'SELECT date_trunc(''second'', s), count(*) FROM d64e WHERE id >= 3 GROUP BY 1', 'SELECT to_char(e, ''YYYY''), count(*) FROM d64e WHERE id >= 3 GROUP BY 1']) q;
-- the date functions of the carries past the end raise 22008 (local: 2300)
\set VERBOSITY sqlstate
SELECT date_trunc('second', s), count(*) FROM d64e GROUP BY 1;
SELECT id FROM d64e WHERE extract(year FROM e) = 2300;
SELECT to_char(s, 'YYYY-MM-DD'), count(*) FROM d64e WHERE id = 2 GROUP BY 1;
\set VERBOSITY terse
SELECT date_trunc('second', s), count(*) FROM d64e GROUP BY 1;
\set VERBOSITY default
SELECT date_trunc('second', s), count(*) FROM d64e_l GROUP BY 1 ORDER BY 1;
SELECT id FROM d64e_l WHERE extract(year FROM e) = 2300;
DROP TABLE d64e_l;
DROP FOREIGN TABLE d64e;
SELECT clickhouse_exec('ch_d64', 'DROP TABLE IF EXISTS regress_modern.d64e');

-- ==== 7. 120 seeded random queries over the constructs above: a key or
-- comparison form, columns (IN lists: of the DateTime64(7..9) columns: a
-- DateTime64(6)'s IN list of sub-second constants stays local), constants
-- of the rows' own values;
-- every one sent and equal to the local copy
SELECT setseed(0.64);
CREATE TEMP TABLE d64_rq AS
  SELECT i, format(
      (ARRAY['SELECT %1$s, count(*) FROM d64 GROUP BY %1$s',
             'SELECT DISTINCT %1$s, %2$s FROM d64',
             'SELECT count(DISTINCT %1$s) FROM d64 WHERE %2$s > %3$L',
             'SELECT id FROM d64 WHERE %1$s = %2$s OR %5$s IN (%3$L, %4$L)',
             'SELECT id FROM d64 WHERE %1$s < %2$s AND %5$s NOT IN (%3$L)',
             'SELECT id, rank() OVER (PARTITION BY %1$s ORDER BY %2$s) FROM d64',
             'SELECT date_trunc(''second'', %1$s), count(*) FROM d64 GROUP BY 1',
             'SELECT id, extract(microseconds FROM %1$s), to_char(%2$s, ''YYYY-MM-DD HH24:MI:SS'') FROM d64 WHERE %1$s >= %3$L',
             'SELECT %1$s, min(%2$s), max(%2$s) FROM d64 GROUP BY %1$s HAVING count(*) >= 1',
             'SELECT id FROM d64 WHERE %1$s IS DISTINCT FROM %2$s AND %1$s <> %4$L'])[1 + floor(random() * 10)::int],
      c1, c2, k1, k2, c3) AS q
    FROM (SELECT i, (ARRAY['n', 'e', 's', 'k', 'a', 'm'])[1 + floor(random() * 6)::int] AS c1,
                 (ARRAY['n', 'e', 's', 'k', 'a', 'm'])[1 + floor(random() * 6)::int] AS c2,
                 (ARRAY['n', 'e', 's', 'k', 'a'])[1 + floor(random() * 5)::int] AS c3,
                 (SELECT x FROM d64_src ORDER BY md5(x || i) LIMIT 1) AS k1,
                 left((SELECT x FROM d64_src ORDER BY md5(i || x) LIMIT 1), 26) AS k2
            FROM generate_series(1, 120) i) t;
SELECT count(*) AS queries, count(*) FILTER (WHERE (r).pushed) AS sent, count(*) FILTER (WHERE (r).same) AS equal,
       sum((r).nrows) AS rows_compared
  FROM (SELECT d64_check(q) AS r FROM d64_rq) t;
SELECT i, q, (d64_check(q)).* FROM d64_rq WHERE NOT (d64_check(q)).pushed OR NOT (d64_check(q)).same ORDER BY i;

-- ==== 8. the engine's JIT-compiled min()/max() of DateTime64 under GROUP
-- BY (not the FDW's: the same SQL with compile_aggregate_expressions = 1 and
-- min_count_to_compile_aggregate_expression = 0, sent by clickhouse_raw_query
-- on a server without the setting): min and max of 1950 and 2000 swapped
CREATE SERVER ch_d64j FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_d64j;
SELECT clickhouse_raw_query('ch_d64j', 'SELECT g, min(x), max(x) FROM (SELECT 1 AS g, arrayJoin([toDateTime64(''1950-12-31 23:59:58'', ' || p || ', ''UTC''), toDateTime64(''2000-01-01 00:00:01'', ' || p || ', ''UTC'')]) AS x) GROUP BY g SETTINGS compile_aggregate_expressions = ' || j || ', min_count_to_compile_aggregate_expression = 0 FORMAT TSV') AS answer, p, j
  FROM unnest(ARRAY[3, 6, 9]) p, unnest(ARRAY[0, 1]) j ORDER BY p, j;
-- the FDW's min()/max() of date and time columns there: argMin/argMax by the
-- microseconds (aggregates.c), equal to the local copy with the JIT on from the
-- first run (the server's settings); before, min and max of each group that
-- holds 1950 and 2000 came back swapped
ALTER SERVER ch_d64j OPTIONS (ADD settings 'compile_aggregate_expressions = 1, min_count_to_compile_aggregate_expression = 0');
CREATE FOREIGN TABLE d64jit (id int, n timestamptz, e timestamptz, s timestamptz, k timestamptz, a timestamptz, m timestamptz)
  SERVER ch_d64j OPTIONS (table 'd64');
CREATE FOREIGN TABLE d64jitw (id int, n timestamp, e timestamp, s timestamp, k timestamp, a timestamp, m timestamp)
  SERVER ch_d64j OPTIONS (table 'd64');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id % 3, min(m), max(n) FROM d64jit GROUP BY id % 3;
SELECT 'd64jit' AS t, count(*) AS groups, count(*) FILTER (WHERE mn_n < '1970-01-01') AS before_1970 FROM (
  SELECT id % 7 AS g, min(n) AS mn_n FROM d64jit GROUP BY 1) x;
SELECT count(*) AS differences FROM (
  (SELECT id % 7, min(n), max(n), min(e), max(e), min(s) FILTER (WHERE id % 2 = 0), max(k), min(a), max(m), min(m) FROM d64jit GROUP BY 1
   EXCEPT ALL
   SELECT id % 7, min(n), max(n), min(e), max(e), min(s) FILTER (WHERE id % 2 = 0), max(k), min(a), max(m), min(m) FROM d64_l GROUP BY 1)
  UNION ALL
  (SELECT id % 7, min(n), max(n), min(e), max(e), min(s) FILTER (WHERE id % 2 = 0), max(k), min(a), max(m), min(m) FROM d64_l GROUP BY 1
   EXCEPT ALL
   SELECT id % 7, min(n), max(n), min(e), max(e), min(s) FILTER (WHERE id % 2 = 0), max(k), min(a), max(m), min(m) FROM d64jit GROUP BY 1)) d;
SELECT count(*) AS differences FROM (
  (SELECT id % 5, min(m), max(a), min(k) FROM d64jitw GROUP BY 1
   EXCEPT ALL
   SELECT id % 5, min(m AT TIME ZONE 'UTC'), max(a AT TIME ZONE 'America/Sao_Paulo'), min(k AT TIME ZONE 'Asia/Kolkata') FROM d64_l GROUP BY 1)
  UNION ALL
  (SELECT id % 5, min(m AT TIME ZONE 'UTC'), max(a AT TIME ZONE 'America/Sao_Paulo'), min(k AT TIME ZONE 'Asia/Kolkata') FROM d64_l GROUP BY 1
   EXCEPT ALL
   SELECT id % 5, min(m), max(a), min(k) FROM d64jitw GROUP BY 1)) d;
DROP SERVER ch_d64j CASCADE;

-- ==== 9. the rounding itself on the engine: dt64.c's integer form over
-- 30,000 ticks (a third near zero, a third at and beside the ties, a third
-- anywhere in Int64 / 1000; half of them negative) for each divisor 10,
-- 100, 1000, against PostgreSQL's own floor and half-to-even in numeric
CREATE TEMP TABLE d64_r AS
  SELECT d, split_part(l, E'\t', 1)::bigint AS t, split_part(l, E'\t', 2)::bigint AS r
    FROM unnest(ARRAY[10, 100, 1000]) d,
         string_to_table(rtrim(clickhouse_raw_query('ch_d64', format(
           'SELECT T, intDiv(T - positiveModulo(T, %1$s), %1$s) + (positiveModulo(T, %1$s) * 2 + '
           'bitAnd(intDiv(T - positiveModulo(T, %1$s), %1$s), 1) > %1$s) FROM (SELECT multiIf(number %% 3 = 0, '
           'intDiv(reinterpretAsInt64(cityHash64(number)), 1000), number %% 3 = 1, toInt64(number %% 4000) - 2000, '
           'intDiv(reinterpretAsInt64(cityHash64(number)), 1000000) * %1$s + toInt64([0, %2$s, %2$s - 1, %2$s + 1, %1$s - 1][number %% 5 + 1])) AS T '
           'FROM numbers(10000)) FORMAT TSV', d, d / 2)), E'\n'), E'\n') l;
SELECT d, count(*) AS ticks, count(*) FILTER (WHERE t < 0) AS negative,
       count(*) FILTER (WHERE t - floor(t::numeric / d) * d = d / 2) AS ties,
       count(*) FILTER (WHERE r <> floor(t::numeric / d) + CASE WHEN (t - floor(t::numeric / d) * d) * 2 > d
            OR ((t - floor(t::numeric / d) * d) * 2 = d AND mod(floor(t::numeric / d), 2) <> 0) THEN 1 ELSE 0 END) AS wrong
  FROM d64_r GROUP BY d ORDER BY d;
DROP TABLE d64_r;

DROP FUNCTION d64_check(text, boolean);
DROP FUNCTION d64_sent(text);
DROP TABLE d64_l;
DROP TABLE d64w_l;
DROP FOREIGN TABLE d64;
DROP FOREIGN TABLE d64w;
SELECT clickhouse_exec('ch_d64', 'DROP TABLE IF EXISTS regress_modern.d64');
RESET timezone;
RESET datestyle;
DROP SERVER ch_d64 CASCADE;
