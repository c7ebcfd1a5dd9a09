-- ====================================================================
-- Body of subquery4.sql (ClickHouse 18.16) and modern_subquery4.sql (the
-- 26.5 engine): IS [NOT] DISTINCT FROM of boolean conditions (sent on
-- both, src/fdw/shippable_distinct.c) and UNION ALL of one foreign table
-- twice or more (sent on modern servers under the rules of two different
-- tables; a member reading one column as two columns of the union no longer
-- refuses it when another member can name them, src/fdw/subquery_union.c;
-- 18.16 keeps every UNION ALL local). A NULL run-time value as a
-- comparison's operand (its marker kind). Every
-- query runs on the foreign tables and on local copies and is compared,
-- over NULLs, an empty table and duplicate rows; then seeded random
-- queries. The caller has created server ch_s4 and set :ch_db.
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SET extra_float_digits = 0;
SELECT clickhouse_exec('ch_s4', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.' || t)
  FROM unnest(ARRAY['s4a', 's4e']) t;
SELECT clickhouse_exec('ch_s4', 'CREATE TABLE ' || :'ch_db' || '.' || t || ' (id Int32, a Nullable(Int32), b Nullable(Int32), f Nullable(UInt8), g UInt8, s Nullable(String), x Int64) ENGINE = MergeTree ORDER BY id')
  FROM unnest(ARRAY['s4a', 's4e']) t;
-- NULLs in every column, rows 7 and 8 the same but their id, 9 and 10 too
SELECT clickhouse_exec('ch_s4', 'INSERT INTO ' || :'ch_db' || '.s4a VALUES
  (1, 6, 2, 1, 1, ''a'', 10), (2, 6, 3, 0, 0, ''b'', 20), (3, NULL, 2, NULL, 1, NULL, 30),
  (4, 5, NULL, 1, 0, '''', -40), (5, NULL, NULL, NULL, 0, ''a'', 50), (6, 1, 9, 0, 1, ''é'', 0),
  (7, 8, 1, 1, 1, ''b'', 70), (8, 8, 1, 1, 1, ''b'', 70), (9, NULL, 4, 0, 0, NULL, -5),
  (10, NULL, 4, 0, 0, NULL, -5), (11, 3, 3, NULL, 1, ''c'', 3), (12, -2147483648, 2147483647, 1, 0, ''a'', 9223372036854775807)');
-- s4e is empty
CREATE FOREIGN TABLE q4a (id int, a int, b int, f boolean, g boolean, s text, x bigint)
  SERVER ch_s4 OPTIONS (table 's4a');
CREATE FOREIGN TABLE q4e (id int, a int, b int, f boolean, g boolean, s text, x bigint)
  SERVER ch_s4 OPTIONS (table 's4e');
CREATE TABLE q4a_l AS SELECT * FROM q4a;
CREATE TABLE q4e_l AS SELECT * FROM q4e;
SELECT count(*) FROM q4a_l;

-- s4_check(query, ordered): the query on the foreign tables and on the
-- local copies (q4x -> q4x_l), compared; pushed: one Foreign Scan and no
-- Filter, Append, Aggregate, Sort or join of PostgreSQL's. An error is
-- compared by SQLSTATE (err: the foreign query's).
\i sql/include/diff_check.sql
CREATE FUNCTION s4_check(q text, ordered boolean, OUT pushed boolean, OUT same boolean,
    OUT nrows int, OUT err text) LANGUAGE plpgsql AS $$
DECLARE
  plan text := '';
  line text;
BEGIN
  SELECT d.same, d.nrows, d.err INTO same, nrows, err
    FROM diff_check(q, 'q4[a-z]+', '', ordered, true) d;
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    plan := plan || line || E'\n';
  END LOOP;
  plan := regexp_replace(plan, 'Relations: [^\n]*', '', 'g');
  pushed := (length(plan) - length(replace(plan, 'Foreign Scan', ''))) / 12 = 1
    AND plan !~ '(Filter:|SubPlan|InitPlan|Append|Aggregate|Sort|Hash|Join|Nested Loop)';
END $$;

-- ==== IS [NOT] DISTINCT FROM of boolean conditions: each operand true,
-- false or NULL, two NULLs not distinct; written as each operand's "is
-- true" and "is false" (never NULL on the server)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM q4a WHERE (a > 5) IS DISTINCT FROM (b < 3);
SELECT id FROM q4a WHERE (a > 5) IS DISTINCT FROM (b < 3) ORDER BY id;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM q4a WHERE f IS NOT DISTINCT FROM (a = 8);
SELECT id FROM q4a WHERE f IS NOT DISTINCT FROM (a = 8) ORDER BY id;
-- under OR and NOT, where 18.16 gets a NULL wrong
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM q4a WHERE NOT ((a > 5) IS DISTINCT FROM (b < 3)) OR x < 0;
SELECT id FROM q4a WHERE NOT ((a > 5) IS DISTINCT FROM (b < 3)) OR x < 0 ORDER BY id;
-- a prepared statement's parameter inside an operand (NULL too), its
-- generic plan: the parameter a comparison's operand (marker kind "c"),
-- bound as a NULL 18.16 does not fold
SET plan_cache_mode = force_generic_plan;
PREPARE d4(int) AS SELECT id FROM q4a WHERE (a > $1) IS DISTINCT FROM (b < 3) ORDER BY id;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE d4(5);
EXECUTE d4(5);
EXECUTE d4(NULL);
DEALLOCATE d4;
-- an UPDATE's SET of a NULL parameter is an assignment: NULL
SELECT clickhouse_exec('ch_s4', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.s4m');
SELECT clickhouse_exec('ch_s4', 'CREATE TABLE ' || :'ch_db' || '.s4m (id Int32, s Nullable(String)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_s4', 'INSERT INTO ' || :'ch_db' || '.s4m VALUES (1, ''a''), (2, ''b'')');
CREATE FOREIGN TABLE q4m (id int, s text) SERVER ch_s4 OPTIONS (table 's4m');
PREPARE u4(text, int) AS UPDATE q4m SET s = $1 WHERE id = $2;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE u4(NULL, 1);
EXECUTE u4(NULL, 1);
EXECUTE u4('z', NULL);
SELECT * FROM q4m ORDER BY id;
DEALLOCATE u4;
DROP FOREIGN TABLE q4m;
SELECT clickhouse_exec('ch_s4', 'DROP TABLE ' || :'ch_db' || '.s4m');
RESET plan_cache_mode;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT id FROM q4a WHERE (a > 5) IS DISTINCT FROM (b < 3)',
  'SELECT id FROM q4a WHERE (a > 5) IS NOT DISTINCT FROM (b < 3)',
  'SELECT id FROM q4a WHERE f IS NOT DISTINCT FROM (a = 8)',
  'SELECT id FROM q4a WHERE f IS DISTINCT FROM (a = 8)',
  'SELECT id FROM q4a WHERE (a = 8) IS DISTINCT FROM f',
  'SELECT id FROM q4a WHERE (a > 5) IS DISTINCT FROM true',
  'SELECT id FROM q4a WHERE (a > 5) IS NOT DISTINCT FROM false',
  'SELECT id FROM q4a WHERE (a > 5) IS DISTINCT FROM NULL',
  'SELECT id FROM q4a WHERE (a > 5) IS NOT DISTINCT FROM NULL::boolean',
  'SELECT id FROM q4a WHERE (a > 5 AND b < 3) IS DISTINCT FROM (s = ''a'' OR f)',
  'SELECT id FROM q4a WHERE (s LIKE ''a%'') IS NOT DISTINCT FROM (b IS NULL)',
  'SELECT id FROM q4a WHERE (a IN (1, 6, 8)) IS DISTINCT FROM (NOT f)',
  'SELECT id FROM q4a WHERE NOT ((a > 5) IS DISTINCT FROM (b < 3)) OR x < 0',
  'SELECT id FROM q4a WHERE ((a > 5) IS DISTINCT FROM (b < 3)) IS DISTINCT FROM (f IS NOT DISTINCT FROM g)',
  'SELECT id FROM q4a WHERE x > 0 AND ((a <> b) IS NOT DISTINCT FROM (s <> ''b''))',
  'SELECT id FROM q4a WHERE f IS DISTINCT FROM g',
  'SELECT id FROM q4a WHERE (a > 5) IS NULL',
  'SELECT id FROM q4a WHERE (a > 5 OR f) IS NOT NULL',
  'SELECT id FROM q4a WHERE NOT ((a > 5 AND s = ''a'') IS NULL) OR id = 3',
  'SELECT id FROM q4a WHERE ((a > 5) IS NULL) IS DISTINCT FROM (b IS NULL)',
  'SELECT id FROM q4e WHERE (a > 5) IS DISTINCT FROM (b < 3)',
  'SELECT count(*) FROM q4a WHERE (a > 5) IS DISTINCT FROM (b < 3)',
  'SELECT id, x FROM q4a WHERE (a > 5) IS DISTINCT FROM (b < 3) ORDER BY x LIMIT 3'
]) q, s4_check(q, false) c;
-- stays local: an operand PostgreSQL evaluates (a volatile function)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM q4a WHERE (a > 5) IS DISTINCT FROM (random() < 0.5);

-- ==== random IS [NOT] DISTINCT FROM of conditions (fixed seed): two
-- random boolean operands (columns, comparisons, NULL tests, AND/OR of
-- them, constants), distinct or not, alone, under NOT or OR, or a NULL
-- test of one; each compared with the local copies
SELECT setseed(0.427);
CREATE TEMP TABLE d4_rand AS
WITH ops AS (SELECT ARRAY['a > 5', 'b < 3', 'f', 'NOT g', 's = ''a''', 'a = b', 'x < 0', 'a IS NULL',
                          's LIKE ''b%''', 'true', 'NULL::boolean', '(a > 0 AND f)',
                          '(b < 2 OR s = ''c'')', 'a IN (1, 6, 8)', 'g', 'b <> 4'] AS o),
g AS (
  SELECT i,
         o[1 + floor(random() * 16)::int] AS l,
         o[1 + floor(random() * 16)::int] AS r,
         (ARRAY[' IS DISTINCT FROM ', ' IS NOT DISTINCT FROM '])[1 + floor(random() * 2)::int] AS op,
         floor(random() * 5)::int AS form,
         CASE WHEN random() < 0.1 THEN 'q4e' ELSE 'q4a' END AS t
    FROM ops, generate_series(1, 30) i)
SELECT i, format('SELECT id FROM %s WHERE %s', t,
                 CASE form WHEN 0 THEN format('NOT ((%s)%s(%s))', l, op, r)
                           WHEN 1 THEN format('(%s)%s(%s) OR id %% 3 = 0', l, op, r)
                           WHEN 2 THEN format('((%s)%s(%s)) IS NULL', l, op, r)
                           WHEN 3 THEN format('(%s) IS NOT NULL AND (%s)%s(%s)', r, l, op, r)
                           ELSE format('(%s)%s(%s)', l, op, r) END) AS q
  FROM g;
SELECT count(*) AS queries, count(*) FILTER (WHERE c.same) AS same,
       count(*) FILTER (WHERE c.pushed) AS sent
  FROM d4_rand r, s4_check(r.q, false) c;
-- any that differ (none expected), and any kept local (a pair of
-- constants: PostgreSQL's business)
SELECT r.i, r.q, c.* FROM d4_rand r, s4_check(r.q, false) c WHERE NOT c.same OR NOT c.pushed;

-- ==== UNION ALL of one foreign table twice (or more), with the same or
-- other conditions: each member its own scan (sent on modern servers under
-- the rules of two tables; 18.16 keeps every UNION ALL local)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT a, count(*), sum(x) FROM (SELECT a, x FROM q4a WHERE a > 0 UNION ALL SELECT a, x FROM q4a WHERE s = 'b') t GROUP BY a;
SELECT a, count(*), sum(x) FROM (SELECT a, x FROM q4a WHERE a > 0 UNION ALL SELECT a, x FROM q4a WHERE s = 'b') t
  GROUP BY a ORDER BY a;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT * FROM (SELECT id, s FROM q4a UNION ALL SELECT id, s FROM q4a WHERE id > 6) t ORDER BY s DESC, id LIMIT 5;
SELECT * FROM (SELECT id, s FROM q4a UNION ALL SELECT id, s FROM q4a WHERE id > 6) t ORDER BY s DESC, id LIMIT 5;
-- the same column as two columns of the first member: another member,
-- whose columns are distinct, names them (it is written first)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT p, q, count(*) FROM (SELECT a AS p, a AS q FROM q4a UNION ALL SELECT a, b FROM q4a WHERE id > 3) t GROUP BY p, q;
-- a kind column over three members of one table
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT kind, count(*), max(a) FROM (SELECT 'pos' AS kind, a FROM q4a WHERE a > 0 UNION ALL SELECT 'neg', a FROM q4a WHERE a < 0
    UNION ALL SELECT 'null', a FROM q4a WHERE a IS NULL) t GROUP BY kind;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT a, count(*), sum(x) FROM (SELECT a, x FROM q4a WHERE a > 0 UNION ALL SELECT a, x FROM q4a WHERE s = ''b'') t GROUP BY a',
  'SELECT count(*) FROM (SELECT * FROM q4a UNION ALL SELECT * FROM q4a) t',
  'SELECT s, count(*), min(id), max(b) FROM (SELECT s, id, b FROM q4a UNION ALL SELECT s, id, b FROM q4a) t GROUP BY s',
  'SELECT f, count(*) FROM (SELECT f FROM q4a WHERE x > 0 UNION ALL SELECT f FROM q4a WHERE x <= 0) t GROUP BY f',
  'SELECT p, q, count(*) FROM (SELECT a AS p, a AS q FROM q4a UNION ALL SELECT a, b FROM q4a WHERE id > 3) t GROUP BY p, q',
  'SELECT p, q, count(*) FROM (SELECT a AS p, b AS q FROM q4a UNION ALL SELECT b, a FROM q4a) t GROUP BY p, q',
  'SELECT kind, count(*), max(a) FROM (SELECT ''pos'' AS kind, a FROM q4a WHERE a > 0 UNION ALL SELECT ''neg'', a FROM q4a WHERE a < 0 UNION ALL SELECT ''null'', a FROM q4a WHERE a IS NULL) t GROUP BY kind',
  'SELECT a, count(*) FROM (SELECT a FROM q4a UNION ALL SELECT a FROM q4e UNION ALL SELECT a FROM q4a WHERE a = 8) t GROUP BY a',
  'SELECT count(*), sum(a) FROM (SELECT a FROM q4e UNION ALL SELECT a FROM q4e) t',
  'SELECT a, count(*) FROM (SELECT a FROM q4a WHERE id > 100 UNION ALL SELECT a FROM q4a WHERE id < 0) t GROUP BY a',
  'SELECT s, count(*) FROM (SELECT s FROM q4a WHERE (a > 5) IS DISTINCT FROM (b < 3) UNION ALL SELECT s FROM q4a WHERE f) t GROUP BY s HAVING count(*) > 1'
]) q, s4_check(q, false) c;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT * FROM (SELECT id, s FROM q4a UNION ALL SELECT id, s FROM q4a WHERE id > 6) t ORDER BY s DESC, id LIMIT 5',
  'SELECT id, a FROM q4a WHERE a > 0 UNION ALL SELECT id, a FROM q4a WHERE a IS NULL ORDER BY 2 NULLS FIRST, 1 LIMIT 4',
  'SELECT p, q FROM (SELECT a AS p, a AS q FROM q4a UNION ALL SELECT a, b FROM q4a) t ORDER BY q, p LIMIT 6 OFFSET 2',
  'SELECT a, count(*) FROM (SELECT a FROM q4a UNION ALL SELECT a FROM q4a WHERE id % 2 = 0) t GROUP BY a ORDER BY count(*) DESC, a NULLS FIRST LIMIT 3'
]) q, s4_check(q, true) c;
-- stay local (on both engines): the rows without a LIMIT (each member's
-- scan sent, an async Append here); two columns the same column in every
-- member (no member names them); an expression as a member's column
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM q4a WHERE a > 0 UNION ALL SELECT id FROM q4a WHERE a < 0;
EXPLAIN (COSTS OFF)
  SELECT p, q, count(*) FROM (SELECT a AS p, a AS q FROM q4a UNION ALL SELECT b, b FROM q4a) t GROUP BY p, q;
EXPLAIN (COSTS OFF)
  SELECT p, count(*) FROM (SELECT a + 1 AS p FROM q4a UNION ALL SELECT a FROM q4a) t GROUP BY p;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT id FROM q4a WHERE a > 0 UNION ALL SELECT id FROM q4a WHERE a < 0',
  'SELECT p, q, count(*) FROM (SELECT a AS p, a AS q FROM q4a UNION ALL SELECT b, b FROM q4a) t GROUP BY p, q',
  'SELECT p, count(*) FROM (SELECT a + 1 AS p FROM q4a UNION ALL SELECT a FROM q4a) t GROUP BY p'
]) q, s4_check(q, false) c;

-- ==== random UNION ALLs of one table (fixed seed): two or three members
-- of q4a (one sometimes the empty q4e) with random conditions and random
-- column pairs, under a random aggregate or a top-N; each compared with
-- the local copies (top-N in order: every column sorted)
SELECT setseed(0.733);
CREATE TEMP TABLE u4_rand AS
WITH g AS (
  SELECT i,
         (ARRAY['', ' WHERE a > 0', ' WHERE s = ''b''', ' WHERE (a > 5) IS DISTINCT FROM (b < 3)',
                ' WHERE id % 2 = 0', ' WHERE x < 0', ' WHERE a IS NULL', ' WHERE id > 100'])[1 + floor(random() * 8)::int] AS c1,
         (ARRAY['', ' WHERE a > 0', ' WHERE s = ''b''', ' WHERE f', ' WHERE id % 3 = 1', ' WHERE b < 3'])[1 + floor(random() * 6)::int] AS c2,
         (ARRAY['a, b', 'b, a', 'a, a', 'id, a', 'b, b', 'a, id'])[1 + floor(random() * 6)::int] AS m1,
         (ARRAY['a, b', 'b, a', 'id, b', 'a, a'])[1 + floor(random() * 4)::int] AS m2,
         random() < 0.3 AS three,
         CASE WHEN random() < 0.15 THEN 'q4e' ELSE 'q4a' END AS t2,
         (ARRAY['p, count(*) FROM %s t GROUP BY p', 'p, q, count(*) FROM %s t GROUP BY p, q',
                'count(*), sum(p), min(q) FROM %s t', 'q, max(p), count(p) FROM %s t GROUP BY q',
                'p, q FROM %s t ORDER BY p NULLS FIRST, q LIMIT 4',
                'p, q FROM %s t ORDER BY q DESC, p LIMIT 5 OFFSET 1'])[1 + floor(random() * 6)::int] AS outer_q
    FROM generate_series(1, 30) i)
SELECT i, outer_q LIKE '%LIMIT%' AS ordered,
       'SELECT ' || format(outer_q,
         format('(SELECT %s FROM q4a%s UNION ALL SELECT %s FROM %s%s%s)',
                replace(m1, ', ', ' AS p, ') || ' AS q', c1, m2, t2, c2,
                CASE WHEN three THEN ' UNION ALL SELECT b, a FROM q4a WHERE id < 5' ELSE '' END)) AS q
  FROM g;
SELECT count(*) AS queries, count(*) FILTER (WHERE c.same) AS same,
       count(*) FILTER (WHERE c.pushed) AS sent
  FROM u4_rand r, s4_check(r.q, r.ordered) c;
-- any that differ (none expected), and those kept local (18.16: all; 26.5: the
-- pairs whose two columns are one column in every member, none to name them)
SELECT r.i, r.q, c.* FROM u4_rand r, s4_check(r.q, r.ordered) c WHERE NOT c.same OR NOT c.pushed;

DROP TABLE q4a_l, q4e_l;
SELECT clickhouse_exec('ch_s4', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.' || t)
  FROM unnest(ARRAY['s4a', 's4e']) t;
