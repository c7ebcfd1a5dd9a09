-- ====================================================================
-- Body of lcfix.sql (ClickHouse 18.16) and modern_lcfix.sql (the 26.5
-- engine behind test/chdb/front.py, a test harness, not a server).
-- (lcfix) Grouped, DISTINCT and windowed queries over LowCardinality
-- columns, compared with local copies. ClickHouse 18.16 computes
-- aggregates of LowCardinality(Nullable(T)) columns wrong: count(s)
-- counted the NULLs, sum() of LowCardinality(Nullable(UInt32)) raised
-- "Illegal type", min() skipped values, uniqExact and DISTINCT counted
-- NULL rows as values; a UNION ALL of grouping sets over LowCardinality
-- keys found no supertype (String and LowCardinality(Nullable(String))).
-- Such columns are read there as tuple(col).1 (their values without
-- LowCardinality) wherever a grouped, DISTINCT or window query computes
-- with them (src/fdw/lowcard.c). 18.16's countIf(x, cond) of a Nullable x
-- is NULL where no row counts (count(n) FILTER (...) of a group whose n
-- are all NULL): ifNull(..., 0). Also: a grouped query with no output
-- (SELECT 1 ... HAVING count(*) > 1) sent "SELECT  FROM" on both engines.
-- The caller has set :ch_port, :ch_db and :lc_settings (the server's
-- setting allowing LowCardinality of numbers and dates).
-- ====================================================================
CREATE SERVER ch_lc FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db', settings :'lc_settings');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_lc;
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_lc', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.' || t)
  FROM unnest(ARRAY['lc_a', 'lc_b']) t;
SELECT clickhouse_exec('ch_lc', 'CREATE TABLE ' || :'ch_db' || '.' || t ||
  ' (id Int32, g Int32, s LowCardinality(Nullable(String)), d LowCardinality(Nullable(Date)),' ||
  ' n LowCardinality(Nullable(UInt32)), ls LowCardinality(String), li LowCardinality(Int64),' ||
  ' ns Nullable(String)) ENGINE = MergeTree ORDER BY id')
  FROM unnest(ARRAY['lc_a', 'lc_b']) t;
-- rows: NULLs in every nullable column, a group (g = 3) whose s, d and n are all NULL
SELECT clickhouse_exec('ch_lc', 'INSERT INTO ' || :'ch_db' || '.' || t || ' SELECT toInt32(i), toInt32(i % 4), ' ||
  'if(i % 4 = 3 OR i % 5 = 0, NULL, [''a'', ''b'', '''', ''ä'', ''zz''][i % ' || m || ' + 1]), ' ||
  'if(i % 4 = 3 OR i % 7 = 0, NULL, toDate(''2020-01-01'') + i % 9), ' ||
  'if(i % 4 = 3 OR i % 6 = 0, NULL, toUInt32(i % 11 * 400000000)), ' ||
  '[''x'', ''y'', ''w''][i % 3 + 1], toInt64(i % 5) - 2, if(i % 3 = 0, NULL, toString(i % 7)) ' ||
  'FROM (SELECT number + 1 AS i FROM numbers(' || k || '))')
  FROM (VALUES ('lc_a', 5, 80), ('lc_b', 3, 30)) v(t, m, k);
CREATE FOREIGN TABLE lc_a (id int, g int, s text, d date, n bigint, ls text, li bigint, ns text)
  SERVER ch_lc OPTIONS (table 'lc_a');
CREATE FOREIGN TABLE lc_b (id int, g int, s text, d date, n bigint, ls text, li bigint, ns text)
  SERVER ch_lc OPTIONS (table 'lc_b');
CREATE TABLE lc_a_l AS SELECT * FROM lc_a;
CREATE TABLE lc_b_l AS SELECT * FROM lc_b;
SELECT (SELECT count(*) FROM lc_a_l) AS a_rows, (SELECT count(s) FROM lc_a_l) AS a_s,
  (SELECT count(*) FROM lc_b_l) AS b_rows, (SELECT count(DISTINCT d) FROM lc_a_l) AS a_d;
\i sql/include/diff_check.sql
-- lc_check(q): diff_check against the local copies, errors compared by SQLSTATE
CREATE FUNCTION lc_check(q text, ordered boolean DEFAULT false, OUT pushed boolean,
    OUT same boolean, OUT nrows int, OUT err text) LANGUAGE sql AS
  $$ SELECT * FROM diff_check(q, 'lc_a|lc_b', '(Aggregate|Sort|Unique|WindowAgg|Filter|Hash|Nested|Merge)', ordered, true) $$;

-- 1. aggregates, DISTINCT, grouping sets and windows over LowCardinality columns
SELECT n, c.pushed, c.same, c.nrows, c.err FROM unnest(ARRAY[
  'SELECT g, count(s), count(d), count(n), count(ls), count(ns) FROM lc_a GROUP BY g',
  'SELECT count(s), count(d), count(n) FROM lc_a',
  'SELECT g, sum(n), avg(n), min(n), max(n) FROM lc_a GROUP BY g',
  'SELECT g, min(s), max(s), min(d), max(d) FROM lc_a GROUP BY g',
  'SELECT g, min(ls), max(ls), sum(li), min(li) FROM lc_a GROUP BY g',
  'SELECT g, count(DISTINCT s), count(DISTINCT d), count(DISTINCT n) FROM lc_a GROUP BY g',
  'SELECT count(DISTINCT s), count(DISTINCT d), count(DISTINCT ls) FROM lc_a',
  'SELECT DISTINCT d FROM lc_a',
  'SELECT DISTINCT s FROM lc_a',
  'SELECT DISTINCT n, ls FROM lc_a',
  'SELECT DISTINCT g, s FROM lc_a',
  'SELECT s, count(*) FROM lc_a GROUP BY s',
  'SELECT d, count(*), count(s) FROM lc_a GROUP BY d',
  'SELECT n, ls, count(*) FROM lc_a GROUP BY n, ls',
  'SELECT g, count(*) FILTER (WHERE s IS NOT NULL), count(n) FILTER (WHERE g > 1) FROM lc_a GROUP BY g',
  'SELECT g, count(s) FILTER (WHERE n > 0), sum(n) FILTER (WHERE s <> ''a'') FROM lc_a GROUP BY g',
  'SELECT g, count(*) FROM lc_a GROUP BY g HAVING count(s) > 5',
  'SELECT g, count(s) FROM lc_a GROUP BY g HAVING min(d) IS NOT NULL',
  'SELECT s, count(*) FROM lc_a GROUP BY ROLLUP (s)',
  'SELECT ls, g, count(*), count(s) FROM lc_a GROUP BY GROUPING SETS ((ls), (g))',
  'SELECT s, d, count(*) FROM lc_a GROUP BY GROUPING SETS ((s), (d), ())',
  'SELECT ls, li, sum(n) FROM lc_a GROUP BY CUBE (ls, li)',
  'SELECT id, count(s) OVER (PARTITION BY g) FROM lc_a',
  'SELECT id, min(d) OVER (PARTITION BY g ORDER BY id) FROM lc_a',
  'SELECT id, rank() OVER (PARTITION BY s ORDER BY id) FROM lc_a',
  'SELECT count(*) FROM lc_a WHERE s IS NULL',
  'SELECT g, string_agg(s, '','' ORDER BY s) FROM lc_a GROUP BY g',
  'SELECT g, count(*) FROM lc_a WHERE s = ''a'' OR d > ''2020-01-05'' GROUP BY g',
  'SELECT g, sum(n) FILTER (WHERE g = 3), avg(n) FILTER (WHERE g > 2), count(ns) FILTER (WHERE g = 3) FROM lc_a GROUP BY g',
  'SELECT g, count(li) FILTER (WHERE s IS NULL), count(d) FILTER (WHERE ls = ''x'') FROM lc_a GROUP BY g',
  'SELECT 1 FROM lc_a HAVING count(*) > 1',
  'SELECT 2 FROM lc_a GROUP BY g HAVING count(s) > 3'
]) WITH ORDINALITY AS x(q, n), lc_check(q) c ORDER BY n;

-- 2. aggregates over joins, also of no column of the join (count(*): "SELECT  FROM" before)
SELECT n, c.pushed, c.same, c.nrows, c.err FROM unnest(ARRAY[
  'SELECT count(*) FROM lc_a a JOIN lc_b b ON a.id = b.id',
  'SELECT count(*) FROM lc_a a JOIN lc_b b ON a.g = b.g',
  'SELECT count(*) FROM lc_a a LEFT JOIN lc_b b ON a.id = b.id',
  'SELECT 1 FROM lc_a a JOIN lc_b b ON a.id = b.id GROUP BY a.g',
  'SELECT count(a.s), count(b.d), count(b.n) FROM lc_a a JOIN lc_b b ON a.id = b.id',
  'SELECT a.g, count(DISTINCT b.s), min(b.d) FROM lc_a a JOIN lc_b b ON a.id = b.id GROUP BY a.g',
  'SELECT b.s, count(*) FROM lc_a a JOIN lc_b b ON a.id = b.id GROUP BY b.s',
  'SELECT a.g, count(b.s), sum(b.n) FROM lc_a a LEFT JOIN lc_b b ON a.id = b.id GROUP BY a.g',
  'SELECT DISTINCT b.d FROM lc_a a JOIN lc_b b ON a.id = b.id',
  'SELECT DISTINCT a.s FROM lc_a a JOIN lc_b b ON a.g = b.g',
  'SELECT 1 FROM lc_a a JOIN lc_b b ON a.id = b.id HAVING count(*) > 1',
  'SELECT 2 FROM lc_a a JOIN lc_b b ON a.id = b.id GROUP BY a.g HAVING count(*) > 3',
  'SELECT 3 FROM lc_a a LEFT JOIN lc_b b ON a.id = b.id HAVING count(b.s) > 0'
]) WITH ORDINALITY AS x(q, n), lc_check(q) c ORDER BY n;

-- 3. random grouped queries: keys, aggregates, filters over the columns
SELECT setseed(0.42);
CREATE TABLE lc_rand AS
SELECT i, format('SELECT %s, %s, %s FROM lc_a %s GROUP BY %s', k, a1, a2, w, k) AS q
FROM (SELECT i,
  (ARRAY['g', 's', 'd', 'n', 'ls', 'li', 'ns'])[1 + floor(random() * 7)::int] AS k,
  (ARRAY['count(s)', 'count(d)', 'count(n)', 'sum(n)', 'min(s)', 'max(s)', 'min(d)', 'max(d)',
    'count(DISTINCT s)', 'count(DISTINCT d)', 'count(DISTINCT n)', 'avg(n)', 'min(ls)', 'max(n)',
    'count(*) FILTER (WHERE s IS NULL)', 'count(d) FILTER (WHERE n IS NOT NULL)',
    'sum(li)', 'count(ns)'])[1 + floor(random() * 18)::int] AS a1,
  (ARRAY['count(*)', 'count(s)', 'min(n)', 'max(d)', 'count(DISTINCT ls)', 'sum(n) FILTER (WHERE g = 3)',
    'count(DISTINCT s) FILTER (WHERE g < 3)', 'min(s)'])[1 + floor(random() * 8)::int] AS a2,
  (ARRAY['', 'WHERE s IS NOT NULL', 'WHERE d IS NULL', 'WHERE n > 1000000000', 'WHERE g <> 1',
    'WHERE s = ''a'' OR s IS NULL'])[1 + floor(random() * 6)::int] AS w
  FROM generate_series(1, 60) i) r;
SELECT count(*) AS queries, count(*) FILTER (WHERE c.pushed) AS sent,
  count(*) FILTER (WHERE c.same) AS same, sum(c.nrows) AS rows_compared
FROM lc_rand, lc_check(q) c;
-- (any that differ, or are kept local, by name)
SELECT i, q, c.pushed, c.err FROM lc_rand, lc_check(q) c WHERE NOT c.same OR NOT c.pushed ORDER BY i;

-- 4. what is sent on this server
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, count(s), sum(n), count(DISTINCT d) FROM lc_a GROUP BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM lc_a a JOIN lc_b b ON a.id = b.id;
