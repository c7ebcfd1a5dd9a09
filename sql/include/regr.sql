-- ====================================================================
-- corr, covar_pop, covar_samp and regr_sxx/syy/sxy/slope/intercept/r2
-- (issue 17 item 7), shared by regr.sql (ClickHouse 18.16: no arrayFold,
-- all kept local) and modern_regr.sql (the 26.5 engine behind
-- test/chdb/front.py, a test harness, not a server: sent, PostgreSQL's
-- float8_regr_accum replayed by arrayFold and finished by PostgreSQL's own
-- final functions, src/fdw/agg_regr.c). Each answer is compared with a
-- local copy's, float8 values as their shortest exact text
-- (extra_float_digits 1), so equal means the same bits.
--
-- Why the orders are the same: PostgreSQL's answer depends on the order it
-- accumulates the rows in. The fixture is one INSERT into a MergeTree
-- ordered by id (one part), read by one thread (the server's settings
-- option max_threads=1), so ClickHouse collects each group's rows in id
-- order; the local copy is written in id order (CREATE TABLE AS ... ORDER
-- BY id) and its sequential scan returns them in that order. The table
-- rx holds values whose sums are exact (small integers) so any order
-- gives the same bits there too. The caller has created server ch_rg
-- (with settings 'max_threads=1') and set :ch_db and :sent (whether this
-- server sends them).
-- ====================================================================
SET extra_float_digits = 1;
SELECT clickhouse_exec('ch_rg', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.rg');
SELECT clickhouse_exec('ch_rg', 'CREATE TABLE ' || :'ch_db' || '.rg (id Int32, g Nullable(Int32), y Nullable(Float64), x Nullable(Float64), i Nullable(Int32), b Nullable(Int64), r Nullable(Float32), n Nullable(Decimal(12, 2))) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_rg', 'INSERT INTO ' || :'ch_db' || '.rg VALUES
  (1, 1, 1.5, 0.1, 3, 9007199254740993, 0.1, 1.25),
  (2, 1, 2.25, 0.7, -4, 9007199254740995, 2.5, 3.5),
  (3, 1, 3.125, 1.3, 7, -9007199254740993, -1.75, 0.01),
  (4, 1, NULL, 2, 1, NULL, NULL, NULL),
  (5, 1, 0.3333333333333333, NULL, 2, 5, 1e-3, 7),
  (6, 2, 1e150, 1e150, 100000, 9223372036854775807, 3.4e38, 1),
  (7, 2, -1e150, 3e149, -100000, -9223372036854775808, -3.4e38, 2),
  (8, 2, 7.5, 1e-300, 5, 1, 1e-38, 3),
  (9, 3, 4.9e-324, 2.2250738585072014e-308, 1, 1, 1, 1),
  (10, 3, -4.9e-324, 1e-310, 2, 2, 2, 2),
  (11, 3, 1e-320, -2.2250738585072014e-308, 3, 3, 3, 3),
  (12, 4, nan, 1, 1, 1, nan, 1),
  (13, 4, 2, 3, 2, 2, 2, 2),
  (14, 4, 5, 7, 3, 3, 3, 3),
  (15, 5, inf, 1, 1, 1, inf, 1),
  (16, 5, 2, -inf, 2, 2, 2, 2),
  (17, 5, 3, 4, 3, 3, 3, 3),
  (18, 6, 42, 17, 6, 6, 6, 6),
  (19, 7, NULL, NULL, NULL, NULL, NULL, NULL),
  (20, 7, 1, NULL, 1, NULL, 1, NULL),
  (21, 8, 1, 2, 1, 2, 1, 2),
  (22, 8, 1, 2, 1, 2, 1, 2),
  (23, 8, 1, 2, 1, 2, 1, 2),
  (24, 9, -0.0, -0.0, 0, 0, -0.0, 0),
  (25, 9, 0.0, -0.0, 0, 0, 0.0, 0),
  (26, 10, 0.1, 0.2, 1, 4, 0.1, 0.1),
  (27, 10, 0.2, 0.30000000000000004, 2, 3, 0.2, 0.2),
  (28, 10, 0.30000000000000004, 0.1, 3, 2, 0.3, 0.3),
  (29, 10, 1e15, 1e-15, 4, 1, 0.4, 0.4),
  (30, NULL, 6.02e23, 6.67e-11, 9, 9, 9, 9),
  (31, NULL, 2.718281828459045, 3.141592653589793, 8, 8, 8, 8),
  (32, 11, 1e308, -1.7976931348623157e308, 9, 9, 9, 9)');
CREATE FOREIGN TABLE rg (id int, g int, y float8, x float8, i int, b bigint, r real, n numeric(12, 2))
  SERVER ch_rg OPTIONS (table 'rg');
CREATE TABLE rg_l AS SELECT * FROM rg ORDER BY id;
SELECT count(*) FROM rg_l;
-- rx: groups of two rows of small integers, where float8_regr_accum is
-- exact (its scale 1 / (N * (N - 1)) is 1/2), so either row order gives
-- the same bits; the local copy is in the reverse order. Over more rows the
-- scale (1/6, 1/12, ...) rounds: the whole table's answer differs with
-- the order, PostgreSQL's own too (checked below)
SELECT clickhouse_exec('ch_rg', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.rx');
SELECT clickhouse_exec('ch_rg', 'CREATE TABLE ' || :'ch_db' || '.rx (id Int32, g Int32, y Nullable(Int16), x Nullable(Int16)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_rg', 'INSERT INTO ' || :'ch_db' || '.rx SELECT number, intDiv(number, 2), if(number % 7 = 3, NULL, toInt16(number % 5 * 2 - 3)), toInt16(number % 3 * 4 - 2) FROM numbers(12)');
CREATE FOREIGN TABLE rx (id int, g int, y smallint, x smallint) SERVER ch_rg OPTIONS (table 'rx');
CREATE TABLE rx_l AS SELECT * FROM rx ORDER BY id DESC;

\i sql/include/diff_check.sql
-- rg_check(query): the query on the foreign tables and on the local copies,
-- rows compared as text; pushed: one Foreign Scan, no Aggregate above it
CREATE FUNCTION rg_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'rg|rx', '(Aggregate|Sort|Group)') $$;

-- ==== the nine, per group: NULL pairs skipped, one-row groups (NULL or
-- 0 as PostgreSQL's final functions say), NaN, infinities (NaN), huge
-- values (1e150: no sum overflows; group 11's one row of 1e308: its
-- squares are never computed), subnormals, -0, bigint past 2^53
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, corr(y, x) FROM rg GROUP BY g;
SELECT q, c.pushed = :sent AS as_expected, c.same, c.nrows, c.err FROM unnest(ARRAY[
  'SELECT g, corr(y, x), covar_pop(y, x), covar_samp(y, x) FROM rg GROUP BY g',
  'SELECT g, regr_sxx(y, x), regr_syy(y, x), regr_sxy(y, x) FROM rg GROUP BY g',
  'SELECT g, regr_slope(y, x), regr_intercept(y, x), regr_r2(y, x) FROM rg GROUP BY g',
  'SELECT g, corr(x, y), regr_slope(x, y), regr_r2(x, y) FROM rg GROUP BY g',
  'SELECT corr(y, x), covar_pop(y, x), covar_samp(y, x), regr_sxx(y, x), regr_syy(y, x), regr_sxy(y, x), regr_slope(y, x), regr_intercept(y, x), regr_r2(y, x) FROM rg',
  'SELECT corr(y, x), regr_sxx(y, x) FROM rg WHERE id > 1000',
  'SELECT g, corr(y, x) FILTER (WHERE id % 2 = 1), covar_samp(y, x) FILTER (WHERE x > 0), regr_count(y, x) FROM rg GROUP BY g',
  'SELECT g, corr(y, y), regr_r2(x, x), covar_pop(x, x) FROM rg GROUP BY g',
  'SELECT g, corr(i, b), covar_samp(b, i), regr_slope(b, b), regr_sxx(i, r) FROM rg GROUP BY g',
  'SELECT g, covar_pop(r, y), regr_syy(r, x) FROM rg GROUP BY g',
  'SELECT g, corr(coalesce(y, 0), x), regr_slope(coalesce(y, x), coalesce(x, -1)) FROM rg GROUP BY g',
  'SELECT g, corr(y, x), sum(i), count(*) FROM rg GROUP BY g',
  'SELECT g, corr(y, x), regr_avgx(y, x), regr_avgy(y, x) FROM rg GROUP BY g',
  'SELECT g, covar_pop(y, x) FROM rg GROUP BY g HAVING count(*) > 1',
  'SELECT g, covar_pop(y, x) FROM rg GROUP BY g HAVING corr(y, x) > 0',
  'SELECT g, corr(y, x), covar_samp(y, x), regr_r2(y, x), regr_intercept(y, x) FROM rx GROUP BY g'
]) q, rg_check(q) c;
-- the order matters: all twelve rows of rx in id order (ClickHouse, or
-- PostgreSQL scanning the foreign table) and in the reverse order (the
-- local copy) give other bits, in PostgreSQL alone as well
SELECT q, c.pushed = :sent AS as_expected, c.same, c.nrows, c.err FROM unnest(ARRAY[
  'SELECT covar_pop(y, x), regr_sxx(y, x), regr_sxy(y, x) FROM rx'
]) q, rg_check(q) c;
SELECT (SELECT regr_sxy(y, x) FROM (SELECT * FROM rx_l ORDER BY id) s)::text AS id_order,
       (SELECT regr_sxy(y, x) FROM (SELECT * FROM rx_l ORDER BY id DESC) s)::text AS reverse_order,
       (SELECT regr_sxy(y, x) FROM rx)::text AS foreign_table;
SELECT g, corr(y, x), covar_samp(y, x), regr_intercept(y, x) FROM rg GROUP BY g ORDER BY g;
-- HAVING with one of the nine: evaluated by PostgreSQL (a group it drops
-- must still raise the overflow below)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, covar_pop(y, x) FROM rg GROUP BY g HAVING count(*) > 1;

-- ==== kept local: numeric (its float8 cast is not sent: ClickHouse rounds a
-- Decimal twice), a raising argument (float8 * overflows: ClickHouse would
-- compute it for rows FILTER leaves out), DISTINCT, ORDER BY inside the
-- aggregate
SELECT q, c.pushed AS pushed, c.same, c.nrows, c.err FROM unnest(ARRAY[
  'SELECT g, corr(n, x) FROM rg GROUP BY g',
  'SELECT g, corr(y * 2, x) FROM rg WHERE g <> 11 GROUP BY g',
  'SELECT g, corr(DISTINCT y, x) FROM rg GROUP BY g',
  'SELECT g, corr(y, x ORDER BY id) FROM rg GROUP BY g'
]) q, rg_check(q) c;

-- ==== overflow: finite inputs whose sums are infinite raise PostgreSQL's
-- error (22003), also for a group HAVING drops
SELECT clickhouse_exec('ch_rg', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.ro');
SELECT clickhouse_exec('ch_rg', 'CREATE TABLE ' || :'ch_db' || '.ro (id Int32, g Int32, y Float64, x Float64) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_rg', 'INSERT INTO ' || :'ch_db' || '.ro VALUES (1, 1, 1, 1), (2, 1, 2, 3), (3, 2, 1e200, 1), (4, 2, -1e200, 2), (5, 3, 1.7e308, 1), (6, 3, 1.7e308, 2)');
CREATE FOREIGN TABLE ro (id int, g int, y float8, x float8) SERVER ch_rg OPTIONS (table 'ro');
CREATE TABLE ro_l AS SELECT * FROM ro ORDER BY id;
SELECT q, c.pushed = :sent AS as_expected, c.same, c.nrows, c.err FROM unnest(ARRAY[
  'SELECT g, covar_pop(y, x) FROM ro GROUP BY g',
  'SELECT g, regr_syy(y, x) FROM ro WHERE g = 2 GROUP BY g',
  'SELECT g, corr(y, x) FROM ro WHERE g <> 3 GROUP BY g',
  'SELECT g, regr_sxx(y, x) FROM ro GROUP BY g HAVING g = 1',
  'SELECT g, regr_sxx(y, x) FROM ro GROUP BY g HAVING sum(x) > 3.5',
  'SELECT g, corr(y, x), count(*) FROM ro GROUP BY g HAVING count(*) > 1 AND sum(x) > 3.5'
]) q, diff_check(q, 'ro', '(Aggregate|Sort|Group)', false, true) c;
-- (HAVING g = 1 is a WHERE clause for PostgreSQL's planner: groups 2 and 3
-- are never computed, on either side)
EXPLAIN (COSTS OFF) SELECT g, regr_sxx(y, x) FROM ro GROUP BY g HAVING sum(x) > 3.5;
SELECT g, regr_syy(y, x) FROM ro GROUP BY g HAVING g = 1;

-- ==== 120 seeded random aggregates x groups over random values (huge,
-- tiny, NULL, repeated), each compared bit for bit with the local copy
SELECT setseed(0.17);
SELECT clickhouse_exec('ch_rg', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.rr');
SELECT clickhouse_exec('ch_rg', 'CREATE TABLE ' || :'ch_db' || '.rr (id Int32, g Int32, h Int32, y Nullable(Float64), x Nullable(Float64), i Nullable(Int32)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_rg', 'INSERT INTO ' || :'ch_db' || '.rr VALUES ' || string_agg(format('(%s, %s, %s, %s, %s, %s)', id, g, h, y, x, i), ', '))
FROM (SELECT id, (random() * 6)::int AS g, (random() * 3)::int AS h,
        CASE WHEN random() < 0.08 THEN 'NULL' ELSE ((random() - 0.4) * 10 ^ (random() * 40 - 20))::float8::text END AS y,
        CASE WHEN random() < 0.08 THEN 'NULL' WHEN random() < 0.2 THEN ((random() * 5)::int)::text ELSE ((random() - 0.5) * 10 ^ (random() * 30 - 10))::float8::text END AS x,
        CASE WHEN random() < 0.1 THEN 'NULL' ELSE ((random() - 0.5) * 2e9)::bigint::text END AS i
      FROM generate_series(1, 400) id) s;
CREATE FOREIGN TABLE rr (id int, g int, h int, y float8, x float8, i int) SERVER ch_rg OPTIONS (table 'rr');
CREATE TABLE rr_l AS SELECT * FROM rr ORDER BY id;
CREATE TEMP TABLE rr_q AS
SELECT n, format('SELECT %s, %s(%s, %s)%s FROM rr GROUP BY %s', k, a, yy, xx, f, k) AS q
FROM (SELECT n,
        (ARRAY['corr', 'covar_pop', 'covar_samp', 'regr_sxx', 'regr_syy', 'regr_sxy', 'regr_slope', 'regr_intercept', 'regr_r2'])[1 + floor(random() * 9)::int] AS a,
        (ARRAY['y', 'x', 'i', 'coalesce(y, 0)', 'coalesce(x, i)'])[1 + floor(random() * 5)::int] AS yy,
        (ARRAY['x', 'y', 'i', 'coalesce(i, -7)', 'id'])[1 + floor(random() * 5)::int] AS xx,
        (ARRAY['', '', ' FILTER (WHERE id % 3 <> 0)', ' FILTER (WHERE y > 0)'])[1 + floor(random() * 4)::int] AS f,
        (ARRAY['g', 'h', 'g, h'])[1 + floor(random() * 3)::int] AS k
      FROM generate_series(1, 120) n) s;
SELECT count(*) AS queries, count(*) FILTER (WHERE c.pushed = :sent) AS as_expected,
       count(*) FILTER (WHERE c.same) AS same, sum(c.nrows) AS groups
FROM rr_q, diff_check(q, 'rr', '(Aggregate|Sort|Group)') c;
SELECT n, q FROM rr_q, diff_check(q, 'rr', '(Aggregate|Sort|Group)') c
WHERE NOT c.same OR c.pushed <> :sent ORDER BY n;

DROP TABLE rg_l, rx_l, ro_l, rr_l;
