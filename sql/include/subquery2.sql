-- ====================================================================
-- Body of subquery2.sql (ClickHouse 18.16) and modern_subquery2.sql (the
-- 26.5 engine behind test/chdb/front.py, a test harness, not a server):
-- ORDER BY and LIMIT over a UNION ALL of one server's foreign tables (its
-- groups, or its rows: a top-N), sent as one remote query on servers that
-- compute each member in the union's types, and correlated scalar
-- subqueries in a foreign table's conditions, sent inside them on servers
-- that run correlated subqueries (subquery.c; 18.16 keeps both local). Every query runs on the foreign tables and on local copies and is
-- compared, in order where its ORDER BY decides the order; then random
-- top-N queries (fixed seed). The caller has created server ch_s2 and set
-- :ch_db.
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SET extra_float_digits = 0;
SELECT clickhouse_exec('ch_s2', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.' || t)
  FROM unnest(ARRAY['ov1', 'ov2', 'ov3']) t;
-- the members' ClickHouse types differ where PostgreSQL's are the same
SELECT clickhouse_exec('ch_s2', 'CREATE TABLE ' || :'ch_db' || '.ov1 (id Int32, k Nullable(Int32), s Nullable(String), x Int64, f Nullable(Float64), d Decimal(9, 2)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_s2', 'CREATE TABLE ' || :'ch_db' || '.ov2 (id Int64, k Int32, s LowCardinality(String), x Nullable(Int64), f Float64, d Decimal(18, 4)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_s2', 'CREATE TABLE ' || :'ch_db' || '.ov3 (id Int32, k Nullable(Int32), s Nullable(String), x Int64, f Nullable(Float64), d Decimal(9, 2)) ENGINE = MergeTree ORDER BY id');
-- NULL keys, duplicate keys, NaN, -0, infinities, '' and non-ASCII text
SELECT clickhouse_exec('ch_s2', 'INSERT INTO ' || :'ch_db' || '.ov1 VALUES (1, 1, ''a'', 10, 0.5, 1.25), (2, NULL, ''b'', 20, nan, -3.5), (3, 3, NULL, 30, -0.0, 0), (4, 3, '''', -9223372036854775807, 1e300, 99.99), (5, 5, ''a'', 3, NULL, 0.01), (6, 1, ''é'', 10, -inf, 2)');
SELECT clickhouse_exec('ch_s2', 'INSERT INTO ' || :'ch_db' || '.ov2 VALUES (10, 1, ''a'', 5, 1, 1.25), (11, 3, ''b'', NULL, inf, 2.0001), (12, 3, '''', 7, 3, -0.0001), (13, 7, ''c'', 9223372036854775807, nan, 5), (14, 0, ''a'', -1, 0, 0), (15, 1, ''zz'', 10, 0.5, 7)');
-- ov3 is empty
CREATE FOREIGN TABLE ov1 (id bigint, k int, s text, x bigint, f float8, d numeric) SERVER ch_s2 OPTIONS (table 'ov1');
CREATE FOREIGN TABLE ov2 (id bigint, k int, s text, x bigint, f float8, d numeric) SERVER ch_s2 OPTIONS (table 'ov2');
CREATE FOREIGN TABLE ov3 (id bigint, k int, s text, x bigint, f float8, d numeric) SERVER ch_s2 OPTIONS (table 'ov3');
CREATE TABLE ov1_l AS SELECT * FROM ov1;
CREATE TABLE ov2_l AS SELECT * FROM ov2;
CREATE TABLE ov3_l AS SELECT * FROM ov3;

-- s2_check(query, ordered): the query on the foreign tables and on the
-- local copies (ovN -> ovN_l); rows compared as sorted multisets and, when
-- ordered (the query's ORDER BY decides the order), in order; pushed: the
-- plan is one Foreign Scan (under a Limit), nothing else
\i sql/include/diff_check.sql
CREATE FUNCTION s2_check(q text, ordered boolean, OUT pushed boolean, OUT same boolean,
    OUT nrows int, OUT err text) LANGUAGE sql AS $$
  SELECT * FROM diff_check(q, 'ov[0-9]', '(Append|Aggregate|SubPlan|Subquery Scan|Sort|Hash|Join|Nested Loop|Unique)', ordered) $$;

-- ==== ORDER BY and LIMIT over the groups of a UNION ALL aggregate
-- (26.5: sorted and cut by ClickHouse; 18.16: the aggregate stays local)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT k, count(*), sum(x) FROM (SELECT k, x FROM ov1 UNION ALL SELECT k, x FROM ov2) u
  GROUP BY k ORDER BY 2 DESC, 1 NULLS FIRST LIMIT 3;
SELECT k, count(*), sum(x) FROM (SELECT k, x FROM ov1 UNION ALL SELECT k, x FROM ov2) u
  GROUP BY k ORDER BY 2 DESC, 1 NULLS FIRST LIMIT 3;
-- a float aggregate sorted with NaN where PostgreSQL puts it; OFFSET
-- (ov1's row 3 is left out of the float sums: a group of only -0.0 sums to
-- 0 in ClickHouse, -0 in PostgreSQL, as over one table: aggregates.c)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT s, sum(f) FROM (SELECT s, f FROM ov1 UNION ALL SELECT s, f FROM ov2 WHERE id > 10) u
  GROUP BY s ORDER BY 2 DESC NULLS LAST, 1 LIMIT 4 OFFSET 1;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT k, count(*), sum(x) FROM (SELECT k, x FROM ov1 UNION ALL SELECT k, x FROM ov2) u GROUP BY k ORDER BY 2 DESC, 1 NULLS FIRST LIMIT 3',
  'SELECT s, sum(f) FROM (SELECT s, f FROM ov1 UNION ALL SELECT s, f FROM ov2 WHERE id > 10) u GROUP BY s ORDER BY 2 DESC NULLS LAST, 1 LIMIT 4 OFFSET 1',
  'SELECT s, sum(f) FROM (SELECT s, f FROM ov1 WHERE id <> 3 UNION ALL SELECT s, f FROM ov2) u GROUP BY s ORDER BY 2, 1',
  'SELECT s, sum(f) FROM (SELECT s, f FROM ov1 WHERE id <> 3 UNION ALL SELECT s, f FROM ov2) u GROUP BY s ORDER BY 2 NULLS FIRST, 1 DESC LIMIT 5',
  'SELECT k, min(s) FROM (SELECT k, s FROM ov1 UNION ALL SELECT k, s FROM ov2) u GROUP BY k ORDER BY 2 DESC NULLS FIRST, 1 LIMIT 4',
  'SELECT k, count(*) FROM (SELECT k FROM ov1 UNION ALL SELECT k FROM ov2 UNION ALL SELECT k FROM ov3) u GROUP BY k ORDER BY k DESC NULLS LAST LIMIT 2',
  'SELECT kind, k, count(*) FROM (SELECT ''a'' AS kind, k FROM ov1 UNION ALL SELECT ''b'', k FROM ov2) u GROUP BY kind, k ORDER BY kind DESC, k LIMIT 4',
  'SELECT s, sum(x) FROM (SELECT s, x FROM ov1 UNION ALL SELECT s, x FROM ov2) u GROUP BY s ORDER BY sum(x) DESC NULLS LAST, s LIMIT 3',
  'SELECT k, count(*) FROM (SELECT k FROM ov3 UNION ALL SELECT k FROM ov3) u GROUP BY k ORDER BY k LIMIT 1',
  'SELECT max(x) FROM (SELECT x FROM ov1 UNION ALL SELECT x FROM ov2) u ORDER BY 1 LIMIT 1'
]) q, s2_check(q, true) c;
-- a LIMIT without ORDER BY: any groups; compared by their number
SELECT count(*) FROM (SELECT k, count(*) FROM (SELECT k FROM ov1 UNION ALL SELECT k FROM ov2) u GROUP BY k LIMIT 3) t;
-- what stays local: an ORDER BY of avg (PostgreSQL finishes it from its
-- pieces), a HAVING evaluated here (the LIMIT is then not sent), DISTINCT;
-- numeric columns (the members' Decimal scales meet in the widest: ov1's
-- 1.25 would come back as ov2's 1.2500, which PostgreSQL shows: this
-- max() was sent before and answered 1.2500); a count() of one, and
-- HAVING over one, are sent
EXPLAIN (COSTS OFF) SELECT k, avg(x) FROM (SELECT k, x FROM ov1 UNION ALL SELECT k, x FROM ov2) u GROUP BY k ORDER BY 2, 1 LIMIT 2;
EXPLAIN (VERBOSE, COSTS OFF) SELECT k, count(*) FROM (SELECT k, s FROM ov1 UNION ALL SELECT k, s FROM ov2) u GROUP BY k HAVING max(s) ~ 'a' ORDER BY 1 LIMIT 2;
EXPLAIN (COSTS OFF) SELECT DISTINCT count(*) FROM (SELECT k FROM ov1 UNION ALL SELECT k FROM ov2) u GROUP BY k ORDER BY 1 LIMIT 2;
EXPLAIN (COSTS OFF) SELECT d, count(*) FROM (SELECT d FROM ov1 UNION ALL SELECT d FROM ov2) u GROUP BY d;
EXPLAIN (COSTS OFF) SELECT max(d) FROM (SELECT d FROM ov1 WHERE id = 1 UNION ALL SELECT d FROM ov2 WHERE id = 14) u;
SELECT max(d) FROM (SELECT d FROM ov1 WHERE id = 1 UNION ALL SELECT d FROM ov2 WHERE id = 14) u;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT max(d) FROM (SELECT d FROM ov1 WHERE id = 1 UNION ALL SELECT d FROM ov2 WHERE id = 14) u',
  'SELECT k, count(d) FROM (SELECT k, d FROM ov1 UNION ALL SELECT k, d FROM ov2) u GROUP BY k HAVING max(d) > 1',
  'SELECT max(d), min(d) FROM (SELECT d FROM ov1 UNION ALL SELECT d FROM ov2 WHERE id = 10) u',
  'SELECT id, d FROM ov1 UNION ALL SELECT id, d FROM ov2 UNION ALL SELECT id, d FROM ov3 ORDER BY d DESC, id LIMIT 3'
]) q, s2_check(q, false) c;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT k, avg(x) FROM (SELECT k, x FROM ov1 UNION ALL SELECT k, x FROM ov2) u GROUP BY k ORDER BY 2, 1 LIMIT 2',
  'SELECT k, count(*) FROM (SELECT k, s FROM ov1 UNION ALL SELECT k, s FROM ov2) u GROUP BY k HAVING max(s) ~ ''a'' ORDER BY 1 LIMIT 2',
  'SELECT DISTINCT count(*) FROM (SELECT k FROM ov1 UNION ALL SELECT k FROM ov2) u GROUP BY k ORDER BY 1 LIMIT 2'
]) q, s2_check(q, true) c;

-- ==== the rows of a UNION ALL under ORDER BY ... LIMIT: a top-N
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id, s, f FROM ov1 WHERE x > 1 UNION ALL SELECT id, s, f FROM ov2 ORDER BY f DESC, id LIMIT 4;
SELECT id, s, f FROM ov1 WHERE x > 1 UNION ALL SELECT id, s, f FROM ov2 ORDER BY f DESC, id LIMIT 4;
-- in a FROM subquery; expressions over the columns computed here
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id * 2, upper(s) FROM (SELECT id, s FROM ov1 UNION ALL SELECT id, s FROM ov2) u ORDER BY s NULLS FIRST, id LIMIT 3 OFFSET 2;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT id, s, f FROM ov1 WHERE x > 1 UNION ALL SELECT id, s, f FROM ov2 ORDER BY f DESC, id LIMIT 4',
  'SELECT id * 2, upper(s) FROM (SELECT id, s FROM ov1 UNION ALL SELECT id, s FROM ov2) u ORDER BY s NULLS FIRST, id LIMIT 3 OFFSET 2',
  'SELECT id, f FROM ov1 UNION ALL SELECT id, f FROM ov2 ORDER BY f, id LIMIT 20',
  'SELECT id, f FROM ov1 UNION ALL SELECT id, f FROM ov2 ORDER BY f NULLS FIRST, id DESC LIMIT 5',
  'SELECT id, k, x FROM ov1 UNION ALL SELECT id, k, x FROM ov2 ORDER BY k DESC, x, id LIMIT 6',
  'SELECT kind, id FROM (SELECT ''one'' AS kind, id FROM ov1 UNION ALL SELECT ''two'', id FROM ov2 WHERE k > 0) u ORDER BY kind DESC, id LIMIT 4',
  'SELECT s, id FROM ov1 UNION ALL SELECT s, id FROM ov2 ORDER BY s DESC NULLS LAST, id LIMIT 7',
  'SELECT id FROM ov3 UNION ALL SELECT id FROM ov3 ORDER BY id LIMIT 2',
  'SELECT x, id FROM ov1 UNION ALL SELECT x, id FROM ov1 ORDER BY x, id LIMIT 4',
  'SELECT id FROM ov1 UNION ALL SELECT id FROM ov2 ORDER BY id LIMIT 0'
]) q, s2_check(q, true) c;
-- what stays local: a sort key that is an expression, a uuid or text
-- under a collation that does not order as bytes, no LIMIT (each member's
-- scan is sent sorted and merged here), a member on another server
EXPLAIN (COSTS OFF) SELECT id, x FROM (SELECT id, x FROM ov1 UNION ALL SELECT id, x FROM ov2) u ORDER BY x / 2, id LIMIT 2;
EXPLAIN (COSTS OFF) SELECT id, s FROM (SELECT id, s FROM ov1 UNION ALL SELECT id, s FROM ov2) u ORDER BY s COLLATE "en-x-icu", id LIMIT 2;
EXPLAIN (COSTS OFF) SELECT id, x FROM ov1 UNION ALL SELECT id, x FROM ov2 ORDER BY x, id;
CREATE SERVER ch_s2b FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_s2b;
CREATE FOREIGN TABLE ov2b (id bigint, x bigint) SERVER ch_s2b OPTIONS (table 'ov2');
EXPLAIN (COSTS OFF) SELECT id, x FROM ov1 UNION ALL SELECT id, x FROM ov2b ORDER BY x, id LIMIT 2;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT id, x FROM (SELECT id, x FROM ov1 UNION ALL SELECT id, x FROM ov2) u ORDER BY x / 2, id LIMIT 2',
  'SELECT id, s FROM (SELECT id, s FROM ov1 UNION ALL SELECT id, s FROM ov2) u ORDER BY s COLLATE "en-x-icu", id LIMIT 2',
  'SELECT id, x FROM ov1 UNION ALL SELECT id, x FROM ov2 ORDER BY x, id',
  'SELECT id, x FROM ov1 UNION ALL SELECT id, x FROM ov2b ORDER BY x, id LIMIT 2'
]) q, s2_check(q, true) c;
DROP SERVER ch_s2b CASCADE;
-- a cursor: the LIMIT is the query's, rows fetched as asked
BEGIN;
DECLARE s2c CURSOR FOR SELECT id, x FROM ov1 UNION ALL SELECT id, x FROM ov2 ORDER BY x DESC NULLS LAST, id LIMIT 3;
FETCH 2 FROM s2c;
FETCH 2 FROM s2c;
COMMIT;
-- a prepared statement's LIMIT parameter: sorted there, cut here
PREPARE s2p(int) AS SELECT id, x FROM ov1 UNION ALL SELECT id, x FROM ov2 ORDER BY x, id LIMIT $1;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE s2p(2);
EXECUTE s2p(2);
DEALLOCATE s2p;

-- privileges: every member's table is checked, a member with a WHERE too
CREATE ROLE regress_s2_user;
ALTER SERVER ch_s2 OPTIONS (ADD host '127.0.0.1');
CREATE USER MAPPING FOR regress_s2_user SERVER ch_s2 OPTIONS (password_required 'false');
GRANT SELECT ON ov1 TO regress_s2_user;
SET ROLE regress_s2_user;
SELECT id FROM ov1 UNION ALL SELECT id FROM ov2 ORDER BY id LIMIT 2;
SELECT id FROM ov1 UNION ALL SELECT id FROM ov2 WHERE x > 0 ORDER BY id LIMIT 2;
SELECT k, count(*) FROM (SELECT k FROM ov1 UNION ALL SELECT k FROM ov2 WHERE id > 0) u GROUP BY k ORDER BY 1 LIMIT 2;
RESET ROLE;
GRANT SELECT ON ov2 TO regress_s2_user;
SET ROLE regress_s2_user;
SELECT id FROM ov1 UNION ALL SELECT id FROM ov2 WHERE x > 0 ORDER BY id DESC LIMIT 2;
RESET ROLE;
REVOKE SELECT ON ov1, ov2 FROM regress_s2_user;
DROP USER MAPPING FOR regress_s2_user SERVER ch_s2;
ALTER SERVER ch_s2 OPTIONS (DROP host);
DROP ROLE regress_s2_user;

-- ==== random top-N over random UNION ALLs (fixed seed): 2 to 4 members
-- (a table may come twice, the empty one too), a WHERE on some, random
-- sort keys (directions, NULLS placement) ending with the unique id (a
-- table twice: equal rows are equal as text), LIMIT and OFFSET; and
-- random ORDER BY ... LIMIT over the groups, by every key
SELECT setseed(0.29);
CREATE TEMP TABLE s2_rand AS
WITH g AS (
  SELECT n, 1 + floor(random() * 3)::int AS nlegs,
         (ARRAY['k', 's', 'f', 'x', 'kind', 'k, s', 'f, k', 'kind, x', 's, f, x'])[1 + floor(random() * 9)::int] AS keys,
         1 + floor(random() * 8)::int AS lim,
         (ARRAY['', '', ' OFFSET 2', ' OFFSET 5'])[1 + floor(random() * 4)::int] AS off
    FROM generate_series(1, 40) n
), legs AS (
  SELECT n, string_agg(format('SELECT id, k, s, x, f, %L AS kind FROM ov%s%s', kv, t, w), ' UNION ALL ' ORDER BY i) AS body
    FROM (SELECT g.n, i, 1 + floor(random() * 3)::int AS t,
                 (ARRAY['a', 'b', ''])[1 + floor(random() * 3)::int] AS kv,
                 (ARRAY['', '', ' WHERE x > 2', ' WHERE k IS NOT NULL', ' WHERE s <> ''a''', ' WHERE f < 1'])[1 + floor(random() * 6)::int] AS w
            FROM g, generate_series(0, g.nlegs) i) l
   GROUP BY n
), ord AS (
  SELECT n, string_agg(key || (ARRAY['', ' DESC', ' NULLS FIRST', ' DESC NULLS LAST'])[1 + floor(random() * 4)::int], ', ' ORDER BY o) AS ob
    FROM g, unnest(string_to_array(g.keys, ', ')) WITH ORDINALITY AS u(key, o)
   GROUP BY n
)
SELECT g.n, format('SELECT %s, id FROM (%s) u ORDER BY %s, id LIMIT %s%s', keys, body, ob, lim, off) AS q
  FROM g JOIN legs USING (n) JOIN ord USING (n)
UNION ALL
SELECT 100 + g.n, format('SELECT %s, count(*), max(x) FROM (%s) u GROUP BY %s ORDER BY %s LIMIT %s%s',
                         keys, body, keys, ob, lim, off)
  FROM g JOIN legs USING (n) JOIN ord USING (n)
 WHERE keys !~ 'f';
SELECT count(*) AS queries, count(*) FILTER (WHERE c.pushed) AS pushed,
       count(*) FILTER (WHERE c.same) AS same, sum(c.nrows) AS rows
  FROM s2_rand, s2_check(q, true) c;
-- any that differ or stay local (on 18.16 every one stays local)
SELECT n, q, c.* FROM s2_rand, s2_check(q, true) c WHERE NOT c.same OR NOT c.pushed ORDER BY n;
DROP TABLE s2_rand;

-- ==== correlated scalar subqueries in a foreign table's conditions
-- (26.5: sent inside the condition, the subquery grouped by its keys
-- first; 18.16 has no correlated subqueries: each runs per outer row)
-- c2_check(query): as s2_check (multisets); pushed: the scan's Remote SQL
-- holds the subquery (`__sq`) and nothing is evaluated here (the unused
-- SubPlan stays in the plan: PostgreSQL checks its privileges)
CREATE FUNCTION c2_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int,
                         OUT err text) LANGUAGE plpgsql AS $$
DECLARE
  plan text := '';
  line text;
BEGIN
  SELECT d.same, d.nrows, d.err INTO same, nrows, err FROM diff_check(q, 'ov[0-9]', '') d;
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    plan := plan || line || E'\n';
  END LOOP;
  plan := regexp_replace(plan, 'Relations: [^\n]*', '', 'g');
  pushed := plan ~ 'Remote SQL: [^\n]*__sq[0-9]+_v' AND plan !~ '(Filter:|Append|Aggregate|Sort|Hash|Join|Nested Loop)';
END $$;
-- an aggregate per key; count() over no rows is 0, not NULL
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id, x FROM ov1 a WHERE x > (SELECT max(x) FROM ov2 b WHERE b.k = a.k);
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM ov1 a WHERE (SELECT count(*) FROM ov2 b WHERE b.k = a.k AND b.s <> 'a') = 0;
SELECT id FROM ov1 a WHERE (SELECT count(*) FROM ov2 b WHERE b.k = a.k AND b.s <> 'a') = 0 ORDER BY id;
-- two keys, text keys
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM ov1 a WHERE (SELECT sum(x) FROM ov2 b WHERE b.k = a.k AND b.s = a.s) IS NOT NULL;
-- the subplan is not run: its remote query is never sent (on 18.16 it
-- runs once per outer row)
CREATE FUNCTION c2_analyze(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    RETURN NEXT regexp_replace(line, '(Query ID: ).*', '\1<id>');
  END LOOP;
END $$;
SELECT c2_analyze('SELECT id FROM ov1 a WHERE x > (SELECT max(x) FROM ov2 b WHERE b.k = a.k)');
DROP FUNCTION c2_analyze(text);
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT id, x FROM ov1 a WHERE x > (SELECT max(x) FROM ov2 b WHERE b.k = a.k)',
  'SELECT id FROM ov1 a WHERE (SELECT count(*) FROM ov2 b WHERE b.k = a.k AND b.s <> ''a'') = 0',
  'SELECT id FROM ov1 a WHERE (SELECT count(x) FROM ov2 b WHERE b.k = a.k) < 2',
  'SELECT id FROM ov1 a WHERE (SELECT sum(x) FROM ov2 b WHERE b.k = a.k AND b.s = a.s) IS NOT NULL',
  'SELECT id FROM ov1 a WHERE (SELECT min(id) FROM ov2 b WHERE b.s = a.s) IS NULL',
  'SELECT id, s FROM ov1 a WHERE (SELECT max(s) FROM ov2 b WHERE b.k = a.k) > a.s',
  'SELECT id FROM ov1 a WHERE x >= (SELECT max(x) FROM ov1 b WHERE b.k = a.k)',
  'SELECT id FROM ov1 a WHERE (SELECT count(*) FROM ov3 b WHERE b.k = a.k) = 0',
  'SELECT id FROM ov1 a WHERE (SELECT max(x) FROM ov3 b WHERE b.k = a.k) IS NULL',
  'SELECT id FROM ov1 a WHERE (SELECT sum(x) FROM ov2 b WHERE b.k = a.k) > 0',
  'SELECT id FROM ov1 a WHERE (SELECT min(k) FROM ov2 b WHERE b.s = a.s) = a.k',
  'SELECT id FROM ov1 a WHERE a.x > 15 OR (SELECT count(*) FROM ov2 b WHERE b.k = a.k) > 1',
  'SELECT id FROM ov1 a WHERE coalesce((SELECT max(x) FROM ov2 b WHERE b.k = a.k), 0) < a.x',
  'SELECT id FROM ov1 a WHERE a.id > 1 AND (SELECT min(b.id) FROM ov2 b WHERE b.k = a.k) > 10',
  'SELECT k, count(*) FROM ov1 a WHERE (SELECT count(*) FROM ov2 b WHERE b.k = a.k) > 0 GROUP BY k',
  'SELECT id FROM ov1 a WHERE (SELECT count(*) FROM ov2 b WHERE b.k = a.k) > 0 ORDER BY id LIMIT 2',
  'SELECT a.id, c.id FROM ov1 a JOIN ov2 c ON a.k = c.k WHERE a.x > (SELECT min(x) FROM ov2 b WHERE b.k = a.k)'
]) q, c2_check(q) c;
-- a prepared statement's parameter in the subquery (custom and generic plans)
PREPARE c2p(bigint) AS SELECT id FROM ov1 a WHERE (SELECT count(*) FROM ov2 b WHERE b.k = a.k AND b.x > $1) > 0 ORDER BY id;
EXECUTE c2p(5);
SET plan_cache_mode = force_generic_plan;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE c2p(5);
EXECUTE c2p(5);
RESET plan_cache_mode;
DEALLOCATE c2p;
-- what stays local, and why: a subquery without an aggregate (26.5 would
-- take the first of several rows; PostgreSQL raises 21000), avg
-- (PostgreSQL finishes it from pieces), a correlation that is not an
-- equality of columns, string_agg (its order is the subquery scan's), an
-- inner table on another server or local; (subq3) a subquery in the
-- SELECT list and EXISTS under OR are sent on 26.5 since (subquery3.sql),
-- in other forms than the `__sq` one c2_check looks for
\set VERBOSITY sqlstate
SELECT id FROM ov1 a WHERE x > (SELECT x FROM ov2 b WHERE b.k = a.k);
\set VERBOSITY default
CREATE SERVER ch_s2c FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_s2c;
CREATE FOREIGN TABLE ov2c (id bigint, k int, x bigint) SERVER ch_s2c OPTIONS (table 'ov2');
EXPLAIN (COSTS OFF) SELECT id FROM ov1 a WHERE x > (SELECT avg(x) FROM ov2 b WHERE b.k = a.k);
EXPLAIN (COSTS OFF) SELECT id, (SELECT count(*) FROM ov2 b WHERE b.k = a.k) FROM ov1 a;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT id FROM ov1 a WHERE x > (SELECT x FROM ov2 b WHERE b.k = a.k AND b.id = 10)',
  'SELECT id FROM ov1 a WHERE x > (SELECT avg(x) FROM ov2 b WHERE b.k = a.k)',
  'SELECT id FROM ov1 a WHERE (SELECT count(*) FROM ov2 b WHERE b.k < a.k) > 2',
  'SELECT id FROM ov1 a WHERE (SELECT count(*) FROM ov2 b WHERE b.k = a.k + 1) > 0',
  'SELECT id FROM ov1 a WHERE (SELECT length(string_agg(s, '','')) FROM ov2 b WHERE b.k = a.k) > 1',
  'SELECT id FROM ov1 a WHERE (SELECT count(*) FROM ov2c b WHERE b.k = a.k) > 0',
  'SELECT id FROM ov1 a WHERE (SELECT count(*) FROM ov2_l b WHERE b.k = a.k) > 0',
  'SELECT id, (SELECT count(*) FROM ov2 b WHERE b.k = a.k) FROM ov1 a',
  'SELECT id FROM ov1 a WHERE EXISTS (SELECT 1 FROM ov2 b WHERE b.k = a.k) OR x > 25'
]) q, c2_check(q) c;
DROP SERVER ch_s2c CASCADE;
-- EXISTS and NOT EXISTS of their own are SEMI and ANTI joins (plan.c), on
-- both servers
EXPLAIN (COSTS OFF) SELECT id FROM ov1 a WHERE EXISTS (SELECT 1 FROM ov2 b WHERE b.k = a.k);
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT id FROM ov1 a WHERE EXISTS (SELECT 1 FROM ov2 b WHERE b.k = a.k)',
  'SELECT id FROM ov1 a WHERE NOT EXISTS (SELECT 1 FROM ov2 b WHERE b.k = a.k AND b.x > 5)',
  'SELECT id FROM ov1 a WHERE NOT EXISTS (SELECT 1 FROM ov3 b WHERE b.s = a.s)'
]) q, s2_check(q, false) c;
-- privileges: a role without SELECT on the subquery's table is refused
CREATE ROLE regress_c2_user;
ALTER SERVER ch_s2 OPTIONS (ADD host '127.0.0.1');
CREATE USER MAPPING FOR regress_c2_user SERVER ch_s2 OPTIONS (password_required 'false');
GRANT SELECT ON ov1 TO regress_c2_user;
SET ROLE regress_c2_user;
SELECT id FROM ov1 a WHERE (SELECT count(*) FROM ov2 b WHERE b.k = a.k) > 0;
RESET ROLE;
GRANT SELECT ON ov2 TO regress_c2_user;
SET ROLE regress_c2_user;
SELECT id FROM ov1 a WHERE (SELECT count(*) FROM ov2 b WHERE b.k = a.k) > 0 ORDER BY id;
RESET ROLE;
REVOKE SELECT ON ov1, ov2 FROM regress_c2_user;
DROP USER MAPPING FOR regress_c2_user SERVER ch_s2;
ALTER SERVER ch_s2 OPTIONS (DROP host);
DROP ROLE regress_c2_user;
-- random correlated subqueries (fixed seed): an aggregate per outer row
-- of another table, the same one or the empty one, by one or two keys
-- (NULL and duplicate keys), a filter of the subquery's own, compared in
-- several ways, with another condition of the outer table or none
SELECT setseed(0.41);
CREATE TEMP TABLE c2_rand AS
WITH g AS (
  SELECT n,
         (ARRAY['count(*)', 'count(x)', 'sum(x)', 'min(x)', 'max(x)', 'min(id)', 'sum(k)', 'max(k)',
                'min(s)', 'max(s)'])[1 + floor(random() * 10)::int] AS agg,
         (ARRAY['b.k = a.k', 'b.s = a.s', 'b.k = a.k AND b.s = a.s', 'a.k = b.k'])[1 + floor(random() * 4)::int] AS keys,
         (ARRAY['', '', ' AND b.x > 2', ' AND b.s <> ''a''', ' AND b.id % 2 = 0', ' AND b.k IS NOT NULL'])[1 + floor(random() * 6)::int] AS filt,
         1 + floor(random() * 3)::int AS t,
         floor(random() * 6)::int AS cmp,
         (ARRAY['', '', ' AND a.id > 2', ' OR a.x > 15', ' AND a.s IS NOT NULL'])[1 + floor(random() * 5)::int] AS outer_cond
    FROM generate_series(1, 100) n
)
SELECT n, format('SELECT id, k, s FROM ov1 a WHERE %s %s%s',
         format('(SELECT %s FROM ov%s b WHERE %s%s)', agg, t, keys, filt),
         CASE WHEN agg ~ '\(s\)' THEN (ARRAY['> a.s', '< a.s', 'IS NULL', 'IS NOT NULL', '= ''a''', '<> a.s'])[1 + cmp]
              ELSE (ARRAY['> a.x', '< a.x', 'IS NULL', 'IS NOT NULL', '= 0', '>= a.k'])[1 + cmp] END,
         outer_cond) AS q
  FROM g;
SELECT count(*) AS queries, count(*) FILTER (WHERE c.pushed) AS pushed,
       count(*) FILTER (WHERE c.same) AS same, sum(c.nrows) AS rows
  FROM c2_rand, c2_check(q) c;
-- any that differ, or stay local on 26.5 (on 18.16 all stay local)
SELECT n, q, c.* FROM c2_rand, c2_check(q) c
 WHERE NOT c.same OR (NOT c.pushed AND :'ch_db' = 'regress_modern')
 ORDER BY n;
DROP TABLE c2_rand;
DROP FUNCTION c2_check(text);

DROP FUNCTION s2_check(text, boolean);
DROP TABLE ov1_l, ov2_l, ov3_l;
DROP FOREIGN TABLE ov1, ov2, ov3;
SELECT clickhouse_exec('ch_s2', 'DROP TABLE ' || :'ch_db' || '.' || t)
  FROM unnest(ARRAY['ov1', 'ov2', 'ov3']) t;
