-- ====================================================================
-- Body of join_pushdown.sql (ClickHouse 18.16) and modern_join_pushdown.sql
-- (the 26.5 engine behind test/chdb/front.py, a test harness, not a
-- server): joins of foreign tables computed by ClickHouse. Fixed queries
-- show what is sent (EXPLAIN VERBOSE: one Foreign Scan with the join in its
-- Remote SQL) and what stays local; then random join trees (fixed seed)
-- over small tables with NULL keys, duplicate keys and an empty table, each
-- run on the foreign tables and on local copies and compared. The caller
-- has created server ch_jd and set :ch_db.
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_jd', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.' || t)
  FROM unnest(ARRAY['jt1', 'jt2', 'jt3', 'jt4', 'jtn']) t;
SELECT clickhouse_exec('ch_jd', 'CREATE TABLE ' || :'ch_db' || '.jt1 (id Int32, k Nullable(Int32), s Nullable(String), x Int64) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_jd', 'CREATE TABLE ' || :'ch_db' || '.jt2 (id UInt32, k Int64, s String, x Nullable(Int32)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_jd', 'CREATE TABLE ' || :'ch_db' || '.jt3 (id Int64, k Nullable(Int16), s Nullable(String), x UInt8) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_jd', 'CREATE TABLE ' || :'ch_db' || '.jt4 (id Int32, k Nullable(Int32), s Nullable(String), x Nullable(Int64)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_jd', 'CREATE TABLE ' || :'ch_db' || '.jtn (id Int32, f Float64, d Decimal(9, 2), a Array(Int32), dt DateTime) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_jd', 'INSERT INTO ' || :'ch_db' || '.jt1 VALUES (1, 1, ''a'', 10), (2, NULL, ''b'', 20), (3, 3, NULL, 30), (4, 3, ''c'', 1), (5, 5, ''a'', 3), (6, NULL, NULL, 60), (7, 0, '''', 0)');
SELECT clickhouse_exec('ch_jd', 'INSERT INTO ' || :'ch_db' || '.jt2 VALUES (10, 1, ''a'', 1), (11, 3, ''b'', NULL), (12, 3, '''', 3), (13, 7, ''c'', 4), (14, 0, ''a'', 5), (15, 1, ''a'', NULL)');
SELECT clickhouse_exec('ch_jd', 'INSERT INTO ' || :'ch_db' || '.jt3 VALUES (20, 1, NULL, 1), (21, NULL, ''a'', 2), (22, 3, ''c'', 3), (23, 3, ''c'', 3), (24, 0, '''', 0)');
SELECT clickhouse_exec('ch_jd', 'INSERT INTO ' || :'ch_db' || '.jtn VALUES (1, 1.5, 1.50, [1], ''2020-01-01 00:00:00''), (3, nan, 3.00, [], ''2021-01-01 00:00:00'')');
CREATE FOREIGN TABLE jt1 (id int, k int, s text, x bigint) SERVER ch_jd OPTIONS (table 'jt1');
CREATE FOREIGN TABLE jt2 (id bigint, k bigint, s text, x int) SERVER ch_jd OPTIONS (table 'jt2');
CREATE FOREIGN TABLE jt3 (id bigint, k smallint, s text, x smallint) SERVER ch_jd OPTIONS (table 'jt3');
CREATE FOREIGN TABLE jt4 (id int, k int, s text, x bigint) SERVER ch_jd OPTIONS (table 'jt4');
CREATE FOREIGN TABLE jtn (id int, f float8, d numeric(9,2), a int[], dt timestamp) SERVER ch_jd OPTIONS (table 'jtn');
CREATE TABLE jt1_l AS SELECT * FROM jt1;
CREATE TABLE jt2_l AS SELECT * FROM jt2;
CREATE TABLE jt3_l AS SELECT * FROM jt3;
CREATE TABLE jt4_l AS SELECT * FROM jt4;
CREATE TABLE jtn_l AS SELECT * FROM jtn;

-- jd_check(query): the query on the foreign tables and on the local copies
-- (jtN -> jtN_l), rows compared as sorted multisets; pushed: the plan is one
-- Foreign Scan and nothing else joins
\i sql/include/diff_check.sql
CREATE FUNCTION jd_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'jt[0-9n]d?', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort)') $$;

-- ==== what is sent: each join kind on the two tables, EXPLAIN and answers
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.id, b.id, a.s, b.x FROM jt1 a JOIN jt2 b ON a.k = b.k;
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.id, b.id, b.k, b.s FROM jt1 a LEFT JOIN jt2 b ON a.k = b.k AND b.x > 1 WHERE a.id < 6;
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.id, b.id FROM jt1 a FULL JOIN jt3 b ON a.s = b.s AND a.k = b.k;
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.id FROM jt1 a WHERE EXISTS (SELECT 1 FROM jt2 b WHERE b.k = a.k AND b.s <> '');
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.id FROM jt1 a WHERE NOT EXISTS (SELECT 1 FROM jt3 b WHERE b.k = a.k);
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.id, b.id, c.id FROM jt1 a JOIN jt2 b ON a.k = b.k LEFT JOIN jt3 c ON c.s = b.s WHERE c.x IS NULL OR c.x < 3;
-- aggregates, ORDER BY and LIMIT over a join
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.s, count(*), sum(b.x) FROM jt1 a JOIN jt2 b ON a.k = b.k GROUP BY a.s;
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.id, b.id FROM jt1 a LEFT JOIN jt2 b ON a.k = b.k ORDER BY a.id, b.id LIMIT 3;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT a.id, b.id, a.s, b.x FROM jt1 a JOIN jt2 b ON a.k = b.k',
  'SELECT a.id, b.id, b.k, b.s FROM jt1 a LEFT JOIN jt2 b ON a.k = b.k AND b.x > 1 WHERE a.id < 6',
  'SELECT a.id, b.id, b.k, b.x FROM jt2 b RIGHT JOIN jt1 a ON a.k = b.k',
  'SELECT a.id, b.id, a.k, b.k FROM jt1 a FULL JOIN jt3 b ON a.s = b.s AND a.k = b.k',
  'SELECT a.id FROM jt1 a WHERE EXISTS (SELECT 1 FROM jt2 b WHERE b.k = a.k AND b.s <> '''')',
  'SELECT a.id, a.s FROM jt1 a WHERE a.s IN (SELECT s FROM jt3)',
  'SELECT a.id FROM jt1 a WHERE NOT EXISTS (SELECT 1 FROM jt3 b WHERE b.k = a.k)',
  'SELECT a.id FROM jt1 a LEFT JOIN jt2 b ON a.k = b.k WHERE b.k IS NULL',
  'SELECT a.id, b.id, c.id FROM jt1 a JOIN jt2 b ON a.k = b.k LEFT JOIN jt3 c ON c.s = b.s WHERE c.x IS NULL OR c.x < 3',
  'SELECT a.id, b.id, c.id, d.id FROM jt1 a JOIN jt2 b ON a.k = b.k JOIN jt3 c ON c.k = b.k LEFT JOIN jt4 d ON d.k = a.k',
  'SELECT a.id, b.id FROM jt1 a JOIN jt2 b ON a.k = b.k AND a.x > b.x',
  'SELECT a.id, b.id FROM jt1 a JOIN jt4 b ON a.k = b.k',
  'SELECT a.id, b.id FROM jt1 a LEFT JOIN jt4 b ON a.k = b.k',
  'SELECT a.id, b.id FROM jt4 b RIGHT JOIN jt1 a ON a.s = b.s',
  'SELECT a.id, b.id FROM jt1 a FULL JOIN jt4 b ON a.k = b.k',
  'SELECT a.id, b.id FROM jt1 a JOIN jt1 b ON a.k = b.id',
  'SELECT count(*), sum(b.x) FROM jt1 a JOIN jt2 b ON a.k = b.k',
  'SELECT a.s, count(*), sum(b.x), max(b.id) FROM jt1 a JOIN jt2 b ON a.k = b.k GROUP BY a.s',
  'SELECT b.k, count(a.id), avg(a.x) FROM jt1 a RIGHT JOIN jt2 b ON a.k = b.k GROUP BY b.k HAVING count(*) > 1',
  'SELECT a.k, b.k, count(*) FROM jt1 a FULL JOIN jt3 b ON a.k = b.k GROUP BY a.k, b.k',
  -- aggregates of non-Nullable columns of both sides of a FULL JOIN (18.16
  -- counted the rows added for the other side's unmatched rows, summed
  -- garbage there and crashed on min() of a String, until each side's
  -- columns were made Nullable before the join: deparse.c deparse_side)
  'SELECT count(a.x), sum(a.x), count(b.s), min(b.s), max(b.id) FROM jt1 a FULL JOIN jt2 b ON a.k = b.k',
  'SELECT count(b.id), sum(b.id), min(b.s), max(b.s), count(a.x), sum(a.x) FROM jt2 b FULL JOIN jt1 a ON a.k = b.k',
  'SELECT b.s, count(a.x), sum(a.x), min(a.x) FROM jt2 b FULL JOIN jt1 a ON a.k = b.k GROUP BY b.s',
  -- DISTINCT over a FULL JOIN: NULLs of the added rows and NULLs of the
  -- table one value (18.16's DISTINCT gave NULL twice; sent as GROUP BY)
  'SELECT DISTINCT a.s FROM jt1 a FULL JOIN jt2 b ON a.k = b.k',
  'SELECT DISTINCT b.s, length(a.s) FROM jt1 a FULL JOIN jt3 b ON a.k = b.k',
  'SELECT DISTINCT a.s, b.x FROM jt1 a FULL JOIN jt2 b ON a.k = b.k ORDER BY 1, 2 LIMIT 4',
  'SELECT DISTINCT 0 FROM jt1 a FULL JOIN jt2 b ON a.k = b.k',
  'SELECT DISTINCT 1, a.s, ''x'' FROM jt1 a FULL JOIN jt2 b ON a.k = b.k',
  'SELECT a.id, b.id FROM jt1 a LEFT JOIN jt2 b ON a.k = b.k ORDER BY a.id, b.id LIMIT 3',
  'SELECT a.id, b.id FROM jt1 a FULL JOIN jt2 b ON a.k = b.k ORDER BY b.id DESC, a.id NULLS FIRST LIMIT 4',
  'SELECT a.k, count(*) FROM jt1 a JOIN jt2 b ON a.k = b.k GROUP BY a.k ORDER BY count(*) DESC, a.k LIMIT 2',
  'SELECT a.id, b.id FROM jt1 a JOIN jt2 b ON a.s = b.s WHERE a.s COLLATE "C" > ''a'''
]) q, jd_check(q) c;

-- DISTINCT over a join whose table has two parts (two INSERTs, merges
-- stopped: two streams of rows): 18.16's DISTINCT after a JOIN kept one set
-- per stream (each value twice) until it was sent as a GROUP BY
SELECT clickhouse_exec('ch_jd', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.jt5');
SELECT clickhouse_exec('ch_jd', 'CREATE TABLE ' || :'ch_db' || '.jt5 (id Int32, k Int32, s String) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_jd', 'SYSTEM STOP MERGES ' || :'ch_db' || '.jt5');
SELECT clickhouse_exec('ch_jd', 'INSERT INTO ' || :'ch_db' || '.jt5 VALUES (1, 1, ''a''), (2, 3, ''b''), (3, 5, ''a'')');
SELECT clickhouse_exec('ch_jd', 'INSERT INTO ' || :'ch_db' || '.jt5 VALUES (4, 1, ''a''), (5, 3, ''b''), (6, 0, '''')');
CREATE FOREIGN TABLE jt5 (id int, k int, s text) SERVER ch_jd OPTIONS (table 'jt5');
CREATE TABLE jt5_l AS SELECT * FROM jt5;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT DISTINCT a.s FROM jt5 a JOIN jt1 b ON a.k = b.k',
  'SELECT DISTINCT a.k, b.s FROM jt5 a LEFT JOIN jt1 b ON a.k = b.k',
  'SELECT DISTINCT a.s, b.x FROM jt5 a FULL JOIN jt1 b ON a.k = b.k',
  'SELECT DISTINCT 7 FROM jt5 a JOIN jt1 b ON a.k = b.k'
]) q, diff_check(q, 'jt[0-9n]d?', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|Unique)') c;

-- ==== run-time values above a join: parameters of a prepared statement,
-- written in when the query starts (custom plans, then the generic one)
PREPARE jd_p(int, text) AS SELECT a.id, b.id FROM jt1 a JOIN jt2 b ON a.k = b.k
  WHERE a.id > $1 AND b.s <> $2 ORDER BY 1, 2;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE jd_p(1, 'b');
EXECUTE jd_p(1, 'b');
DEALLOCATE jd_p;
-- the same in PL/pgSQL: custom plans for the first runs, then the generic one
CREATE FUNCTION jd_param(p int, t text, local boolean) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  IF local THEN
    RETURN (SELECT string_agg(a.id || '-' || b.id, ',' ORDER BY a.id, b.id)
              FROM jt1_l a JOIN jt2_l b ON a.k = b.k WHERE a.id > p AND b.s <> t);
  END IF;
  RETURN (SELECT string_agg(a.id || '-' || b.id, ',' ORDER BY a.id, b.id)
            FROM jt1 a JOIN jt2 b ON a.k = b.k WHERE a.id > p AND b.s <> t);
END $$;
SELECT g, jd_param(g % 4, (ARRAY['a', 'b', ''])[1 + g % 3], false) AS remote,
       jd_param(g % 4, (ARRAY['a', 'b', ''])[1 + g % 3], false) IS NOT DISTINCT FROM
       jd_param(g % 4, (ARRAY['a', 'b', ''])[1 + g % 3], true) AS same
  FROM generate_series(1, 8) g;
DROP FUNCTION jd_param(int, text, boolean);

-- ==== 18.16 traps: Decimal columns above a join (constants typed as
-- Decimals, sums exact), the right-hand key column read back (never a USING
-- key itself), NULL-able keys on both sides of every join kind
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.id, n.d FROM jt1 a JOIN jtn n ON n.id = a.k WHERE n.d > 1.25;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT a.id, n.d FROM jt1 a JOIN jtn n ON n.id = a.k WHERE n.d > 1.25',
  'SELECT a.id, n.d, n.d * 2 FROM jt1 a LEFT JOIN jtn n ON n.id = a.k WHERE n.d IS NULL OR n.d < 2.5',
  'SELECT sum(n.d), count(n.d) FROM jt1 a JOIN jtn n ON n.id = a.k',
  'SELECT a.id, b.k, b.id FROM jt1 a LEFT JOIN jt3 b ON a.k = b.k',
  'SELECT a.k, b.k FROM jt1 a RIGHT JOIN jt3 b ON a.k = b.k',
  'SELECT a.k, b.k, a.s, b.s FROM jt1 a FULL JOIN jt3 b ON a.k = b.k AND a.s = b.s',
  'SELECT a.id FROM jt1 a WHERE a.k NOT IN (SELECT k FROM jt3 WHERE k IS NOT NULL) AND a.k IS NOT NULL'
]) q, jd_check(q) c;

-- ==== costs: a join returning far more rows than its inputs stays local
-- (one remote query returning every pair would cost more than two scans)
SELECT clickhouse_exec('ch_jd', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.jtbig');
SELECT clickhouse_exec('ch_jd', 'CREATE TABLE ' || :'ch_db' || '.jtbig (id Int32, k Int32) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_jd', 'INSERT INTO ' || :'ch_db' || '.jtbig SELECT toInt32(number), toInt32(number % 2) FROM numbers(2000)');
CREATE FOREIGN TABLE jtbig (id int, k int) SERVER ch_jd OPTIONS (table 'jtbig');
ANALYZE jtbig;
EXPLAIN (COSTS OFF) SELECT a.id, b.id FROM jtbig a JOIN jtbig b ON a.k = b.k;
-- ... but its count is sent (one row travels), and so is a join on a unique column
EXPLAIN (COSTS OFF) SELECT count(*) FROM jtbig a JOIN jtbig b ON a.k = b.k;
SELECT count(*) FROM jtbig a JOIN jtbig b ON a.k = b.k;
EXPLAIN (COSTS OFF) SELECT count(*) FROM jtbig a JOIN jtbig b ON a.id = b.id;
SELECT count(*) FROM jtbig a JOIN jtbig b ON a.id = b.id;
DROP FOREIGN TABLE jtbig;
SELECT clickhouse_exec('ch_jd', 'DROP TABLE ' || :'ch_db' || '.jtbig');

-- ==== what stays local, and why
-- a condition per pair of rows in an outer join's ON
EXPLAIN (COSTS OFF) SELECT a.id, b.id FROM jt1 a LEFT JOIN jt2 b ON a.k = b.k AND a.x > b.x;
-- an ON condition on the preserved side of an outer join
EXPLAIN (COSTS OFF) SELECT a.id, b.id FROM jt1 a LEFT JOIN jt2 b ON a.k = b.k AND a.x > 1;
-- no equality of columns (a cross join, an inequality only)
EXPLAIN (COSTS OFF) SELECT a.id, b.id FROM jt1 a JOIN jt2 b ON a.k < b.k;
-- keys of other types: floats (NaN), numeric, an expression
EXPLAIN (COSTS OFF) SELECT a.id, n.id FROM jt1 a JOIN jtn n ON a.x::float8 = n.f;
EXPLAIN (COSTS OFF) SELECT a.id, n.id FROM jt1 a JOIN jtn n ON a.x = n.d;
EXPLAIN (COSTS OFF) SELECT a.id, b.id FROM jt1 a JOIN jt2 b ON a.k + 1 = b.k;
-- outputs ClickHouse cannot make NULL (an array on the nullable side), and
-- timestamp columns (their zone comes from the table's catalog)
EXPLAIN (COSTS OFF) SELECT a.id, n.a FROM jt1 a LEFT JOIN jtn n ON n.id = a.k;
EXPLAIN (COSTS OFF) SELECT a.id, n.dt FROM jt1 a JOIN jtn n ON n.id = a.k;
-- an outer join reduced to ANTI that still returns the missing side's (NULL)
-- columns (LEFT JOIN ... WHERE b.k IS NULL itself is sent: see above)
EXPLAIN (COSTS OFF) SELECT a.id, b.s FROM jt1 a LEFT JOIN jt2 b ON a.k = b.k WHERE b.k IS NULL;
-- a side with a condition PostgreSQL evaluates
EXPLAIN (COSTS OFF) SELECT a.id, b.id FROM jt1 a JOIN jt2 b ON a.k = b.k WHERE a.s ~* 'A';
-- a date column over a DateTime: resolved per table when a scan starts,
-- which a join's scan does not do (a condition on it keeps the join local;
-- above the join it is evaluated by PostgreSQL)
CREATE FOREIGN TABLE jtnd (id int, dt date) SERVER ch_jd OPTIONS (table 'jtn');
CREATE TABLE jtnd_l AS SELECT * FROM jtnd;
EXPLAIN (COSTS OFF) SELECT a.id, n.id FROM jt1 a JOIN jtnd n ON n.id = a.k WHERE n.dt = '2020-01-01';
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.id, n.dt FROM jt1 a JOIN jtnd n ON n.id = a.k WHERE n.dt = '2020-01-01' OR a.id = 3;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT a.id, n.id FROM jt1 a JOIN jtnd n ON n.id = a.k WHERE n.dt = ''2020-01-01''',
  'SELECT a.id, n.dt FROM jt1 a JOIN jtnd n ON n.id = a.k WHERE n.dt = ''2020-01-01'' OR a.id = 3',
  'SELECT n.dt, count(*) FROM jt1 a JOIN jtnd n ON n.id = a.k GROUP BY n.dt'
]) q, jd_check(q) c;
DROP TABLE jtnd_l;
DROP FOREIGN TABLE jtnd;
-- FOR UPDATE
EXPLAIN (COSTS OFF) SELECT a.id FROM jt1 a JOIN jt2 b ON a.k = b.k FOR UPDATE OF a;
-- a condition of no column (a one-time filter PostgreSQL evaluates)
EXPLAIN (COSTS OFF) SELECT a.id, b.id FROM jt1 a LEFT JOIN jt2 b ON a.k = b.k AND now() < '2000-01-01';
-- a local table: not one remote join (a key join instead, see key_join.sql)
EXPLAIN (COSTS OFF) SELECT a.id, b.id FROM jt1 a JOIN jt2_l b ON a.k = b.k;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT a.id, b.id FROM jt1 a LEFT JOIN jt2 b ON a.k = b.k AND a.x > b.x',
  'SELECT a.id, b.id FROM jt1 a LEFT JOIN jt2 b ON a.k = b.k AND a.x > 1',
  'SELECT a.id, n.id FROM jt1 a JOIN jtn n ON a.x::float8 = n.f',
  'SELECT a.id, n.a FROM jt1 a LEFT JOIN jtn n ON n.id = a.k',
  'SELECT a.id, n.dt FROM jt1 a JOIN jtn n ON n.id = a.k',
  'SELECT a.id, b.s FROM jt1 a LEFT JOIN jt2 b ON a.k = b.k WHERE b.k IS NULL',
  'SELECT a.id, b.id FROM jt1 a JOIN jt2 b ON a.k = b.k WHERE a.s ~* ''A''',
  'SELECT a.id, b.id FROM jt1 a LEFT JOIN jt2 b ON a.k = b.k AND now() < ''2000-01-01''',
  'SELECT a.id, b.id FROM jt1 a JOIN jt2 b ON a.k = b.k WHERE now() < ''2000-01-01'''
]) q, jd_check(q) c;

-- ==== random join trees (fixed seed): 2-4 tables, INNER/LEFT/RIGHT/FULL,
-- EXISTS/NOT EXISTS, keys of every type pair, conditions per pair and on
-- one side, WHERE on top, aggregates or a top-N over the join; any
-- difference is listed
CREATE FUNCTION jd_rand_query() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  tabs text[] := ARRAY['jt1', 'jt2', 'jt3', 'jt4'];
  kinds text[] := ARRAY['JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN'];
  intcols text[] := ARRAY['id', 'k', 'x'];
  n int := 2 + floor(random() * 3)::int;
  q text;
  sel text := '';
  ids text := 't1.id';
  where_ text := '';
  i int;
  prev int;
  c1 text;
  c2 text;
BEGIN
  q := tabs[1 + floor(random() * 4)::int] || ' t1';
  sel := 't1.id, t1.k, t1.s';
  FOR i IN 2..n LOOP
    prev := 1 + floor(random() * (i - 1))::int;
    IF random() < 0.3 THEN
      c1 := 's'; c2 := 's';
    ELSE
      c1 := intcols[1 + floor(random() * 3)::int];
      c2 := intcols[1 + floor(random() * 3)::int];
    END IF;
    IF i = n AND random() < 0.3 THEN
      -- a SEMI or ANTI join as the last one
      where_ := where_ || CASE WHEN where_ = '' THEN ' WHERE ' ELSE ' AND ' END ||
        CASE WHEN random() < 0.5 THEN 'EXISTS' ELSE 'NOT EXISTS' END ||
        format(' (SELECT 1 FROM %s t%s WHERE t%s.%s = t%s.%s%s)', tabs[1 + floor(random() * 4)::int],
               i, i, c2, prev, c1,
               CASE WHEN random() < 0.3 THEN format(' AND t%s.x > 1', i) ELSE '' END);
      EXIT;
    END IF;
    q := q || format(' %s %s t%s ON t%s.%s = t%s.%s', kinds[1 + floor(random() * 4)::int],
                     tabs[1 + floor(random() * 4)::int], i, i, c2, prev, c1);
    IF random() < 0.2 THEN
      q := q || format(' AND t%s.x > 1', i);
    ELSIF random() < 0.15 THEN
      q := q || format(' AND t%s.x < t%s.x', i, prev);
    ELSIF random() < 0.15 THEN
      q := q || format(' AND t%s.s = t%s.s', i, prev);
    END IF;
    sel := sel || format(', t%s.id, t%s.k, t%s.s', i, i, i);
    ids := ids || format(', t%s.id', i);
  END LOOP;
  IF random() < 0.4 THEN
    where_ := where_ || CASE WHEN where_ = '' THEN ' WHERE ' ELSE ' AND ' END ||
      CASE WHEN position(' t2 ON ' IN q) > 0 THEN
        (ARRAY['t1.s IS NULL', 't2.k > 1', 'coalesce(t2.x, 0) < 5', 't1.s <> ''b''',
               't2.id IS NULL OR t1.x > 2', 'NOT (t1.k = 3)'])[1 + floor(random() * 6)::int]
      ELSE
        (ARRAY['t1.s IS NULL', 't1.s <> ''b''', 'NOT (t1.k = 3)'])[1 + floor(random() * 3)::int]
      END;
  END IF;
  IF position(' t2 ON ' IN q) > 0 AND random() < 0.2 THEN
    -- aggregates over the join
    RETURN 'SELECT t1.k, count(*), count(t2.id), sum(t1.x), min(t2.id) FROM ' || q || where_ ||
      ' GROUP BY t1.k';
  ELSIF random() < 0.2 THEN
    -- a top-N over the join (every id in the ORDER BY: one order)
    RETURN 'SELECT ' || sel || ' FROM ' || q || where_ || ' ORDER BY ' ||
      ids || ' LIMIT 3';
  END IF;
  RETURN 'SELECT ' || sel || ' FROM ' || q || where_;
END $$;
SELECT setseed(0.14);
CREATE TEMP TABLE jd_runs AS
  SELECT g, q, ck.* FROM (SELECT g, jd_rand_query() AS q FROM generate_series(1, 150) g) s,
       LATERAL jd_check(q) ck;
-- queries, pushed, answers that agree, rows compared
SELECT count(*) AS queries, count(*) FILTER (WHERE pushed) AS pushed,
       count(*) FILTER (WHERE same) AS same, sum(nrows) AS rows_compared FROM jd_runs;
-- by join kind
SELECT kind, count(*) AS queries, count(*) FILTER (WHERE pushed) AS pushed,
       count(*) FILTER (WHERE same) AS same
  FROM jd_runs, LATERAL (SELECT k AS kind FROM unnest(ARRAY['FULL JOIN', 'RIGHT JOIN', 'LEFT JOIN', 'INNER JOIN',
       'NOT EXISTS', 'EXISTS']) k
       WHERE q ~ CASE k WHEN 'INNER JOIN' THEN '[^TL] JOIN ' WHEN 'EXISTS' THEN '[^T] EXISTS' ELSE k END) x
 GROUP BY kind ORDER BY kind COLLATE "C";
-- every difference (none expected)
SELECT g, q, err FROM jd_runs WHERE NOT same ORDER BY g;
-- the first queries kept local (each has a construct listed above as local)
SELECT g, q FROM jd_runs WHERE NOT pushed ORDER BY g LIMIT 12;
DROP FUNCTION jd_rand_query();
-- numeric join keys (IMPORT declares UInt64 and Decimal columns numeric):
-- sent when both columns are integers (any kind, UInt64 past 2^63 too) or
-- Decimals of one scale, as the value's text (toString: one text per value
-- of one scale on each server); a UInt64 against an Int64 (-1 and
-- 18446744073709551615 differ: an Int64 cast would wrap), NULL keys, every
-- join kind. Stay local: Decimals of two scales (18.16 writes 1.50 and
-- 1.5000), a Float64 declared numeric, a numeric(10, 1) over a Decimal(9, 2)
-- (the read rounds)
SELECT clickhouse_exec('ch_jd', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.' || t) FROM unnest(ARRAY['jtk1', 'jtk2']) t;
SELECT clickhouse_exec('ch_jd', 'CREATE TABLE ' || :'ch_db' || '.jtk1 (id Int32, u UInt64, d Decimal(9, 2), w Decimal(38, 2), e Decimal(18, 4), i8 Int8, f Float64) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_jd', 'CREATE TABLE ' || :'ch_db' || '.jtk2 (id Int32, u Nullable(UInt64), d Nullable(Decimal(18, 2)), i64 Int64) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE jtk1 (id int, u numeric, d numeric, w numeric, e numeric, i8 numeric, f numeric) SERVER ch_jd OPTIONS (table 'jtk1');
CREATE FOREIGN TABLE jtk2 (id int, u numeric, d numeric, i64 numeric) SERVER ch_jd OPTIONS (table 'jtk2');
INSERT INTO jtk1 VALUES (1, 0, 1.5, 1.5, 1.5, 0, 1.5), (2, 1, -1.5, 12345678901234567890123456789012345.67, -1.5, 1, -1.5),
  (3, 9223372036854775808, 0, 0, 0, -1, 0), (4, 18446744073709551615, 1.54, -1.5, 2.25, 127, 2.25), (5, 1, 1.5, 2.25, 1.5001, -128, 1.5);
INSERT INTO jtk2 VALUES (10, 0, 1.5, -1), (11, NULL, NULL, 1), (12, 18446744073709551615, 1.54, 9223372036854775807),
  (13, 1, 1.5, 0), (14, 9223372036854775808, -1.5, -128), (15, NULL, 0, 127);
CREATE TABLE jtk1_l AS SELECT * FROM jtk1;
CREATE TABLE jtk2_l AS SELECT * FROM jtk2;
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.id, b.id FROM jtk1 a JOIN jtk2 b ON a.u = b.u;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT a.id, b.id, a.u FROM jtk1 a JOIN jtk2 b ON a.u = b.u',
  'SELECT a.id, b.id, b.u FROM jtk1 a LEFT JOIN jtk2 b ON a.u = b.u',
  'SELECT a.id, b.id FROM jtk1 a FULL JOIN jtk2 b ON a.u = b.u',
  'SELECT a.id FROM jtk1 a WHERE EXISTS (SELECT 1 FROM jtk2 b WHERE b.u = a.u)',
  'SELECT a.id FROM jtk1 a WHERE NOT EXISTS (SELECT 1 FROM jtk2 b WHERE b.u = a.u)',
  'SELECT a.id, b.id, a.d FROM jtk1 a JOIN jtk2 b ON a.d = b.d',
  'SELECT a.id, b.id FROM jtk1 a FULL JOIN jtk2 b ON a.d = b.d',
  'SELECT a.id, b.id FROM jtk1 a JOIN jtk1 b ON a.w = b.d',
  'SELECT a.id, b.id FROM jtk1 a JOIN jtk2 b ON a.u = b.i64',
  'SELECT a.id, b.id FROM jtk1 a LEFT JOIN jtk2 b ON a.i8 = b.i64',
  'SELECT a.id, b.id FROM jtk1 a JOIN jtk2 b ON a.u = b.u AND a.d = b.d',
  'SELECT b.d, count(*) FROM jtk1 a JOIN jtk2 b ON a.u = b.u GROUP BY b.d',
  'SELECT max(a.d), min(b.d), sum(b.d), max(a.u), min(b.u) FROM jtk1 a FULL JOIN jtk2 b ON a.u = b.u',
  'SELECT a.w, b.d FROM jtk1 a FULL JOIN jtk2 b ON a.d = b.d ORDER BY b.d DESC NULLS LAST, a.w LIMIT 4',
  'SELECT a.id, b.id FROM jtk1 a JOIN jtk2 b ON a.e = b.d',
  'SELECT a.id, b.id FROM jtk1 a JOIN jtk2 b ON a.f = b.d'
]) q, diff_check(q, 'jtk[12]', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort)') c;
ALTER FOREIGN TABLE jtk1 ALTER COLUMN d TYPE numeric(10, 1);
DROP TABLE jtk1_l;
CREATE TABLE jtk1_l AS SELECT * FROM jtk1;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT a.id, b.id FROM jtk1 a JOIN jtk1 b ON a.d = b.d'
]) q, diff_check(q, 'jtk1', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort)') c;
DROP FOREIGN TABLE jtk1, jtk2;
DROP TABLE jtk1_l, jtk2_l;
-- a table with columns named as the sent SQL's own aliases (a join side's
-- r<i>_<n> and k<i>_<n>, a UNION ALL member's `one`, a correlated
-- subquery's __sq<n>_...): ClickHouse reads a name as an alias of the same
-- SELECT before a column, so `WHERE r1_1 > 150` compared the alias (id):
-- its joins, UNION ALLs and correlated subqueries stay local, and equal
SELECT clickhouse_exec('ch_jd', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.jta');
SELECT clickhouse_exec('ch_jd', 'CREATE TABLE ' || :'ch_db' || '.jta (id Int32, one Int32, r1_1 Int32, k1_1 Int32, __sq1_v Int32) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_jd', 'INSERT INTO ' || :'ch_db' || '.jta VALUES (1, 10, 100, 1, 7), (3, 20, 200, 3, 8), (5, 30, 300, 0, 9)');
CREATE FOREIGN TABLE jta (id int, one int, r1_1 int, k1_1 int, __sq1_v int) SERVER ch_jd OPTIONS (table 'jta');
CREATE TABLE jta_l AS SELECT * FROM jta;
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.id, a.r1_1 FROM jta a JOIN jt1 b ON a.id = b.id WHERE a.r1_1 > 150;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT a.id, a.r1_1 FROM jta a JOIN jt1 b ON a.id = b.id WHERE a.r1_1 > 150',
  'SELECT b.id, a.one FROM jt1 b LEFT JOIN jta a ON a.k1_1 = b.k WHERE a.one IS NULL OR a.one < 25',
  'SELECT count(*) FROM jta a JOIN jt1 b ON a.id = b.id AND a.k1_1 = b.k',
  'SELECT count(*) FROM (SELECT 1 FROM jta WHERE one > 5 UNION ALL SELECT 1 FROM jt1) u',
  'SELECT sum(v) FROM (SELECT r1_1 AS v FROM jta WHERE r1_1 > 150 UNION ALL SELECT x FROM jt1) u',
  'SELECT id FROM jt1 WHERE x < (SELECT max(__sq1_v) FROM jta WHERE jta.id = jt1.id)'
]) q, diff_check(q, 'jta|jt1', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|Append)') c;
DROP FOREIGN TABLE jta;
DROP TABLE jta_l;
DROP FUNCTION jd_check(text);
DROP TABLE jt1_l, jt2_l, jt3_l, jt4_l, jtn_l, jt5_l;
