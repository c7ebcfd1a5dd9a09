-- ====================================================================
-- Upper stages sent to ClickHouse, shared by pushdown_upper.sql (18.16)
-- and modern_pushdown_upper.sql (the 26.5 engine behind test/chdb/front.py,
-- a test harness, not a server): SELECT DISTINCT, window functions and
-- GROUP BY ROLLUP / CUBE / GROUPING SETS. Fixed queries show what is sent
-- (EXPLAIN VERBOSE: one Foreign Scan, the construct in its Remote SQL) and
-- what stays local; every query also runs on a local copy and the answers
-- are compared. Then random windows and grouping sets (fixed seed) over a
-- small table with NULLs, duplicates, NaN, -0, infinities and filters that
-- leave nothing. The caller has created server ch_up and set :ch_db.
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET extra_float_digits = 0;
SELECT clickhouse_exec('ch_up', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.' || t)
  FROM unnest(ARRAY['ut', 'ut2']) t;
SELECT clickhouse_exec('ch_up', 'CREATE TABLE ' || :'ch_db' || '.ut (id Int32, p Nullable(Int32), x Nullable(Int64), s Nullable(String), f Nullable(Float64), d Date) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_up', 'CREATE TABLE ' || :'ch_db' || '.ut2 (id Int32, k Nullable(Int32), y Int32) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_up', 'INSERT INTO ' || :'ch_db' || '.ut VALUES
  (1, 1, 10, ''a'', 1.5, ''2020-01-01''), (2, 1, NULL, ''b'', nan, ''2020-01-02''),
  (3, 1, 10, NULL, -0.0, ''2020-01-01''), (4, 2, 5, ''a'', 0, ''2020-01-03''),
  (5, NULL, 7, ''b'', NULL, ''2020-01-03''), (6, NULL, NULL, ''a'', 2, ''2020-01-01''),
  (7, 2, 5, '''', inf, ''2020-01-02''), (8, 3, 9223372036854775807, ''c'', -inf, ''2020-01-04''),
  (9, 3, 9223372036854775807, ''c'', nan, ''2020-01-04''), (10, 1, -3, ''a'', 1.5, ''2020-01-02''),
  (11, 4, 0, ''é'', -0.0, ''2020-01-05''), (12, 2, 5, ''b'', 0, ''2020-01-01'')');
SELECT clickhouse_exec('ch_up', 'INSERT INTO ' || :'ch_db' || '.ut2 VALUES
  (1, 1, 100), (2, 2, 200), (3, 2, 300), (4, NULL, 400), (5, 9, 500)');
CREATE FOREIGN TABLE ut (id int, p int, x bigint, s text, f float8, d date) SERVER ch_up OPTIONS (table 'ut');
CREATE FOREIGN TABLE ut2 (id int, k int, y int) SERVER ch_up OPTIONS (table 'ut2');
CREATE TABLE ut_l AS SELECT * FROM ut;
CREATE TABLE ut2_l AS SELECT * FROM ut2;

-- up_check(query): the query on the foreign tables and on the local copies
-- (utN -> utN_l), rows compared as sorted multisets and, for a query with
-- ORDER BY over a total order (ordered), in order; pushed: the plan is one
-- Foreign Scan and nothing above it but Limit
\i sql/include/diff_check.sql
CREATE FUNCTION up_check(q text, ordered boolean DEFAULT false, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'ut2?', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|WindowAgg|Unique|Group)', ordered) $$;

-- ==== DISTINCT (both engines)
EXPLAIN (VERBOSE, COSTS OFF) SELECT DISTINCT p, s FROM ut;
EXPLAIN (VERBOSE, COSTS OFF) SELECT DISTINCT p, x FROM ut WHERE id > 2 ORDER BY x DESC NULLS FIRST, p LIMIT 4;
EXPLAIN (VERBOSE, COSTS OFF) SELECT DISTINCT p, count(*) FROM ut GROUP BY p;
-- kept local: a grouping column the DISTINCT does not name (s), DISTINCT
-- over grouping sets (26.5 deduplicates within each set only)
EXPLAIN (VERBOSE, COSTS OFF) SELECT DISTINCT p, count(*) FROM ut GROUP BY p, s;
EXPLAIN (VERBOSE, COSTS OFF) SELECT DISTINCT p, count(*) FROM ut GROUP BY GROUPING SETS ((p), (p), ());
EXPLAIN (VERBOSE, COSTS OFF) SELECT DISTINCT a.p, b.y FROM ut a JOIN ut2 b ON a.p = b.k;
-- kept local: floats (-0 and 0 are two values in ClickHouse, NaNs too on
-- 18.16), text under a nondeterministic collation, DISTINCT ON, DISTINCT
-- over a value PostgreSQL computes
CREATE COLLATION up_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
EXPLAIN (VERBOSE, COSTS OFF) SELECT DISTINCT f FROM ut;
EXPLAIN (VERBOSE, COSTS OFF) SELECT DISTINCT s COLLATE up_ci FROM ut;
EXPLAIN (VERBOSE, COSTS OFF) SELECT DISTINCT ON (p) p, id FROM ut ORDER BY p, id;
EXPLAIN (VERBOSE, COSTS OFF) SELECT DISTINCT p, sum(x) / 2 FROM ut GROUP BY p;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT DISTINCT p, s FROM ut',
  'SELECT DISTINCT p FROM ut',
  'SELECT DISTINCT s FROM ut WHERE s IS NOT NULL',
  'SELECT DISTINCT d, p FROM ut',
  'SELECT DISTINCT p, x FROM ut WHERE id > 2 ORDER BY x DESC NULLS FIRST, p LIMIT 4',
  'SELECT DISTINCT p, count(*) FROM ut GROUP BY p, s',
  'SELECT DISTINCT count(*), min(s) FROM ut GROUP BY p',
  'SELECT DISTINCT p, count(*) FROM ut GROUP BY p ORDER BY count(*) DESC, p LIMIT 3',
  'SELECT DISTINCT p, count(*) FROM ut GROUP BY GROUPING SETS ((p), (p), ())',
  'SELECT DISTINCT a.p, b.y FROM ut a JOIN ut2 b ON a.p = b.k',
  'SELECT DISTINCT x FROM ut WHERE id > 100',
  'SELECT DISTINCT f FROM ut',
  'SELECT DISTINCT upper(s) COLLATE up_ci FROM ut',
  'SELECT DISTINCT ON (p) p, id FROM ut ORDER BY p, id',
  'SELECT DISTINCT p, sum(x) / 2 FROM ut GROUP BY p'
]) q, up_check(q, q LIKE '%LIMIT%') c;

-- ==== window functions (the 26.5 engine; 18.16 has none: every one stays local)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id, row_number() OVER w, rank() OVER w, dense_rank() OVER w FROM ut
  WINDOW w AS (PARTITION BY p ORDER BY x NULLS FIRST);
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id, lag(x) OVER w, lead(s, 2, 'none') OVER w FROM ut WINDOW w AS (ORDER BY id);
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id, sum(x) OVER (PARTITION BY p ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM ut;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id, first_value(s) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) FROM ut;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id, p, rank() OVER (PARTITION BY p ORDER BY x) FROM ut ORDER BY p DESC, id LIMIT 5;
-- windows over the groups of a grouped query
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT p, count(*), rank() OVER (ORDER BY count(*)), lag(p) OVER (ORDER BY p) FROM ut GROUP BY p;
-- kept local: floats summed over windows, GROUPS frames, RANGE offsets,
-- EXCLUDE, lag with a column offset, windows over groups PostgreSQL
-- filters (HAVING it evaluates) or finishes (avg of integers), over grouping sets
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, sum(f) OVER (ORDER BY id) FROM ut;
EXPLAIN (VERBOSE, COSTS OFF) SELECT p, avg(x), rank() OVER (ORDER BY avg(x)) FROM ut GROUP BY p;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, count(*) OVER (ORDER BY x GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM ut;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT id, row_number() OVER w, rank() OVER w, dense_rank() OVER w FROM ut WINDOW w AS (PARTITION BY p ORDER BY x NULLS FIRST, id)',
  'SELECT id, rank() OVER w, dense_rank() OVER w, percent_rank() OVER w, cume_dist() OVER w FROM ut WINDOW w AS (PARTITION BY p ORDER BY x DESC)',
  'SELECT id, percent_rank() OVER (), cume_dist() OVER (), rank() OVER (), count(*) OVER () FROM ut',
  'SELECT id, ntile(1) OVER w, ntile(3) OVER w, ntile(5) OVER w, ntile(20) OVER w FROM ut WINDOW w AS (PARTITION BY p ORDER BY id)',
  'SELECT id, lag(x) OVER w, lag(x, 2) OVER w, lag(x, 0) OVER w, lead(x, 1, -1::bigint) OVER w, lead(s, 2, ''none'') OVER w, lag(d, 1, ''1999-12-31''::date) OVER w FROM ut WINDOW w AS (PARTITION BY p ORDER BY id DESC)',
  'SELECT id, lag(f) OVER w, lead(f, 3) OVER w FROM ut WINDOW w AS (ORDER BY id)',
  'SELECT id, lag(f, 1, 0) OVER w, lead(f, 2, -1.5) OVER w, lag(f, 3, ''-Infinity'') OVER w, lead(f, 1, ''-0'') OVER w FROM ut WINDOW w AS (PARTITION BY p ORDER BY id)',
  'SELECT id, lag(f, 1, ''NaN'') OVER (ORDER BY id) FROM ut',
  'SELECT id, first_value(s) OVER w, last_value(s) OVER w, nth_value(x, 2) OVER w FROM ut WINDOW w AS (PARTITION BY p ORDER BY id)',
  'SELECT id, first_value(s) OVER w, last_value(x) OVER w, nth_value(s, 2) OVER w, count(*) OVER w FROM ut WINDOW w AS (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING)',
  'SELECT id, first_value(x) OVER w, sum(x) OVER w, min(s) OVER w FROM ut WINDOW w AS (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING)',
  'SELECT id, sum(x) OVER w, count(x) OVER w, avg(x) OVER w, min(x) OVER w, max(s) OVER w FROM ut WINDOW w AS (PARTITION BY p ORDER BY x NULLS FIRST)',
  'SELECT id, sum(x) OVER w, avg(p) OVER w, count(*) FILTER (WHERE x > 5) OVER w FROM ut WINDOW w AS (PARTITION BY s ORDER BY d RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)',
  'SELECT id, sum(x) OVER w, count(*) OVER w FROM ut WINDOW w AS (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)',
  'SELECT id, rank() OVER (ORDER BY f), count(*) OVER (ORDER BY f DESC NULLS LAST) FROM ut',
  'SELECT id, rank() OVER (PARTITION BY d ORDER BY s) FROM ut WHERE id > 1',
  'SELECT id, rank() OVER (ORDER BY x) + 1, 2 * count(*) OVER () FROM ut',
  'SELECT a.id, b.y, rank() OVER (PARTITION BY a.p ORDER BY b.y DESC) FROM ut a JOIN ut2 b ON a.p = b.k',
  'SELECT id, row_number() OVER (ORDER BY id) FROM ut ORDER BY id LIMIT 3',
  'SELECT id, p, rank() OVER (PARTITION BY p ORDER BY x) FROM ut ORDER BY p DESC, id LIMIT 5',
  'SELECT id, rank() OVER (ORDER BY x) FROM ut WHERE id > 100',
  'SELECT id, sum(f) OVER (ORDER BY id) FROM ut',
  'SELECT id, count(*) OVER (ORDER BY x GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM ut',
  'SELECT id, count(*) OVER (ORDER BY x RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) FROM ut',
  'SELECT id, count(*) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) FROM ut',
  'SELECT p, count(*), rank() OVER (ORDER BY count(*)) FROM ut GROUP BY p',
  'SELECT p, sum(x), sum(p) OVER (), row_number() OVER (ORDER BY p NULLS FIRST), lag(count(*)) OVER (ORDER BY p) FROM ut GROUP BY p',
  'SELECT s, max(x), dense_rank() OVER (PARTITION BY max(x) ORDER BY s), first_value(min(id)) OVER (ORDER BY s DESC) FROM ut WHERE id > 1 GROUP BY s HAVING count(*) > 1',
  'SELECT a.p, count(*), percent_rank() OVER (ORDER BY count(*) DESC, a.p) FROM ut a JOIN ut2 b ON a.p = b.k GROUP BY a.p',
  'SELECT p, avg(x), rank() OVER (ORDER BY avg(x)) FROM ut GROUP BY p',
  'SELECT p, count(*), rank() OVER (ORDER BY count(*)) FROM ut GROUP BY p HAVING sum(x) / 2 > 1',
  'SELECT p, s, count(*), rank() OVER (ORDER BY count(*)) FROM ut GROUP BY ROLLUP (p, s)',
  'SELECT id, lag(x, p) OVER (ORDER BY id) FROM ut'
]) q, up_check(q, q LIKE '%LIMIT%') c;
-- (winrun) top-N per partition: a condition on a window function of a
-- subquery, which PostgreSQL 15 makes the WindowAgg's run condition (and
-- may drop as a qual): on 26.5 sent as a WHERE over the window query (the
-- functions are monotonic within a partition, so the rows the run
-- condition keeps are those where it holds), also with two window clauses
-- and over the groups of a grouped query. ntile and percent_rank get no
-- run condition in PostgreSQL 15: their windows are sent and PostgreSQL
-- filters
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT * FROM (SELECT id, p, row_number() OVER (PARTITION BY p ORDER BY x DESC NULLS LAST, id) AS rn FROM ut) t WHERE rn <= 2;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT * FROM (SELECT id, p, row_number() OVER (PARTITION BY p ORDER BY x DESC NULLS LAST, id) AS rn FROM ut) t WHERE rn <= 2',
  'SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id DESC) AS rn FROM ut) t WHERE rn < 4',
  'SELECT * FROM (SELECT id, s, rank() OVER (PARTITION BY s ORDER BY x) AS r FROM ut) t WHERE r = 1',
  'SELECT * FROM (SELECT id, dense_rank() OVER (ORDER BY p NULLS FIRST) AS r FROM ut) t WHERE 2 >= r',
  'SELECT * FROM (SELECT id, p, count(*) OVER (PARTITION BY p ORDER BY id) AS c FROM ut) t WHERE c <= 2',
  'SELECT * FROM (SELECT id, ntile(3) OVER (ORDER BY id) AS n FROM ut) t WHERE n < 2',
  'SELECT * FROM (SELECT id, row_number() OVER (PARTITION BY d ORDER BY id) AS rn FROM ut WHERE id > 2) t WHERE rn <= 1',
  'SELECT * FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM ut) t WHERE rn <= 0',
  'SELECT * FROM (SELECT id, p, row_number() OVER w AS rn, rank() OVER w AS r FROM ut WINDOW w AS (PARTITION BY p ORDER BY x, id)) t WHERE rn <= 2 AND r < 3',
  'SELECT * FROM (SELECT a.id, b.y, row_number() OVER (PARTITION BY a.p ORDER BY b.y DESC, a.id) AS rn FROM ut a JOIN ut2 b ON a.p = b.k) t WHERE rn <= 1',
  'SELECT * FROM (SELECT id, p, row_number() OVER (PARTITION BY p ORDER BY id) AS rn FROM ut) t WHERE rn <= 2 ORDER BY p, id LIMIT 3',
  'SELECT * FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn, rank() OVER (ORDER BY x) AS r FROM ut) t WHERE rn <= 3',
  'SELECT * FROM (SELECT id, p, row_number() OVER (PARTITION BY p ORDER BY id) AS rn, count(*) OVER (PARTITION BY p) AS c FROM ut) t WHERE rn <= 2',
  'SELECT * FROM (SELECT p, count(*), row_number() OVER (ORDER BY p) AS rn FROM ut GROUP BY p) t WHERE rn <= 2',
  'SELECT * FROM (SELECT id, percent_rank() OVER (ORDER BY id) AS pr FROM ut) t WHERE pr <= 0.5',
  'SELECT * FROM (SELECT s, sum(x) AS sx, rank() OVER (ORDER BY sum(x) DESC NULLS LAST) AS r FROM ut GROUP BY s) t WHERE r <= 2',
  'SELECT * FROM (SELECT p, d, count(*) AS n, row_number() OVER (PARTITION BY p ORDER BY count(*) DESC, d) AS rn FROM ut WHERE id > 1 GROUP BY p, d HAVING count(*) > 0) t WHERE rn = 1',
  'SELECT * FROM (SELECT a.p, max(b.y) AS m, dense_rank() OVER (ORDER BY max(b.y)) AS r FROM ut a JOIN ut2 b ON a.p = b.k GROUP BY a.p) t WHERE r < 2',
  'SELECT * FROM (SELECT p, count(*) AS n, count(*) OVER (ORDER BY p NULLS FIRST) AS c, rank() OVER (ORDER BY count(*)) AS r FROM ut GROUP BY p) t WHERE c <= 3 AND r <= 4',
  'SELECT * FROM (SELECT p, min(id) AS m, row_number() OVER (ORDER BY min(id)) AS rn FROM ut GROUP BY p) t WHERE rn <= 2 ORDER BY m LIMIT 1'
]) q, up_check(q, q LIKE '%LIMIT%') c;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT * FROM (SELECT s, sum(x) AS sx, rank() OVER (ORDER BY sum(x) DESC NULLS LAST) AS r FROM ut GROUP BY s) t WHERE r <= 2;
-- the window query's output aliases (w_1, ...) would shadow a column of
-- that name (ClickHouse resolves an alias first): w__1, ... then
SELECT clickhouse_exec('ch_up', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.ut3');
SELECT clickhouse_exec('ch_up', 'CREATE TABLE ' || :'ch_db' || '.ut3 (id Int32, w_1 Int32, p Int32) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_up', 'INSERT INTO ' || :'ch_db' || '.ut3 VALUES (1, 100, 1), (2, 200, 1), (3, 300, 2)');
CREATE FOREIGN TABLE ut3 (id int, w_1 int, p int) SERVER ch_up OPTIONS (table 'ut3');
CREATE TABLE ut3_l AS SELECT * FROM ut3;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT * FROM (SELECT id, w_1, row_number() OVER (PARTITION BY p ORDER BY id) AS rn FROM ut3) t WHERE rn <= 5;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT * FROM (SELECT id, w_1, row_number() OVER (PARTITION BY p ORDER BY id) AS rn FROM ut3) t WHERE rn <= 5',
  'SELECT * FROM (SELECT p, sum(w_1) AS s, rank() OVER (ORDER BY sum(w_1) DESC) AS r FROM ut3 GROUP BY p) t WHERE r <= 1'
]) q, diff_check(q, 'ut3', '(Aggregate|Sort|WindowAgg)') c;
DROP FOREIGN TABLE ut3;
DROP TABLE ut3_l;

-- ==== grouping sets: on 26.5 as GROUPING SETS; on 18.16 (no GROUPING SETS,
-- and its WITH ROLLUP fills defaults, not NULLs) as one SELECT per set joined
-- by UNION ALL, over a table (a join stays local there), up to 32 sets
EXPLAIN (VERBOSE, COSTS OFF) SELECT p, s, count(*), sum(x), grouping(p, s) FROM ut GROUP BY ROLLUP (p, s);
EXPLAIN (VERBOSE, COSTS OFF) SELECT p, d, count(*) FROM ut GROUP BY CUBE (p, d) HAVING count(*) > 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.p, b.y, count(*) FROM ut a JOIN ut2 b ON a.p = b.k GROUP BY GROUPING SETS ((a.p), (b.y), ());
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT p, s, count(*), sum(x), grouping(p, s) FROM ut GROUP BY ROLLUP (p, s)',
  'SELECT p, d, count(*), grouping(d), grouping(d, p) FROM ut GROUP BY CUBE (p, d)',
  'SELECT p, d, count(*) FROM ut GROUP BY CUBE (p, d) HAVING count(*) > 1',
  'SELECT p, s, max(x), min(s) FROM ut GROUP BY GROUPING SETS ((p), (s), (p, s), ())',
  'SELECT p, count(*) FROM ut GROUP BY GROUPING SETS ((p), (p), ())',
  'SELECT p, avg(x), count(DISTINCT s) FROM ut GROUP BY ROLLUP (p)',
  'SELECT p, s, count(*) FROM ut GROUP BY p, ROLLUP (s)',
  'SELECT p, count(*) FROM ut WHERE id > 100 GROUP BY GROUPING SETS ((p), ())',
  'SELECT count(*), sum(x) FROM ut WHERE id > 100 GROUP BY GROUPING SETS (())',
  'SELECT p, count(*) FROM ut GROUP BY ROLLUP (p) HAVING p IS NULL',
  'SELECT a.p, b.y, count(*) FROM ut a JOIN ut2 b ON a.p = b.k GROUP BY GROUPING SETS ((a.p), (b.y), ())',
  'SELECT DISTINCT p, count(*) FROM ut GROUP BY ROLLUP (p, s)',
  'SELECT f, count(*) FROM ut GROUP BY ROLLUP (f)',
  'SELECT p, count(*) FROM ut GROUP BY ROLLUP (p) LIMIT 100',
  'SELECT p % 2, s || ''!'', count(*), grouping(p % 2), grouping(s || ''!'', p % 2) FROM ut GROUP BY ROLLUP (p % 2, s || ''!'')',
  'SELECT s, x, count(*) FROM ut GROUP BY CUBE (s, x)',
  'SELECT count(*) FROM ut GROUP BY CUBE (id, p, x, s, d, id % 2)'
]) q, up_check(q) c;
-- (gsorder) ORDER BY (and LIMIT) over grouping sets, sent with GROUPING SETS
-- (26.5) by the toNullable() keys the SELECT list has (a set's NULLs sorted
-- as PostgreSQL sorts them); over the UNION ALL form (18.16) the sort stays
-- PostgreSQL's. Compared in order.
EXPLAIN (VERBOSE, COSTS OFF) SELECT p, s, count(*) FROM ut GROUP BY ROLLUP (p, s) ORDER BY p DESC NULLS LAST, s, count(*) LIMIT 7;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT p, count(*) FROM ut GROUP BY ROLLUP (p) ORDER BY p NULLS FIRST, count(*)',
  'SELECT p, s, count(*) FROM ut GROUP BY ROLLUP (p, s) ORDER BY p DESC NULLS LAST, s, count(*) LIMIT 7',
  'SELECT s, d, count(*), grouping(s, d) FROM ut GROUP BY CUBE (s, d) ORDER BY s DESC, d NULLS FIRST, count(*) DESC',
  'SELECT p, sum(x) FROM ut GROUP BY GROUPING SETS ((p), ()) ORDER BY sum(x) DESC NULLS LAST, p LIMIT 3',
  'SELECT p % 3, count(*) FROM ut GROUP BY ROLLUP (p % 3) ORDER BY 1 NULLS FIRST, 2',
  'SELECT f, count(*) FROM ut GROUP BY ROLLUP (f) ORDER BY f, count(*)'
]) q, up_check(q, true) c;

-- ==== random windows and grouping sets (fixed seed): any difference is listed
CREATE FUNCTION up_rand_query() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  cols text[] := ARRAY['p', 'x', 's', 'd', 'f'];
  keys text[] := ARRAY['p', 'x', 's', 'd'];
  filters text[] := ARRAY['', '', ' WHERE id > 3', ' WHERE x IS NOT NULL', ' WHERE p = 1',
                          ' WHERE id > 100', ' WHERE s <> ''a'''];
  fns text[] := ARRAY['row_number()', 'rank()', 'dense_rank()', 'percent_rank()', 'cume_dist()',
                      'ntile(%s)', 'lag(%c)', 'lag(%c, %s)', 'lead(%c, %s)', 'lag(x, %s, 0::bigint)',
                      'lead(s, %s, ''-'')', 'first_value(%c)', 'last_value(%c)', 'nth_value(%c, %s)',
                      'count(*)', 'count(%c)', 'sum(x)', 'sum(p)', 'avg(x)', 'min(%k)', 'max(%k)',
                      'count(*) FILTER (WHERE x > 5)'];
  frames text[] := ARRAY['', '', 'ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW',
                         'ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING', 'ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING',
                         'ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING', 'ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING',
                         'RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING',
                         'RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING'];
  q text := 'SELECT id';
  i int;
  w text;
  fn text;
  part text;
  ord text;
  sets text;
  k1 text;
  k2 text;
BEGIN
  k1 := keys[1 + floor(random() * 4)::int];
  k2 := keys[1 + floor(random() * 4)::int];
  IF random() < 0.15 THEN
    -- DISTINCT, maybe a top-N over it (the pairs are distinct: one order)
    RETURN format('SELECT DISTINCT %s, %s FROM ut%s', k1, k2, filters[1 + floor(random() * 7)::int]) ||
      CASE WHEN random() < 0.4 THEN format(' ORDER BY %s DESC NULLS LAST, %s LIMIT 3', k1, k2) ELSE '' END;
  END IF;
  IF random() < 0.15 THEN
    -- windows over groups
    RETURN format('SELECT %s, count(*), sum(x), rank() OVER (ORDER BY count(*) DESC), ' ||
                  'row_number() OVER (ORDER BY %s NULLS FIRST), lag(min(id), %s) OVER (ORDER BY %s), ' ||
                  'count(*) OVER () FROM ut%s GROUP BY %s', k1, k1, 1 + floor(random() * 2)::int, k1,
                  filters[1 + floor(random() * 7)::int], k1);
  END IF;
  IF random() < 0.35 THEN
    -- grouping sets
    IF k1 = k2 THEN k2 := 'p'; END IF;
    IF k1 = k2 THEN k1 := 's'; END IF;
    sets := (ARRAY[format('ROLLUP (%s, %s)', k1, k2), format('CUBE (%s, %s)', k1, k2),
                   format('GROUPING SETS ((%s), (%s), ())', k1, k2),
                   format('GROUPING SETS ((%s, %s), (%s), (%s))', k1, k2, k1, k1),
                   format('%s, ROLLUP (%s)', k1, k2)])[1 + floor(random() * 5)::int];
    RETURN format('SELECT %s, %s, count(*), sum(x), min(s), max(d), avg(x), grouping(%s, %s) FROM ut%s GROUP BY %s',
                  k1, k2, k1, k2, filters[1 + floor(random() * 7)::int], sets) ||
           CASE WHEN random() < 0.2 THEN ' HAVING count(*) > 1' ELSE '' END;
  END IF;
  FOR i IN 1..1 + floor(random() * 3)::int LOOP
    fn := fns[1 + floor(random() * array_length(fns, 1))::int];
    fn := replace(fn, '%c', cols[1 + floor(random() * 5)::int]);
    fn := replace(fn, '%k', keys[1 + floor(random() * 4)::int]);
    fn := replace(fn, '%s', (1 + floor(random() * 4)::int)::text);
    part := CASE WHEN random() < 0.6 THEN 'PARTITION BY ' || keys[1 + floor(random() * 4)::int] || ' ' ELSE '' END;
    ord := '';
    IF random() < 0.8 THEN
      ord := 'ORDER BY ' || cols[1 + floor(random() * 5)::int] ||
        (ARRAY['', ' DESC', ' NULLS FIRST', ' DESC NULLS LAST'])[1 + floor(random() * 4)::int];
      -- functions of row order over a total order (ties are PostgreSQL's choice)
      IF fn !~ '^(rank|dense_rank|percent_rank|cume_dist)' OR random() < 0.3 THEN
        ord := ord || ', id';
      END IF;
    ELSIF fn ~ '^(row_number|ntile|lag|lead|first_value|last_value|nth_value)' THEN
      ord := 'ORDER BY id DESC';
    END IF;
    w := part || ord;
    IF fn !~ '^(row_number|rank|dense_rank|percent_rank|cume_dist|ntile|lag|lead)' AND ord LIKE '%id%' THEN
      w := w || ' ' || frames[1 + floor(random() * 9)::int];
    END IF;
    q := q || format(', %s OVER (%s)', fn, w);
  END LOOP;
  RETURN q || ' FROM ut' || filters[1 + floor(random() * 7)::int];
END $$;
SELECT setseed(0.17);
CREATE TEMP TABLE up_runs AS
  SELECT g, q, ck.* FROM (SELECT g, up_rand_query() AS q FROM generate_series(1, 100) g) s,
       LATERAL up_check(q) ck;
-- queries, pushed, answers that agree, rows compared
SELECT count(*) AS queries, count(*) FILTER (WHERE pushed) AS pushed,
       count(*) FILTER (WHERE same) AS same, sum(nrows) AS rows_compared FROM up_runs;
SELECT CASE WHEN q LIKE '%DISTINCT%' THEN 'distinct' WHEN q LIKE '%OVER%GROUP BY%' THEN 'windows over groups'
            WHEN q LIKE '%GROUP BY%' THEN 'grouping sets' ELSE 'windows' END AS kind, count(*) AS queries,
       count(*) FILTER (WHERE pushed) AS pushed, count(*) FILTER (WHERE same) AS same
  FROM up_runs GROUP BY 1 ORDER BY 1;
-- every difference (none expected)
SELECT g, q, err FROM up_runs WHERE NOT same ORDER BY g;
-- the first queries kept local
SELECT g, q FROM up_runs WHERE NOT pushed ORDER BY g LIMIT 8;
DROP FUNCTION up_rand_query();
-- (winrun) random top-N per partition (fixed seed): a monotonic window
-- function under a condition on it; 26.5: sent, also with two window
-- clauses
CREATE FUNCTION up_top_query() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  keys text[] := ARRAY['p', 'x', 's', 'd'];
  cols text[] := ARRAY['p', 'x', 's', 'd', 'f', 'id'];
  fns text[] := ARRAY['row_number()', 'rank()', 'dense_rank()', 'count(*)', 'ntile(3)', 'count(x)'];
  ops text[] := ARRAY['<=', '<', '=', '<='];
  filters text[] := ARRAY['', ' WHERE id > 3', ' WHERE x IS NOT NULL', ' WHERE id > 100'];
  part text := CASE WHEN random() < 0.7 THEN 'PARTITION BY ' || keys[1 + floor(random() * 4)::int] || ' ' ELSE '' END;
  ord text := 'ORDER BY ' || cols[1 + floor(random() * 6)::int] ||
    (ARRAY['', ' DESC', ' NULLS FIRST', ' DESC NULLS LAST'])[1 + floor(random() * 4)::int] || ', id';
  fn text := fns[1 + floor(random() * 6)::int];
  op text := ops[1 + floor(random() * 4)::int];
  n int := floor(random() * 4)::int;
  extra text := CASE WHEN random() < 0.3 THEN ', sum(x) OVER (' || part || ord || ') AS sx' ELSE '' END;
BEGIN
  IF random() < 0.15 THEN
    extra := ', lag(s) OVER (ORDER BY id) AS ls';	-- a second window clause
  END IF;
  RETURN format('SELECT * FROM (SELECT id, p, s, %s OVER (%s%s) AS w%s FROM ut%s) t WHERE %s %s %s',
                fn, part, ord, extra, filters[1 + floor(random() * 4)::int],
                CASE WHEN random() < 0.2 THEN n::text ELSE 'w' END,
                op, CASE WHEN random() < 0.2 THEN 'w' ELSE n::text END);
END $$;
SELECT setseed(0.41);
CREATE TEMP TABLE up_top AS
  SELECT g, q, ck.* FROM (SELECT g, up_top_query() AS q FROM generate_series(1, 60) g) s,
       LATERAL up_check(q) ck;
SELECT count(*) AS queries, count(*) FILTER (WHERE pushed) AS pushed,
       count(*) FILTER (WHERE same) AS same, sum(nrows) AS rows_compared FROM up_top;
SELECT g, q, err FROM up_top WHERE NOT same ORDER BY g;
DROP FUNCTION up_top_query();
-- (winrun) random top-N over groups (fixed seed): a grouped query's
-- aggregates ranked by a window function under a condition on it
CREATE FUNCTION up_gtop_query() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  keys text[] := ARRAY['p', 's', 'd', 'x'];
  aggs text[] := ARRAY['count(*)', 'sum(x)', 'min(id)', 'max(s)', 'count(x)', 'max(d)', 'sum(id)'];
  fns text[] := ARRAY['row_number()', 'rank()', 'dense_rank()', 'count(*)'];
  ops text[] := ARRAY['<=', '<', '=', '<='];
  filters text[] := ARRAY['', ' WHERE id > 3', ' WHERE x IS NOT NULL', ' WHERE id > 100'];
  k1 text := keys[1 + floor(random() * 4)::int];
  k2 text := keys[1 + floor(random() * 4)::int];
  gk text := CASE WHEN random() < 0.4 AND k2 <> k1 THEN k1 || ', ' || k2 ELSE k1 END;
  a1 text := aggs[1 + floor(random() * 7)::int];
  a2 text := aggs[1 + floor(random() * 7)::int];
  part text := CASE WHEN gk LIKE '%,%' AND random() < 0.6 THEN 'PARTITION BY ' || k1 || ' ' ELSE '' END;
  ord text := 'ORDER BY ' || a2 || (ARRAY['', ' DESC', ' NULLS FIRST', ' DESC NULLS LAST'])[1 + floor(random() * 4)::int] ||
    ', ' || replace(gk, ',', ' NULLS FIRST,') || ' NULLS FIRST';
  hav text := CASE WHEN random() < 0.25 THEN ' HAVING count(*) > 1' ELSE '' END;
BEGIN
  RETURN format('SELECT * FROM (SELECT %s, %s AS a, %s OVER (%s%s) AS w FROM ut%s GROUP BY %s%s) t WHERE w %s %s',
                gk, a1, fns[1 + floor(random() * 4)::int], part, ord,
                filters[1 + floor(random() * 4)::int], gk, hav,
                ops[1 + floor(random() * 4)::int], 1 + floor(random() * 3)::int);
END $$;
SELECT setseed(0.43);
CREATE TEMP TABLE up_gtop AS
  SELECT g, q, ck.* FROM (SELECT g, up_gtop_query() AS q FROM generate_series(1, 60) g) s,
       LATERAL up_check(q) ck;
SELECT count(*) AS queries, count(*) FILTER (WHERE pushed) AS pushed,
       count(*) FILTER (WHERE same) AS same, sum(nrows) AS rows_compared FROM up_gtop;
SELECT g, q, err FROM up_gtop WHERE NOT same ORDER BY g;
SELECT g, q FROM up_gtop WHERE NOT pushed ORDER BY g LIMIT 5;
DROP FUNCTION up_gtop_query();
-- (gsorder) random grouping sets under ORDER BY (every output, random
-- directions and NULL placements) and sometimes LIMIT (fixed seed),
-- compared in order; 26.5: sent, 18.16: the sort stays local. Rows equal in
-- every output are interchangeable, so the comparison in order is exact.
CREATE FUNCTION up_gsort_query() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  keys text[] := ARRAY['p', 's', 'd', 'x', 'p % 3'];
  k1 text := keys[1 + floor(random() * 5)::int];
  k2 text := keys[1 + floor(random() * 5)::int];
  sets text;
  dirs text[] := ARRAY[' ASC', ' DESC', ' NULLS FIRST', ' DESC NULLS LAST', ' ASC NULLS FIRST'];
  aggs text[] := ARRAY['count(*)', 'sum(x)', 'min(s)', 'max(d)', 'count(DISTINCT p)'];
  a text := aggs[1 + floor(random() * 5)::int];
  outs text[];
  ord text := '';
  i int;
BEGIN
  IF k1 = k2 THEN k2 := 'id % 2'; END IF;
  sets := (ARRAY[format('ROLLUP (%s, %s)', k1, k2), format('CUBE (%s, %s)', k1, k2),
                 format('GROUPING SETS ((%s), (%s), ())', k1, k2),
                 format('%s, ROLLUP (%s)', k1, k2)])[1 + floor(random() * 4)::int];
  outs := ARRAY[k1, k2, 'count(*)', a];
  FOR i IN SELECT o FROM unnest(ARRAY[1, 2, 3, 4]) o ORDER BY random() LOOP
    ord := ord || CASE WHEN ord = '' THEN '' ELSE ', ' END || outs[i] || dirs[1 + floor(random() * 5)::int];
  END LOOP;
  RETURN format('SELECT %s, %s, count(*), %s FROM ut%s GROUP BY %s ORDER BY %s%s', k1, k2, a,
                (ARRAY['', ' WHERE id > 2', ' WHERE s IS NOT NULL', ' WHERE p < 3'])[1 + floor(random() * 4)::int],
                sets, ord, CASE WHEN random() < 0.4 THEN ' LIMIT ' || (1 + floor(random() * 6)::int) ELSE '' END);
END $$;
SELECT setseed(0.47);
CREATE TEMP TABLE up_gsort AS
  SELECT g, q, ck.* FROM (SELECT g, up_gsort_query() AS q FROM generate_series(1, 60) g) s,
       LATERAL up_check(q, true) ck;
SELECT count(*) AS queries, count(*) FILTER (WHERE pushed) AS pushed,
       count(*) FILTER (WHERE same) AS same, sum(nrows) AS rows_compared FROM up_gsort;
SELECT g, q, err FROM up_gsort WHERE NOT same ORDER BY g;
SELECT g, q FROM up_gsort WHERE NOT pushed ORDER BY g LIMIT 5;
DROP FUNCTION up_gsort_query();
DROP FUNCTION up_check(text, boolean);
DROP TABLE ut_l, ut2_l;
DROP COLLATION up_ci;
