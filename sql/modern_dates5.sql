-- ====================================================================
-- dates5 on the ClickHouse 26.5 engine (chDB behind test/chdb/front.py, a
-- test harness, not a server): the dates5 body (sql/include/dates5.sql),
-- then a Date32 read as timestamptz in the fixed to_char patterns, and
-- DateTime64(6..9) columns compared with constants and run-time values
-- over the whole of their ranges. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_d5 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_d5;
\i sql/include/dates5.sql

-- ==== 1. a Date32 read as timestamptz in the fixed to_char patterns:
-- before, toHour(x, 'UTC') of the Date32 (ILLEGAL_TYPE_OF_ARGUMENT, 42804)
SELECT clickhouse_exec('ch_d5', 'DROP TABLE IF EXISTS regress_modern.d5x');
SELECT clickhouse_exec('ch_d5', 'CREATE TABLE regress_modern.d5x (id Int32, x Date32) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_d5', format('INSERT INTO regress_modern.d5x SELECT number, addDays(toDate32(''1970-01-01''), [%s][number + 1]) FROM system.numbers LIMIT %s',
         string_agg((x - date '1970-01-01')::text, ', ' ORDER BY o), count(*)))
  FROM unnest(ARRAY['1900-01-01', '1900-02-28', '1900-03-01', '1904-02-29', '1969-12-31', '1970-01-01',
                    '2000-02-29', '2106-02-07', '2149-06-06', '2149-06-07', '2200-03-01', '2299-12-31']::date[]) WITH ORDINALITY v(x, o);
SELECT clickhouse_exec('ch_d5', 'INSERT INTO regress_modern.d5x SELECT 100 + number, addDays(toDate32(''1900-01-01''), toInt32((number * 7919 + 31) % 146097)) FROM system.numbers LIMIT 200');
CREATE FOREIGN TABLE d5x (id int, x timestamptz) SERVER ch_d5 OPTIONS (table 'd5x');
CREATE TABLE d5x_l AS SELECT * FROM d5x;
SELECT count(*), min(x), max(x) FROM d5x_l;
CREATE FUNCTION d5x_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int, OUT err text)
  LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'd5x', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|WindowAgg|Unique|Group|Filter)', false, true) $$;
SELECT k, (d5x_check(format('SELECT id, to_char(x, %L) FROM d5x GROUP BY 1, 2', k))).*
  FROM unnest(ARRAY['YYYY', 'YYYY-MM', 'YYYY-MM-DD', 'YYYYMMDD', 'YYYY-MM-DD HH24:MI', 'YYYY-MM-DD HH24:MI:SS',
                    'HH24', 'HH24:MI', 'HH24:MI:SS']) WITH ORDINALITY v(k, o)
  ORDER BY o;
SELECT q, (d5x_check(q)).* FROM (VALUES
  ('SELECT id FROM d5x WHERE to_char(x, ''YYYY-MM-DD HH24:MI:SS'') = ''1900-01-01 00:00:00'''),
  ('SELECT id FROM d5x WHERE to_char(x, ''HH24:MI:SS'') = ''00:00:00'' AND to_char(x, ''YYYY'') > ''2149''')) v(q);
DROP FUNCTION d5x_check(text);
DROP TABLE d5x_l;
DROP FOREIGN TABLE d5x;
SELECT clickhouse_exec('ch_d5', 'DROP TABLE IF EXISTS regress_modern.d5x');

-- ==== 2. DateTime64(9), (8), (7) and (6) columns compared with values:
-- PostgreSQL reads a DateTime64(7..9) rounded half to even to the
-- microsecond and compares that, so the comparison is sent against the
-- ticks that round to the value; DateTime64(9) ends at 2262-04-11
-- 23:47:16.854775807 (before, a later value raised DECIMAL_OVERFLOW, and
-- 2000-01-01 00:00:00.0000004 was not = '2000-01-01 00:00:00')
SELECT clickhouse_exec('ch_d5', 'DROP TABLE IF EXISTS regress_modern.d5t');
SELECT clickhouse_exec('ch_d5', 'CREATE TABLE regress_modern.d5t (id Int32, n DateTime64(9, ''UTC''), e DateTime64(8, ''UTC''), s DateTime64(7, ''UTC''), m DateTime64(6, ''UTC'')) ENGINE = MergeTree ORDER BY id');
CREATE TEMP TABLE d5t_src (id int, x text);
INSERT INTO d5t_src SELECT o::int, x FROM unnest(ARRAY[
  '1900-01-01 00:00:00.000000000', '1900-01-01 00:00:00.000000499', '1900-01-01 00:00:00.000000500',
  '1900-01-01 00:00:00.000001500', '1969-12-31 23:59:59.999999499', '1969-12-31 23:59:59.999999500',
  '1970-01-01 00:00:00.000000000', '1970-01-01 00:00:00.000000500', '1970-01-01 00:00:00.000001499',
  '1970-01-01 00:00:00.000001500', '1999-12-31 23:59:59.999999500', '1999-12-31 23:59:59.999999600',
  '2000-01-01 00:00:00.000000400', '2000-01-01 00:00:00.000000500', '2000-01-01 00:00:00.000000600',
  '2000-01-01 00:00:00.000001500', '2000-01-01 00:00:00.000002500', '2000-01-01 00:00:00.000002510',
  '2262-04-11 23:47:16.854775000', '2262-04-11 23:47:16.854775499', '2262-04-11 23:47:16.854775807',
  '2262-04-11 23:47:17.000000000', '2270-01-01 00:00:00.000000000', '2299-12-31 23:59:59.999999499',
  '2299-12-31 23:59:59.999999990']) WITH ORDINALITY v(x, o);
-- 150 seeded pseudo-random instants 1900 .. 2299 with nanoseconds
INSERT INTO d5t_src SELECT 100 + i,
    to_char(to_timestamp(((i::bigint * 2654435761) % 12622780800) - 2208988800) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')
    || '.' || lpad(((i::bigint * 40503 * 7919) % 1000000000)::text, 9, '0')
  FROM generate_series(1, 150) i;
-- each column gets the instant truncated to its precision (n: at most its end)
SELECT clickhouse_exec('ch_d5', 'INSERT INTO regress_modern.d5t VALUES ' || string_agg(format('(%s, %L, %L, %L, %L)', id,
         CASE WHEN x > '2262-04-11 23:47:16.854775807' THEN '2262-04-11 23:47:16.854775807' ELSE x END,
         left(x, 28), left(x, 27), left(x, 26)), ', ' ORDER BY id))
  FROM d5t_src;
SET timezone = 'UTC';
CREATE FOREIGN TABLE d5t (id int, n timestamptz, e timestamptz, s timestamptz, m timestamptz) SERVER ch_d5 OPTIONS (table 'd5t');
CREATE TABLE d5t_l AS SELECT * FROM d5t;
SELECT count(*), min(n), max(n), min(e), max(e), min(s), max(s), min(m), max(m) FROM d5t_l;
CREATE FUNCTION d5t_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int, OUT err text)
  LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'd5t', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|WindowAgg|Unique|Group|Filter)', false, true) $$;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM d5t WHERE n = '2000-01-01 00:00:00';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM d5t WHERE n >= '2270-01-01' OR '2000-01-01 00:00:00.000001' > s;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM d5t WHERE e IN ('2000-01-01', '2299-12-31 23:59:59.999999');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM d5t WHERE n <> (SELECT timestamptz '2262-04-11 23:47:16.854776');
-- the values compared: edges, beyond each range, and some rows' own
CREATE TEMP TABLE d5t_k AS SELECT DISTINCT k FROM (
  SELECT unnest(ARRAY['1800-01-01', '1899-12-31 23:59:59.999999', '1900-01-01 00:00:00', '1900-01-01 00:00:00.000001',
                      '1900-01-01 00:00:00.000002', '1969-12-31 23:59:59.999999', '1970-01-01 00:00:00',
                      '1970-01-01 00:00:00.000001', '1970-01-01 00:00:00.000002', '1999-12-31 23:59:59.999999',
                      '2000-01-01 00:00:00', '2000-01-01 00:00:00.000001', '2000-01-01 00:00:00.000002',
                      '2000-01-01 00:00:00.000003', '2262-04-11 23:47:16.854775', '2262-04-11 23:47:16.854776',
                      '2262-04-11 23:47:17', '2270-01-01', '2299-12-31 23:59:59.999999', '2300-01-01',
                      '2400-01-01']::timestamptz[]) AS k
  UNION ALL SELECT n FROM d5t_l WHERE id % 10 = 3 UNION ALL SELECT s FROM d5t_l WHERE id % 10 = 7) t;
SELECT count(*) FROM d5t_k;
-- every operator, the column on either side: one query per column and
-- form, array_agg(id ORDER BY id) FILTER (WHERE <comparison>) for each value
-- (IN lists: of whole seconds within DateTime's range, the constants such
-- lists are sent with; the rows' own values truncated to the second)
CREATE FUNCTION d5t_q(c text, form text) RETURNS text LANGUAGE sql AS $$
  SELECT 'SELECT ' || string_agg(format('array_agg(id ORDER BY id) FILTER (WHERE ' || form || ')', c, k, k2, k3), ', ' ORDER BY k)
         || ' FROM d5t'
    FROM (SELECT k, coalesce(lead(k) OVER (ORDER BY k), k) AS k2, coalesce(lead(k, 2) OVER (ORDER BY k), k) AS k3
            FROM (SELECT DISTINCT CASE WHEN form ~ ' IN ' THEN date_trunc('second', k) ELSE k END AS k FROM d5t_k
                   WHERE form !~ ' IN ' OR k BETWEEN '1970-01-01' AND '2106-02-07') k0) ks $$;
SELECT c, form, (d5t_check(d5t_q(c, form))).*
  FROM unnest(ARRAY['n', 'e', 's', 'm']) WITH ORDINALITY u(c, co),
       unnest(ARRAY['%1$s = %2$L', '%1$s <> %2$L', '%1$s < %2$L', '%1$s <= %2$L', '%1$s > %2$L', '%1$s >= %2$L',
                    '%2$L = %1$s', '%2$L <> %1$s', '%2$L < %1$s', '%2$L <= %1$s', '%2$L > %1$s', '%2$L >= %1$s',
                    '%1$s BETWEEN %2$L AND %3$L', '%1$s NOT BETWEEN %2$L AND %3$L', '%1$s IN (%2$L, %3$L, %4$L)',
                    '%1$s NOT IN (%2$L, %3$L)', '%1$s IS DISTINCT FROM %2$L', '%1$s IS NOT DISTINCT FROM %2$L'])
       WITH ORDINALITY v(form, fo)
  ORDER BY co, fo;
-- initplan values (run-time: the bound is written when the scan starts)
SELECT q, (d5t_check(q)).* FROM (VALUES
  ('SELECT id FROM d5t WHERE n = (SELECT timestamptz ''2000-01-01 00:00:00'')'),
  ('SELECT id FROM d5t WHERE n >= (SELECT timestamptz ''2262-04-11 23:47:16.854776'')'),
  ('SELECT id FROM d5t WHERE (SELECT timestamptz ''2270-01-01'') > n'),
  ('SELECT id FROM d5t WHERE s <> (SELECT timestamptz ''1970-01-01 00:00:00.000001'')'),
  ('SELECT id FROM d5t WHERE e <= (SELECT timestamptz ''2299-12-31 23:59:59.999999'')'),
  ('SELECT id FROM d5t WHERE n < (SELECT NULL::timestamptz)'),
  ('SELECT id FROM d5t WHERE n BETWEEN (SELECT timestamptz ''1999-12-31 23:59:59.999999'') AND now() + interval ''300 years''')) v(q);
-- a prepared statement's parameter (generic plan: the bound is written when the scan starts)
SET plan_cache_mode = force_generic_plan;
PREPARE d5p(timestamptz) AS SELECT array_agg(id ORDER BY id) FROM d5t WHERE n = $1 OR e < $1 OR s >= $1;
PREPARE d5pl(timestamptz) AS SELECT array_agg(id ORDER BY id) FROM d5t_l WHERE n = $1 OR e < $1 OR s >= $1;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE d5p('2000-01-01');
DO $$
DECLARE k timestamptz; a int[]; b int[]; bad int := 0; total int := 0;
BEGIN
  FOR k IN SELECT d5t_k.k FROM d5t_k UNION ALL SELECT NULL LOOP
    EXECUTE 'EXECUTE d5p(' || quote_nullable(k) || ')' INTO a;
    EXECUTE 'EXECUTE d5pl(' || quote_nullable(k) || ')' INTO b;
    total := total + 1;
    IF a IS DISTINCT FROM b THEN bad := bad + 1; RAISE NOTICE 'differs for %', k; END IF;
  END LOOP;
  RAISE NOTICE 'prepared: % values, % differ', total, bad;
END $$;
RESET plan_cache_mode;
DEALLOCATE d5p;
DEALLOCATE d5pl;
-- ==== 3. keys over DateTime64(7..9): ticks of one microsecond (.0000001 and
-- .0000004) are one value in PostgreSQL, two in ClickHouse: GROUP BY,
-- DISTINCT, count(DISTINCT) and window keys stay local (before: two groups
-- sent where PostgreSQL has one); DateTime64(6) keys stay sent
SELECT clickhouse_exec('ch_d5', 'DROP TABLE IF EXISTS regress_modern.d5k');
SELECT clickhouse_exec('ch_d5', 'CREATE TABLE regress_modern.d5k (id Int32, n DateTime64(9, ''UTC''), s DateTime64(7, ''UTC''), m DateTime64(6, ''UTC'')) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_d5', 'INSERT INTO regress_modern.d5k VALUES (1, ''2000-01-01 00:00:00.0000001'', ''2000-01-01 00:00:00.0000001'', ''2000-01-01 00:00:00.000001''), (2, ''2000-01-01 00:00:00.0000004'', ''2000-01-01 00:00:00.0000004'', ''2000-01-01 00:00:00.000001''), (3, ''2000-01-01 00:00:00.0000005'', ''2000-01-01 00:00:00.0000005'', ''2000-01-01 00:00:00.000002''), (4, ''2000-01-01 00:00:00.0000015'', ''2000-01-01 00:00:00.0000015'', ''2000-01-01 00:00:00.000002''), (5, ''1999-12-31 23:59:59.9999996'', ''1999-12-31 23:59:59.9999996'', ''2000-01-01 00:00:00'')');
CREATE FOREIGN TABLE d5k (id int, n timestamptz, s timestamptz, m timestamptz) SERVER ch_d5 OPTIONS (table 'd5k');
CREATE TABLE d5k_l AS SELECT * FROM d5k;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT n, count(*) FROM d5k GROUP BY n', 'SELECT s, count(*) FROM d5k GROUP BY s',
  'SELECT date_trunc(''second'', n), count(*) FROM d5k GROUP BY 1',
  'SELECT DISTINCT n FROM d5k', 'SELECT DISTINCT s, m FROM d5k', 'SELECT count(DISTINCT n), count(DISTINCT s) FROM d5k',
  'SELECT id, count(*) OVER (PARTITION BY n) FROM d5k', 'SELECT id, rank() OVER (ORDER BY s) FROM d5k',
  'SELECT m, count(*) FROM d5k GROUP BY m', 'SELECT DISTINCT m FROM d5k', 'SELECT count(DISTINCT m) FROM d5k'
]) q, diff_check(q, 'd5k', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|WindowAgg|Unique|Group|Filter)', false, true) c;
DROP TABLE d5k_l;
DROP FOREIGN TABLE d5k;
SELECT clickhouse_exec('ch_d5', 'DROP TABLE IF EXISTS regress_modern.d5k');

DROP FUNCTION d5t_q(text, text);
DROP FUNCTION d5t_check(text);
DROP TABLE d5t_l;
DROP FOREIGN TABLE d5t;
SELECT clickhouse_exec('ch_d5', 'DROP TABLE IF EXISTS regress_modern.d5t');
RESET timezone;
RESET datestyle;
DROP SERVER ch_d5 CASCADE;
