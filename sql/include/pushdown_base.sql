-- ====================================================================
-- Body of pushdown.sql (ClickHouse 18.16) and modern_pushdown_base.sql (the
-- 26.5 engine behind test/chdb/front.py, a test harness, not a server):
-- WHERE, ORDER BY, LIMIT and aggregates. The caller has created server ch_pd
-- and set :ch_db, and :ch_sql to a server that takes rows in VALUES (HTTP).
-- ====================================================================
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';
SELECT clickhouse_exec('ch_pd', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.pd');
SELECT clickhouse_exec('ch_pd', 'CREATE TABLE ' || :'ch_db' || '.pd (id UInt32, i Nullable(Int32), u UInt64, f Nullable(Float64), s Nullable(String), t String, d Nullable(Date), ts Nullable(DateTime), b Nullable(UInt8), uu Nullable(UUID)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec(:'ch_sql', 'INSERT INTO ' || :'ch_db' || '.pd VALUES (1, NULL, 0, NULL, NULL, '''', NULL, NULL, NULL, NULL), (2, 0, 1, 0, '''', ''a'', ''1970-01-01'', ''1970-01-01 00:00:00'', 0, ''00000000-0000-0000-0000-000000000000''), (3, -5, 18446744073709551615, -1.5, ''abc'', ''abc'', ''2019-01-02'', ''2019-01-02 03:04:05'', 1, ''a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11''), (4, 7, 9223372036854775808, 2.5, ''a_c'', ''a%c'', ''2000-02-29'', ''2000-02-29 12:00:00'', 1, NULL), (5, 2147483647, 7, 100, ''ABC'', ''back\\slash'', ''2149-06-06'', ''2106-02-07 06:28:15'', 0, NULL), (6, -2147483648, 8, 0.1, ''üñí'', ''üñí'', ''1999-12-31'', ''1999-12-31 23:59:59'', NULL, NULL), (7, 3, 9, 1e300, ''a\\_c'', ''_'', ''2019-01-03'', ''2019-01-03 00:00:00'', 1, NULL)');
SELECT clickhouse_exec('ch_pd', 'INSERT INTO ' || :'ch_db' || '.pd SELECT 8, 1, 10, nan, ''nan'', ''nan'', ''2019-01-02'', ''2019-01-02 03:04:06'', 0, NULL');
SELECT clickhouse_exec('ch_pd', 'INSERT INTO ' || :'ch_db' || '.pd SELECT 9, 2, 11, inf, ''inf'', ''inf'', ''2019-01-02'', ''2019-01-02 03:04:04'', 1, NULL');
SELECT clickhouse_exec('ch_pd', 'INSERT INTO ' || :'ch_db' || '.pd SELECT 10, 4, 12, -inf, ''-inf'', ''-inf'', NULL, NULL, NULL, NULL');

CREATE FOREIGN TABLE pd (id int, i int, u numeric, f float8, s text, t text, d date,
  ts timestamptz, b boolean, uu uuid) SERVER ch_pd;
-- b is UInt8 in ClickHouse: read it as smallint for the local copy
CREATE FOREIGN TABLE pd_raw (id int, i int, u numeric, f float8, s text, t text, d date,
  ts timestamptz, b smallint, uu uuid) SERVER ch_pd OPTIONS (table 'pd');
CREATE TABLE pd_local AS SELECT id, i, u, f, s, t, d, ts, b::int::boolean AS b, uu FROM pd_raw;
ALTER FOREIGN TABLE pd ALTER COLUMN b TYPE smallint;
CREATE FOREIGN TABLE pdb (id int, b boolean) SERVER ch_pd OPTIONS (table 'pd');

\i sql/include/pushdown_check.sql

-- ==== comparisons and three-valued logic
SELECT c.* FROM unnest(ARRAY[
  'i = 7', 'i <> 7', 'i < 0', 'i >= 3', '7 > i', 'i IS NULL', 'i IS NOT NULL',
  'NOT (i > 2)', 'NOT (i > 2 OR i < 0)', 'i > 2 OR s = ''abc''', 'NOT (i = 7 OR s IS NULL)',
  'NOT (NOT (i < 5))', '(i > 0 AND s <> '''') OR i IS NULL', 'NOT (i > 0 AND s LIKE ''a%'')',
  'u > 9223372036854775807', 'u = 18446744073709551615', 'u < 8', 'u >= -1',
  'i IN (0, 7, 3)', 'i NOT IN (0, 7, 3)', 'NOT (i IN (0, 7))', 'NOT (i NOT IN (0, 7))',
  'i = ANY (ARRAY[1, 2])', 'i <> ALL (ARRAY[1, 2])', 'i IN (1, NULL)', 'i NOT IN (1, NULL)'
]) p, pd_check(p) c;

-- ==== floats: NaN is above every number in PostgreSQL, infinities; (nanconst)
-- a comparison with the constant NaN is sent as isNaN
SELECT c.* FROM unnest(ARRAY[
  'f > 1', 'f >= 100', 'f < 1', 'f <= 0.1', 'f = 0.1', 'f <> 0.1', 'NOT (f > 1)',
  'f > ''-Infinity''::float8', 'f < ''Infinity''::float8', 'f = ''NaN''::float8', 'f > i'
]) p, pd_check(p) c;

-- ==== text: equality always; ordering only under the C collation; LIKE
SELECT c.* FROM unnest(ARRAY[
  's = ''abc''', 's <> ''abc''', 's = ''''', 's = ''üñí''', 't = ''back\slash''',
  's < ''b''', 's COLLATE "C" < ''b''', 's COLLATE "C" >= ''a_c''',
  's LIKE ''a%''', 's LIKE ''a_c''', 's LIKE ''a\_c''', 's LIKE ''a\\\_c''', 's NOT LIKE ''%c''',
  's LIKE ''___''', 's LIKE ''%''', 't LIKE ''%\%%''', 't LIKE ''\_''',
  's ILIKE ''abc''', 's ~ ''^a''', 'lower(s) = ''abc''',
  's IN (''abc'', ''ABC'')', 's NOT IN (''abc'', '''')', 'NOT (s NOT LIKE ''a%'')'
]) p, pd_check(p) c;

-- ==== dates, timestamps, booleans, uuids
SELECT c.* FROM unnest(ARRAY[
  'd = ''2019-01-02''', 'd > ''2000-01-01''', 'd < ''1969-12-31''', 'd >= ''1970-01-01''',
  'ts >= ''2019-01-02 03:04:05+00''', 'ts < ''2000-01-01 00:00:00+01''',
  'ts > ''2019-01-02 03:04:04.5+00''', 'ts = ''1970-01-01 00:00:00+00''',
  'uu = ''a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11''', 'uu <> ''a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'''
]) p, pd_check(p) c;
SELECT c.* FROM unnest(ARRAY['b', 'NOT b', 'b IS NULL', 'b = true', 'b OR id = 1', 'NOT (b OR id = 1)']) p,
  pd_check(p, 'pdb', 'pd_local') c;

-- ==== expressions: COALESCE, NULLIF, integer / and % by a constant (truncating
-- toward zero as in PostgreSQL)
SELECT c.* FROM unnest(ARRAY[
  'coalesce(i, 0) > 2', 'coalesce(i, -1) = -1', 'NOT (coalesce(i, 100) < 50)',
  'coalesce(s, t) = ''''', 'coalesce(s, ''none'') IN (''none'', ''abc'')',
  'nullif(i, 7) IS NULL', 'nullif(s, '''') IS NULL', 'NOT (nullif(i, 0) > 1)',
  'i / 2 = 1', 'i / 2 = -2', 'i % 2 = 1', 'i % 2 = -1', 'i % 3 <> 0', 'id / 3 = 1',
  'NOT (i / 2 = 1 OR i IS NULL)', 'id * 2 = 14', 'f + 1 > 2', 'nullif(f, 0) > 1',
  -- NULLIF with a NULL second argument is the first (18.16's nullIf(x, NULL)
  -- was NULL: id 2's row was missing from the first two)
  'nullif(id, i) IS NOT NULL', 'nullif(t, s) IS NOT NULL', 'nullif(id, i) IS NULL'
]) p, pd_check(p) c;
-- + - * as a scan's one condition: sent with PostgreSQL's overflow check, and
-- ClickHouse raises SQLSTATE 22003 (numeric_value_out_of_range) as PostgreSQL
-- would; beside another condition (which may reject the row first) local
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE i + 1 > 3;
\set VERBOSITY sqlstate
SELECT id FROM pd WHERE i + 1 > 3;
\set VERBOSITY default
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE i < 100 AND i + 1 > 3;
SELECT id FROM pd WHERE i < 100 AND i + 1 > 3 ORDER BY id;

-- ==== the exact SQL sent
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE i > 2 AND s = 'it''s \ here';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE NOT (i > 2 OR s IS NULL);
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE coalesce(i, 0) / 2 > 1 OR nullif(s, '') = 'x';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE f >= 1.5 AND d = '2019-01-02'
  AND ts < '2019-01-02 03:04:05+00' AND i NOT IN (1, 2);
-- a date constant outside ClickHouse's Date range stays local; a timestamp with
-- microseconds is written in when the query starts ($1)
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE ts > '2019-01-02 03:04:04.5+00' AND d > '1969-01-01';

-- ==== ORDER BY and LIMIT
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, i FROM pd ORDER BY i DESC, id LIMIT 3;
SELECT id, i FROM pd ORDER BY i DESC, id LIMIT 3;
SELECT id, i FROM pd_local ORDER BY i DESC, id LIMIT 3;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, i FROM pd ORDER BY i NULLS FIRST, id LIMIT 2 OFFSET 1;
SELECT id, i FROM pd ORDER BY i NULLS FIRST, id LIMIT 2 OFFSET 1;
SELECT id, i FROM pd_local ORDER BY i NULLS FIRST, id LIMIT 2 OFFSET 1;
-- floats are sorted by isNaN() first (ClickHouse puts NaN with the NULLs,
-- PostgreSQL above every number); text is sorted locally unless ordered by C
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd ORDER BY f LIMIT 2;
SELECT id, f FROM pd ORDER BY f, id;
SELECT id, f FROM pd_local ORDER BY f, id;
SELECT id, f FROM pd ORDER BY f DESC, id LIMIT 3;
SELECT id, f FROM pd_local ORDER BY f DESC, id LIMIT 3;
EXPLAIN (VERBOSE, COSTS OFF) SELECT s FROM pd ORDER BY s LIMIT 2;
EXPLAIN (VERBOSE, COSTS OFF) SELECT s FROM pd ORDER BY s COLLATE "C" LIMIT 2;
SELECT id, s FROM pd ORDER BY s COLLATE "C" NULLS FIRST, id;
SELECT id, s FROM pd_local ORDER BY s COLLATE "C" NULLS FIRST, id;
-- (topn) a filtered top-N: the table has no statistics (its estimate is a
-- few rows), yet ClickHouse sorts and stops at the LIMIT (it was sorted
-- locally, every matching row sent)
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE i = 5 OR i < 3 ORDER BY id DESC LIMIT 2;
SELECT id FROM pd WHERE i = 5 OR i < 3 ORDER BY id DESC LIMIT 2;
SELECT id FROM pd_local WHERE i = 5 OR i < 3 ORDER BY id DESC LIMIT 2;
-- LIMIT is not sent when something is filtered or aggregated locally; an
-- aggregate ClickHouse computes carries it
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pd WHERE s ~* '^a' LIMIT 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT max(f) FROM pd LIMIT 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT max(id) FROM pd LIMIT 1;
-- ... but a subquery's own LIMIT is
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM (SELECT id FROM pd LIMIT 3) q;
SELECT count(*) FROM (SELECT id FROM pd LIMIT 3) q;

-- ==== aggregates: computed by ClickHouse when everything can be
CREATE FOREIGN TABLE pdi (id int, i bigint, s text, d date, ts timestamptz, f float8)
  SERVER ch_pd OPTIONS (table 'pd');
CREATE TABLE pdi_local AS SELECT * FROM pdi;
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM pdi;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT s IS NULL AS n, count(*) FROM pdi GROUP BY s IS NULL;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT d, count(*), count(i), sum(i), min(i), max(ts), sum(f), count(DISTINCT s)
  FROM pdi WHERE id > 1 GROUP BY d;
-- the same numbers as PostgreSQL computes from the local copy
SELECT d, count(*), count(i), sum(i), min(i), max(ts), sum(f), count(DISTINCT s)
  FROM pdi WHERE id > 1 GROUP BY d ORDER BY d;
SELECT d, count(*), count(i), sum(i), min(i), max(ts), sum(f), count(DISTINCT s)
  FROM pdi_local WHERE id > 1 GROUP BY d ORDER BY d;
-- FILTER (WHERE ...) as -If combinators, bool_and / bool_or
CREATE FOREIGN TABLE pdf (id int, i bigint, s text, d date, b boolean) SERVER ch_pd OPTIONS (table 'pd');
CREATE TABLE pdf_local AS SELECT id, i, s, d, b::int::boolean AS b FROM pd_raw;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT d, count(*) FILTER (WHERE i > 0), count(s) FILTER (WHERE NOT (i > 2)),
         sum(i) FILTER (WHERE s LIKE 'a%' OR s IS NULL), bool_and(b), bool_or(b)
  FROM pdf GROUP BY d;
SELECT d, count(*) FILTER (WHERE i > 0), count(s) FILTER (WHERE NOT (i > 2)),
       sum(i) FILTER (WHERE s LIKE 'a%' OR s IS NULL), max(i) FILTER (WHERE i < 5),
       count(DISTINCT s) FILTER (WHERE id > 2), bool_and(b), bool_or(b)
  FROM pdf GROUP BY d ORDER BY d;
SELECT d, count(*) FILTER (WHERE i > 0), count(s) FILTER (WHERE NOT (i > 2)),
       sum(i) FILTER (WHERE s LIKE 'a%' OR s IS NULL), max(i) FILTER (WHERE i < 5),
       count(DISTINCT s) FILTER (WHERE id > 2), bool_and(b), bool_or(b)
  FROM pdf_local GROUP BY d ORDER BY d;
-- no rows: count is 0 and the others are NULL, as in PostgreSQL (not 0)
SELECT count(*), count(i), sum(i), min(i), max(d), sum(f) FROM pdi WHERE id > 100;
SELECT count(*), count(i), sum(i), min(i), max(d), sum(f) FROM pdi_local WHERE id > 100;
-- bigint sums cannot wrap: summed as Decimal(38, 0)
SELECT sum(i) AS remote FROM pdi WHERE i IN (2147483647, -2147483648, 7);
SELECT sum(i) AS local FROM pdi_local WHERE i IN (2147483647, -2147483648, 7);
-- HAVING: shipped when every clause is; aggregates are values with the NULL
-- rules of WHERE (a NULL sum fails both "> 5" and "NOT (> 5)")
EXPLAIN (VERBOSE, COSTS OFF) SELECT d, count(*) FROM pdi GROUP BY d HAVING count(*) > 1;
SELECT d, count(*) FROM pdi GROUP BY d HAVING count(*) > 1 ORDER BY d;
SELECT d, count(*) FROM pdi_local GROUP BY d HAVING count(*) > 1 ORDER BY d;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT s, sum(i) FROM pdi GROUP BY s HAVING NOT (sum(i) > 5) OR sum(i) IS NULL;
SELECT s, sum(i) FROM pdi GROUP BY s HAVING NOT (sum(i) > 5) OR sum(i) IS NULL ORDER BY s COLLATE "C";
SELECT s, sum(i) FROM pdi_local GROUP BY s HAVING NOT (sum(i) > 5) OR sum(i) IS NULL ORDER BY s COLLATE "C";
SELECT s, sum(i) FROM pdi GROUP BY s HAVING NOT (sum(i) > 5) ORDER BY s COLLATE "C";
SELECT s, sum(i) FROM pdi_local GROUP BY s HAVING NOT (sum(i) > 5) ORDER BY s COLLATE "C";
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT d FROM pdi GROUP BY d HAVING sum(f) > 1.5 AND max(ts) IS NOT NULL;
SELECT d FROM pdi GROUP BY d HAVING sum(f) > 1.5 AND max(ts) IS NOT NULL ORDER BY d;
SELECT d FROM pdi_local GROUP BY d HAVING sum(f) > 1.5 AND max(ts) IS NOT NULL ORDER BY d;
-- without GROUP BY: one row or none
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM pdi HAVING count(*) > 3;
SELECT count(*) FROM pdi HAVING count(*) > 3;
SELECT count(*) FROM pdi HAVING count(*) > 100;
-- a HAVING clause ClickHouse cannot evaluate (avg of integers is finished by
-- PostgreSQL) filters the returned groups; kept local: float grouping keys,
-- min/max of floats and of text under a non-C collation, local conditions
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT d, count(*) FROM pdi GROUP BY d HAVING count(*) > 1 AND avg(i) > 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT f, count(*) FROM pdi GROUP BY f;
EXPLAIN (VERBOSE, COSTS OFF) SELECT avg(i) FROM pdi;
SELECT avg(i) FROM pdi;
SELECT avg(i) FROM pdi_local;
EXPLAIN (VERBOSE, COSTS OFF) SELECT max(f) FROM pdi GROUP BY d;
EXPLAIN (VERBOSE, COSTS OFF) SELECT min(s) FROM pdi GROUP BY d;
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM pdi WHERE s ~ 'a';

-- ==== use_remote_estimate: the row count of a MergeTree table from its part
-- metadata (system.parts); other engines: their count()
SELECT clickhouse_exec('ch_pd', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.est_mt');
SELECT clickhouse_exec('ch_pd', 'CREATE TABLE ' || :'ch_db' || '.est_mt (id UInt64) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_pd', 'INSERT INTO ' || :'ch_db' || '.est_mt SELECT number FROM system.numbers LIMIT 54321');
SELECT clickhouse_exec('ch_pd', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.est_mem');
SELECT clickhouse_exec('ch_pd', 'CREATE TABLE ' || :'ch_db' || '.est_mem (id UInt64) ENGINE = Memory');
SELECT clickhouse_exec('ch_pd', 'INSERT INTO ' || :'ch_db' || '.est_mem SELECT number FROM system.numbers LIMIT 5');
SELECT clickhouse_exec('ch_pd', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.est_empty');
SELECT clickhouse_exec('ch_pd', 'CREATE TABLE ' || :'ch_db' || '.est_empty (id UInt64) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE est_mt (id bigint) SERVER ch_pd;
CREATE FOREIGN TABLE est_empty (id bigint) SERVER ch_pd OPTIONS (use_remote_estimate 'true');
CREATE FOREIGN TABLE est_mem (id bigint) SERVER ch_pd;
EXPLAIN SELECT * FROM est_mt;
ALTER SERVER ch_pd OPTIONS (ADD use_remote_estimate 'on');
EXPLAIN SELECT * FROM est_mt;
-- the shipped condition's selectivity is PostgreSQL's default (no statistics)
EXPLAIN SELECT * FROM est_mt WHERE id > 10;
EXPLAIN SELECT * FROM est_empty;
EXPLAIN SELECT * FROM est_mem;
ALTER FOREIGN TABLE est_mt OPTIONS (ADD use_remote_estimate 'off');
EXPLAIN SELECT * FROM est_mt;
ALTER FOREIGN TABLE est_mt OPTIONS (SET use_remote_estimate 'maybe');
ALTER SERVER ch_pd OPTIONS (DROP use_remote_estimate);

