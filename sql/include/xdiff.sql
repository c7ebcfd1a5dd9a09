-- ====================================================================
-- Body of xdiff.sql (ClickHouse 18.16) and modern_xdiff.sql (the 26.5
-- engine behind test/chdb/front.py, a test harness, not a server): a
-- random differential test across constructs. 400 seeded random queries
-- (sql/include/xdiff_queries.sql, written by test/gen/xdiff.py 1001 400 1)
-- mix WHERE conditions (comparisons, three-valued logic, IS DISTINCT FROM,
-- LIKE, IN lists, BETWEEN, CASE, integer, float and real arithmetic with
-- their errors, string and date functions, run-time values), joins (INNER,
-- LEFT, FULL on nullable keys), GROUP BY (also ROLLUP/CUBE) with HAVING,
-- aggregates (FILTER, DISTINCT, ordered string_agg/array_agg), DISTINCT,
-- ORDER BY ... LIMIT, EXISTS/IN subqueries, UNION ALL and windows, over
-- two tables with NULLs, the integer extremes, NaN, Infinity, -0,
-- non-ASCII text and dates across months. Each runs on the foreign tables
-- and on local copies (diff_check: rows as sorted multisets, in order
-- where the query orders them completely; errors by SQLSTATE); what is
-- printed: how many were sent whole, and every query whose answers
-- differ. Queries that stop early (LIMIT) and joins hold no expression that
-- raises: where the plan decides which rows it evaluates (a LIMIT, a side
-- filtered by the other's keys first), two plans may rightly raise on
-- different rows. Found with it (session 10):
-- aggregates and DISTINCT over a FULL JOIN and NULLIF of a NULL on 18.16
-- (join_pushdown, pushdown). The caller has created server ch_xd and set
-- :ch_db.
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_xd', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.' || t) FROM unnest(ARRAY['xd1','xd2']) t;
SELECT clickhouse_exec('ch_xd', 'CREATE TABLE ' || :'ch_db' || '.xd1 (id Int32, k Nullable(Int32), g Int16, s Nullable(String), f Nullable(Float64), r Nullable(Float32), d Nullable(Date), ts Nullable(DateTime(''UTC''))) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_xd', 'CREATE TABLE ' || :'ch_db' || '.xd2 (id Int32, k Nullable(Int32), s Nullable(String), x Int64) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE xd1 (id int, k int, g smallint, s text, f float8, r real, d date, ts timestamptz)
  SERVER ch_xd OPTIONS (table 'xd1');
CREATE FOREIGN TABLE xd2 (id int, k int, s text, x bigint) SERVER ch_xd OPTIONS (table 'xd2');
-- two INSERTs: two parts (merges stopped), read as two streams (18.16's
-- DISTINCT over a join kept one set per stream)
SELECT clickhouse_exec('ch_xd', 'SYSTEM STOP MERGES ' || :'ch_db' || '.xd1');
CREATE TABLE xd1_src (id int, k int, g smallint, s text, f float8, r real, d date, ts timestamptz);
INSERT INTO xd1_src SELECT i,
  CASE WHEN i % 7 = 0 THEN NULL WHEN i % 11 = 0 THEN 2147483647 WHEN i % 13 = 0 THEN -2147483648 ELSE (i * 37 % 19) - 9 END,
  (i % 5)::smallint,
  CASE WHEN i % 6 = 0 THEN NULL ELSE (ARRAY['a', 'b', 'ab', '', 'Ünï', 'ba', 'a b', 'b%', 'zz'])[1 + i % 9] END,
  CASE WHEN i % 9 = 0 THEN NULL WHEN i % 17 = 0 THEN 'NaN' WHEN i % 19 = 0 THEN 'Infinity' WHEN i % 23 = 0 THEN '-0'
       ELSE ((i * 13) % 40 - 20) * 0.25 END,
  CASE WHEN i % 8 = 0 THEN NULL WHEN i % 29 = 0 THEN '3e38' ELSE ((i * 7) % 30 - 15) * 0.1 END,
  CASE WHEN i % 10 = 0 THEN NULL ELSE date '2019-12-25' + (i * 17 % 120) END,
  CASE WHEN i % 12 = 0 THEN NULL ELSE timestamptz '2020-01-31 22:00:00+00' + (i * 7919 % 500000) * interval '1 minute' END
FROM generate_series(1, 60) i;
INSERT INTO xd1 SELECT * FROM xd1_src WHERE id <= 30;
INSERT INTO xd1 SELECT * FROM xd1_src WHERE id > 30;
DROP TABLE xd1_src;
INSERT INTO xd2 SELECT i, CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 11 % 13) - 6 END,
  (ARRAY['a', 'b', 'ab', '', 'Ünï', NULL])[1 + i % 6], i::bigint * 1000000007 % 97 - 40
FROM generate_series(1, 25) i;
CREATE TABLE xd1_l AS SELECT * FROM xd1;
CREATE TABLE xd2_l AS SELECT * FROM xd2;
SELECT (SELECT count(*) FROM xd1_l) AS xd1, (SELECT count(*) FROM xd2_l) AS xd2;

\i sql/include/diff_check.sql
CREATE TABLE xd_queries (n int, ordered boolean, q text);
\set QUIET on
\i sql/include/xdiff_queries.sql
\set QUIET off
CREATE TABLE xd_results AS
  SELECT x.n, d.* FROM xd_queries x,
    LATERAL diff_check(x.q, 'xd[12]', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|WindowAgg|Filter:|Unique|Limit|Append)',
                       x.ordered, true) d;
SELECT count(*) AS queries, count(*) FILTER (WHERE pushed) AS sent_whole,
  count(*) FILTER (WHERE same) AS same, count(*) FILTER (WHERE err IS NOT NULL) AS raised
  FROM xd_results;
-- every query whose answers differ (none expected)
SELECT r.n, r.pushed, r.nrows, r.err, x.q FROM xd_results r JOIN xd_queries x USING (n)
 WHERE NOT r.same ORDER BY r.n;
-- found by it: a grouping key PostgreSQL folds to an integer constant
-- (coalesce(0, g)) was sent as GROUP BY 0, a position on 26.5 (out of
-- bounds, or another column's); now identity(0)
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT coalesce(0, xd1.g), count(*) FROM xd1 GROUP BY coalesce(0, xd1.g)',
  'SELECT coalesce(2, xd1.g), xd1.g, count(*) FROM xd1 GROUP BY coalesce(2, xd1.g), xd1.g',
  'SELECT coalesce(0, xd1.g), count(*) FROM xd1 JOIN xd2 ON xd1.k = xd2.k GROUP BY coalesce(0, xd1.g)',
  'SELECT coalesce(0, xd1.g), count(*) FROM xd1 GROUP BY ROLLUP(coalesce(0, xd1.g))',
  -- found by test/gen/xdiff.py's EXT mode (seed 7004, 26.5): the ORDER BY of a DISTINCT over
  -- a join took xd1.s, the first member of ON's xd1.s = xd2.s, which is no output of the
  -- DISTINCT sent as GROUP BY (NOT_AN_AGGREGATE, HV000)
  'SELECT DISTINCT xd2.s FROM xd1 JOIN xd2 ON xd1.id = xd2.id AND xd1.s = xd2.s ORDER BY 1 LIMIT 3',
  'SELECT DISTINCT xd2.s, xd2.k FROM xd1 JOIN xd2 ON xd1.id = xd2.id AND xd1.s = xd2.s ORDER BY 1 DESC NULLS LAST, 2 LIMIT 4',
  -- (seed 8037, 18.16) the same over a join of three tables: ORDER BY xd2.k sent as xd1.k,
  -- which 18.16's nested join subquery does not pass up (UNKNOWN_IDENTIFIER, HV000)
  'SELECT xd2.k, xd2.id FROM xd1 JOIN xd2 ON xd1.k = xd2.k JOIN xd1 xb ON xb.id = xd2.id ORDER BY 1, 2 LIMIT 5',
  'SELECT xd2.s, xd1.id FROM xd1 JOIN xd2 ON xd1.s = xd2.s JOIN xd2 xc ON xc.id = xd1.id ORDER BY 1 DESC, 2 LIMIT 5'
]) q, diff_check(q, 'xd[12]', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|Filter:)', false, true) c;
DROP TABLE xd_results, xd_queries, xd1_l, xd2_l;
