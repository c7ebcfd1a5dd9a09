-- ====================================================================
-- Body of probes.sql (ClickHouse 18.16) and modern_probes.sql (the 26.5
-- engine behind test/chdb/front.py, a test harness, not a server).
-- (probes) Plan-time capability probes (src/fdw/probe.c, chfdw_caps_try):
-- a server that cannot be asked (a user ClickHouse does not know, a port
-- nothing listens on) plans every construct that needs its capabilities
-- in PostgreSQL instead of failing the plan (window functions, grouping
-- sets, a UNION ALL's aggregate, correlated subqueries, jsonb operators,
-- lpad in a join's condition, regr_avgx, make_date, ClickHouse's
-- tostartofinterval);
-- the query then fails when it runs with the connection's error. Before
-- probe.c each of these EXPLAINs raised the connection's error. With the
-- user mapping restored the same queries are planned as before, and
-- their answers equal local copies'.
-- Then (part 5) outer joins of LowCardinality columns (deparse.c
-- deparse_side): 18.16 refused a FULL JOIN's toNullable() of a
-- LowCardinality column of another type than String ("Nested type
-- LowCardinality(Nullable(Int32)) cannot be inside Nullable type"), and
-- any LowCardinality column (String too) or key on the side a LEFT or
-- RIGHT JOIN makes NULL; aggregates over such joins compared with local
-- copies.
-- The caller has set :ch_port, :ch_db, :lc_settings (the server's
-- setting allowing LowCardinality of numbers), :has_json (whether the
-- server reads a read_as 'json' column: 26.5 yes, 18.16 no), :json_type
-- (column j's type) and :json_t / :json_u (its values, of row i).
-- ====================================================================
CREATE SERVER ch_pr FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db', settings :'lc_settings');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_pr;
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_pr', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.' || t)
  FROM unnest(ARRAY['pr_t', 'pr_u', 'pr_lc1', 'pr_lc2']) t;
SELECT clickhouse_exec('ch_pr', 'CREATE TABLE ' || :'ch_db' || '.' || t ||
  ' (id Int32, g Int32, n Int64, s String, j ' || :'json_type' || ', ts DateTime(''UTC'')) ENGINE = MergeTree ORDER BY id')
  FROM unnest(ARRAY['pr_t', 'pr_u']) t;
-- (the rows written in ClickHouse SQL: j's type differs by server)
SELECT clickhouse_exec('ch_pr', 'INSERT INTO ' || :'ch_db' || '.pr_t SELECT toInt32(i), toInt32(i % 4), ' ||
  'toInt64(i * 37 % 101) - 50, [''a'', ''b'', ''c'', ''d'', ''e''][i % 5 + 1], ' || :'json_t' || ', ' ||
  'toDateTime(''2020-01-01 00:00:00'', ''UTC'') + i * 1020 FROM (SELECT number + 1 AS i FROM numbers(40))');
SELECT clickhouse_exec('ch_pr', 'INSERT INTO ' || :'ch_db' || '.pr_u SELECT toInt32(i), toInt32(i % 5), ' ||
  'toInt64(i * 53 % 89) - 40, [''a'', ''b'', ''c''][i % 3 + 1], ' || :'json_u' || ', ' ||
  'toDateTime(''2020-01-01 00:00:00'', ''UTC'') + i * 1380 FROM (SELECT number + 10 AS i FROM numbers(51))');
CREATE FOREIGN TABLE pr_t (id int, g int, n bigint, s text, j jsonb OPTIONS (read_as 'json'), ts timestamptz)
  SERVER ch_pr OPTIONS (table 'pr_t');
CREATE FOREIGN TABLE pr_u (id int, g int, n bigint, s text, j jsonb OPTIONS (read_as 'json'), ts timestamptz)
  SERVER ch_pr OPTIONS (table 'pr_u');
-- the local copies (j only where the server reads it: 18.16 cannot)
CREATE TABLE pr_t_l AS SELECT id, g, n, s, NULL::jsonb AS j, ts FROM pr_t;
CREATE TABLE pr_u_l AS SELECT id, g, n, s, NULL::jsonb AS j, ts FROM pr_u;
\if :has_json
UPDATE pr_t_l l SET j = (SELECT f.j FROM pr_t f WHERE f.id = l.id);
UPDATE pr_u_l l SET j = (SELECT f.j FROM pr_u f WHERE f.id = l.id);
SELECT id, j FROM pr_t_l WHERE id <= 3 ORDER BY id;
\endif
SELECT (SELECT count(*) FROM pr_t_l) AS t_rows, (SELECT count(*) FROM pr_u_l) AS u_rows;

-- pr_err(q): the query's error as "SQLSTATE: message" (the address of a
-- refused connection masked: each transport names it its own way), or 'ran'
CREATE FUNCTION pr_err(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'SELECT count(q.*) FROM (' || q || ') q';
  RETURN 'ran';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || regexp_replace(SQLERRM, ' at .*', ' at <address>');
END $$;

-- pr_same(q): the query's rows equal those of the same query over the
-- local copies (EXCEPT ALL both ways), and how many
CREATE FUNCTION pr_same(q text, OUT same boolean, OUT nrows bigint) LANGUAGE plpgsql AS $$
DECLARE lq text := regexp_replace(q, '\m(pr_t|pr_u|pr_lc1|pr_lc2)\M', '\1_l', 'g');
  a bigint; b bigint;
BEGIN
  EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) x', q, lq) INTO a;
  EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) x', lq, q) INTO b;
  EXECUTE format('SELECT count(x.*) FROM (%s) x', q) INTO nrows;
  same := a = 0 AND b = 0;
END $$;

-- pr_shape(q): 'sent' when the plan is one Foreign Scan (no Filter, no
-- SubPlan run in PostgreSQL: a correlated subquery sent leaves its unused
-- plan listed, the Remote SQL then has it), else the plan's nodes (and
-- "Filter" where PostgreSQL evaluates a condition)
CREATE FUNCTION pr_shape(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE plan text := ''; line text; nodes text[] := '{}';
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    plan := plan || line || E'\n';
    line := regexp_replace(line, '^\s*(->\s*)?', '');
    IF line ~ '^Filter: ' THEN
      nodes := nodes || 'Filter'::text;
    ELSIF line ~ '^SubPlan' THEN
      nodes := nodes || 'SubPlan'::text;
    ELSIF line ~ '^[A-Z][A-Za-z ]*( on .*)?$' THEN
      nodes := nodes || regexp_replace(line, ' on .*', '');
    END IF;
  END LOOP;
  IF plan ~ '^Foreign Scan' AND plan !~ '\n *Filter: ' AND
     (plan !~ 'SubPlan' OR plan ~ 'Remote SQL: [^\n]*__sq') THEN
    RETURN 'sent';
  END IF;
  RETURN array_to_string(nodes, ', ');
END $$;

-- the queries: each construct that asks the server what it can do
CREATE TABLE pr_q (n int PRIMARY KEY, what text, q text);
INSERT INTO pr_q VALUES
  (1, 'window function', 'SELECT id, row_number() OVER (ORDER BY id) AS r FROM pr_t'),
  (2, 'UNION ALL of two foreign tables, grouped',
      'SELECT g, count(*) AS c, max(n) AS m FROM (SELECT g, n FROM pr_t UNION ALL SELECT g, n FROM pr_u) u GROUP BY g'),
  (3, 'correlated subquery in a condition',
      'SELECT id FROM pr_t t WHERE t.n > (SELECT max(u.n) FROM pr_u u WHERE u.g = t.g)'),
  (4, 'jsonb operator on a read_as ''json'' column', 'SELECT id FROM pr_t WHERE j ? ''a'''),
  (5, 'grouping sets (ROLLUP)', 'SELECT g, s, count(*) AS c FROM pr_t GROUP BY ROLLUP (g, s)'),
  (6, 'grouped regr_avgx', 'SELECT g, regr_avgx(n, id) AS r FROM pr_t GROUP BY g'),
  (7, 'a grouped query', 'SELECT g, count(*) AS c, min(n) AS m FROM pr_t GROUP BY g'),
  (8, 'a join', 'SELECT t.id, u.n FROM pr_t t JOIN pr_u u ON t.id = u.id'),
  (9, 'a join with lpad in its condition',
      'SELECT t.id FROM pr_t t JOIN pr_u u ON t.id = u.id WHERE lpad(t.s, 2, ''x'') = ''x'' || u.s'),
  (11, 'make_date in a condition (the server''s Date range)',
      'SELECT id FROM pr_t WHERE make_date(2020, g + 1, 1) > date ''2020-02-01'''),
  (12, 'grouped min/max of a timestamptz (argMin/argMax where the server has DateTime64)',
      'SELECT g, min(ts) AS a, max(ts) AS b FROM pr_t GROUP BY g');
-- ClickHouse's own function (no local copy: compared with ClickHouse's answer where sent)
CREATE TABLE pr_q_ch (n int PRIMARY KEY, q text);
INSERT INTO pr_q_ch VALUES
  (10, 'SELECT tostartofinterval(ts, interval ''1 hour'') AS h, count(*) AS c FROM pr_t GROUP BY 1');

-- ==== 1. the server as it is: what each construct does (plans and answers)
SELECT n, what, pr_shape(q) AS plan FROM pr_q ORDER BY n;
SELECT n, what, s.* FROM pr_q, pr_same(q) s WHERE n <> 4 OR :'has_json' ORDER BY n;
SELECT n, pr_shape(q) AS plan, pr_err(q) AS runs FROM pr_q_ch ORDER BY n;

-- ==== 2. a user ClickHouse does not know. The columns' types are known
-- (looked up above and kept); each construct is planned in PostgreSQL,
-- then the query fails with the connection's error
ALTER USER MAPPING FOR CURRENT_USER SERVER ch_pr OPTIONS (ADD user 'no_such_user');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, row_number() OVER (ORDER BY id) AS r FROM pr_t;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT g, count(*) AS c, max(n) AS m FROM (SELECT g, n FROM pr_t UNION ALL SELECT g, n FROM pr_u) u GROUP BY g;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM pr_t t WHERE t.n > (SELECT max(u.n) FROM pr_u u WHERE u.g = t.g);
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pr_t WHERE j ? 'a';
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, s, count(*) AS c FROM pr_t GROUP BY ROLLUP (g, s);
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, regr_avgx(n, id) AS r FROM pr_t GROUP BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, count(*) AS c, min(n) AS m FROM pr_t GROUP BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT t.id, u.n FROM pr_t t JOIN pr_u u ON t.id = u.id;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT t.id FROM pr_t t JOIN pr_u u ON t.id = u.id WHERE lpad(t.s, 2, 'x') = 'x' || u.s;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT tostartofinterval(ts, interval '1 hour') AS h, count(*) AS c FROM pr_t GROUP BY 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pr_t WHERE make_date(2020, g + 1, 1) > date '2020-02-01';
-- each fails when it runs, with the server's refusal
SELECT n, pr_err(q) FROM (SELECT n, q FROM pr_q UNION ALL SELECT n, q FROM pr_q_ch) x ORDER BY n;
-- the planner asks once per transaction: many plans of many paths, one
-- failed connection attempt (the stats view counts the server's errors)
SELECT clickhouse_fdw_stats_reset();
BEGIN;
SELECT count(pr_shape(q)) AS planned FROM (SELECT q FROM pr_q UNION ALL SELECT q FROM pr_q_ch) x;
SELECT count(pr_shape(q)) AS planned_again FROM (SELECT q FROM pr_q UNION ALL SELECT q FROM pr_q_ch) x;
COMMIT;
SELECT server, errors FROM clickhouse_fdw_stats WHERE server = 'ch_pr';

-- a plan made now and kept (a prepared statement without parameters keeps
-- its generic plan; ALTER USER MAPPING does not invalidate it): planned in
-- PostgreSQL, it fails to connect; with the mapping restored the kept plan
-- computes ClickHouse's own function in PostgreSQL, whose 0A000 says why
PREPARE pr_keep AS SELECT tostartofinterval(ts, interval '1 hour') AS h, count(*) AS c FROM pr_t GROUP BY 1;
\set VERBOSITY terse
EXECUTE pr_keep;
\set VERBOSITY default
ALTER USER MAPPING FOR CURRENT_USER SERVER ch_pr OPTIONS (DROP user);
SELECT pr_err('SELECT 1 FROM pr_t') AS connects;
EXECUTE pr_keep;
DEALLOCATE pr_keep;

-- ==== 3. restored: the same plans and answers as in part 1
SELECT n, what, pr_shape(q) AS plan FROM pr_q ORDER BY n;
SELECT n, what, s.* FROM pr_q, pr_same(q) s WHERE n <> 4 OR :'has_json' ORDER BY n;
SELECT n, pr_shape(q) AS plan, pr_err(q) AS runs FROM pr_q_ch ORDER BY n;

-- ==== 4. a server on a port nothing listens on, from the start (no
-- column types known either): every construct planned in PostgreSQL,
-- each query failing with 08001
CREATE SERVER ch_pr_down FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (host '127.0.0.1', port '1', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_pr_down;
CREATE SCHEMA pr_down;
CREATE FOREIGN TABLE pr_down.pr_t (id int, g int, n bigint, s text, j jsonb OPTIONS (read_as 'json'),
  ts timestamptz) SERVER ch_pr_down OPTIONS (table 'pr_t');
CREATE FOREIGN TABLE pr_down.pr_u (id int, g int, n bigint, s text, j jsonb OPTIONS (read_as 'json'),
  ts timestamptz) SERVER ch_pr_down OPTIONS (table 'pr_u');
SET search_path = pr_down, public;
SELECT n, what, pr_shape(q) AS plan FROM pr_q ORDER BY n;
SELECT n, pr_shape(q) AS plan FROM pr_q_ch ORDER BY n;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, row_number() OVER (ORDER BY id) AS r FROM pr_t;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id FROM pr_t t WHERE t.n > (SELECT max(u.n) FROM pr_u u WHERE u.g = t.g);
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pr_t WHERE j ? 'a';
SELECT n, pr_err(q) FROM (SELECT n, q FROM pr_q UNION ALL SELECT n, q FROM pr_q_ch) x ORDER BY n;
RESET search_path;
DROP SCHEMA pr_down CASCADE;
DROP SERVER ch_pr_down CASCADE;
SELECT n, what, pr_shape(q) AS plan FROM pr_q ORDER BY n;

-- ==== 5. outer joins of LowCardinality columns (deparse_side): each side
-- the join makes NULL has its columns made Nullable (FULL) or plain
-- (LEFT, RIGHT) before the join; compared with local copies
SELECT clickhouse_exec('ch_pr', 'CREATE TABLE ' || :'ch_db' || '.' || t ||
  ' (id Int32, a LowCardinality(Int32), na LowCardinality(Nullable(Int32)), u LowCardinality(UInt8),'
  ' s LowCardinality(String), ns LowCardinality(Nullable(String)), d LowCardinality(Date),'
  ' f LowCardinality(Float64), nf LowCardinality(Nullable(Float64)), b Int64, nb Nullable(Int64))'
  ' ENGINE = MergeTree ORDER BY id')
  FROM unnest(ARRAY['pr_lc1', 'pr_lc2']) t;
CREATE FOREIGN TABLE pr_lc1 (id int, a int, na int, u smallint, s text, ns text, d date, f float8,
  nf float8, b bigint, nb bigint) SERVER ch_pr OPTIONS (table 'pr_lc1');
CREATE FOREIGN TABLE pr_lc2 (id int, a int, na int, u smallint, s text, ns text, d date, f float8,
  nf float8, b bigint, nb bigint) SERVER ch_pr OPTIONS (table 'pr_lc2');
-- (seeded: the same rows on every run)
SELECT setseed(0.31);
INSERT INTO pr_lc1 SELECT i, (random() * 20)::int - 10, CASE WHEN random() < 0.3 THEN NULL ELSE (random() * 5)::int END,
  (random() * 255)::int, chr(97 + (random() * 5)::int), CASE WHEN random() < 0.3 THEN NULL ELSE chr(65 + (random() * 4)::int) END,
  date '2020-01-01' + (random() * 400)::int, (random() * 8)::int / 4.0,
  CASE WHEN random() < 0.3 THEN NULL ELSE (random() * 8)::int / 2.0 END,
  (random() * 1000)::int, CASE WHEN random() < 0.3 THEN NULL ELSE (random() * 1000)::int END
  FROM generate_series(1, 300) i;
INSERT INTO pr_lc2 SELECT i, (random() * 20)::int - 10, CASE WHEN random() < 0.3 THEN NULL ELSE (random() * 5)::int END,
  (random() * 255)::int, chr(97 + (random() * 5)::int), CASE WHEN random() < 0.3 THEN NULL ELSE chr(65 + (random() * 4)::int) END,
  date '2020-01-01' + (random() * 400)::int, (random() * 8)::int / 4.0,
  CASE WHEN random() < 0.3 THEN NULL ELSE (random() * 8)::int / 2.0 END,
  (random() * 1000)::int, CASE WHEN random() < 0.3 THEN NULL ELSE (random() * 1000)::int END
  FROM generate_series(150, 420) i;
CREATE TABLE pr_lc1_l AS SELECT * FROM pr_lc1;
CREATE TABLE pr_lc2_l AS SELECT * FROM pr_lc2;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT count(x.a), sum(y.a), max(x.na), count(y.na), sum(x.u), min(y.d), max(x.f), count(y.nf)
  FROM pr_lc1 x FULL JOIN pr_lc2 y ON x.id = y.id;
CREATE TABLE pr_lcq (n int PRIMARY KEY, q text);
INSERT INTO pr_lcq VALUES
  (1, 'SELECT count(x.a), sum(y.a), max(x.na), count(y.na), sum(x.u), min(y.d), max(x.f), count(y.nf) FROM pr_lc1 x FULL JOIN pr_lc2 y ON x.id = y.id'),
  (2, 'SELECT count(x.s), min(y.s), count(x.ns), max(y.ns), count(*) FROM pr_lc1 x FULL JOIN pr_lc2 y ON x.id = y.id'),
  (3, 'SELECT x.a, count(*), count(y.d), max(y.u) FROM pr_lc1 x FULL JOIN pr_lc2 y ON x.id = y.id GROUP BY x.a'),
  (4, 'SELECT y.na, count(x.na), sum(x.b), sum(y.nb) FROM pr_lc1 x FULL JOIN pr_lc2 y ON x.id = y.id GROUP BY y.na'),
  (5, 'SELECT x.id, y.id, x.a, y.na, x.d, y.f, x.s, y.ns FROM pr_lc1 x FULL JOIN pr_lc2 y ON x.id = y.id'),
  (6, 'SELECT x.d, count(*), min(y.nf), max(x.nf) FROM pr_lc1 x FULL JOIN pr_lc2 y ON x.a = y.a AND x.s = y.s GROUP BY x.d'),
  (7, 'SELECT count(x.id), count(y.id), sum(x.a), sum(y.u) FROM pr_lc1 x FULL JOIN pr_lc2 y ON x.na = y.na'),
  (8, 'SELECT count(x.u), min(y.d), max(z.f) FROM pr_lc1 x FULL JOIN pr_lc2 y ON x.id = y.id FULL JOIN pr_lc1 z ON y.id = z.id'),
  -- the side a LEFT or RIGHT JOIN makes NULL (18.16 refused its LowCardinality
  -- columns, LowCardinality(String) too, and its keys' NULL flags)
  (9, 'SELECT count(y.a), sum(y.na), count(y.s), min(y.ns), max(y.d), count(y.f), count(y.u) FROM pr_lc1 x LEFT JOIN pr_lc2 y ON x.id = y.id'),
  (10, 'SELECT x.id, y.a, y.s, y.ns, y.d, y.nf FROM pr_lc1 x LEFT JOIN pr_lc2 y ON x.a = y.a AND x.s = y.s'),
  (11, 'SELECT count(x.u), min(x.s), max(x.nf), count(x.na) FROM pr_lc1 x RIGHT JOIN pr_lc2 y ON x.na = y.na'),
  (12, 'SELECT y.id, x.s, x.f, x.ns, x.d FROM pr_lc1 x RIGHT JOIN pr_lc2 y ON x.id = y.id'),
  (13, 'SELECT x.s, count(y.id), max(y.u) FROM pr_lc1 x LEFT JOIN pr_lc2 y ON x.u = y.u GROUP BY x.s'),
  (14, 'SELECT count(*) FROM pr_lc1 x LEFT JOIN pr_lc2 y ON x.ns = y.ns');
SELECT n, pr_shape(q) AS plan, s.* FROM pr_lcq, pr_same(q) s ORDER BY n;
-- seeded random outer joins: the kind, a key pair, the columns aggregated
SELECT setseed(0.57);
-- (18.16's own aggregates over a LowCardinality(Nullable(T)) column are
-- wrong: count() counts its NULLs, min() is NULL; a side the join makes NULL
-- reads its columns through tuple(col).1, which they are right over, but
-- the preserved side of a LEFT or RIGHT JOIN does not: its na, ns, nf are
-- not aggregated here. Reported, not this suite's: aggregates.c)
CREATE TABLE pr_lcr AS
  SELECT i AS n, format('SELECT %s FROM pr_lc1 x %s JOIN pr_lc2 y ON %s',
    (SELECT string_agg(format('%s(%s.%s)', (ARRAY['count', 'min', 'max'])[1 + (random() * 2)::int + i * 0],
                              side, CASE WHEN side = kept THEN (ARRAY['a', 'u', 's', 'd', 'f', 'b', 'nb'])[1 + (random() * 6)::int]
                                    ELSE (ARRAY['a', 'na', 'u', 's', 'ns', 'd', 'f', 'nf', 'b', 'nb'])[1 + (random() * 9)::int] END), ', ')
       FROM (SELECT (ARRAY['x', 'y'])[1 + (random())::int + i * 0] AS side
             FROM generate_series(1, 2 + (random() * 3)::int + i * 0)) sides),
    kind,
    (ARRAY['x.id = y.id', 'x.a = y.a', 'x.na = y.na', 'x.u = y.u', 'x.s = y.s', 'x.id = y.id AND x.ns = y.ns'])[1 + (random() * 5)::int]) AS q
  FROM (SELECT i, kind, CASE kind WHEN 'LEFT' THEN 'x' WHEN 'RIGHT' THEN 'y' END AS kept
        FROM (SELECT i, (ARRAY['FULL', 'LEFT', 'RIGHT'])[1 + (random() * 2)::int] AS kind
              FROM generate_series(1, 60) i) k) g;
SELECT n, q FROM pr_lcr WHERE n <= 6 ORDER BY n;
-- (the join is sent in each: "sent", or the aggregates computed above it)
SELECT pr_shape(q) AS plan, count(*) AS queries, count(*) FILTER (WHERE s.same) AS same
  FROM pr_lcr, pr_same(q) s GROUP BY 1 ORDER BY 1;
SELECT n, q FROM pr_lcr, pr_same(q) s WHERE NOT s.same ORDER BY n;

SELECT clickhouse_exec('ch_pr', 'DROP TABLE ' || :'ch_db' || '.' || t)
  FROM unnest(ARRAY['pr_t', 'pr_u', 'pr_lc1', 'pr_lc2']) t;
DROP TABLE pr_t_l, pr_u_l, pr_lc1_l, pr_lc2_l, pr_q, pr_q_ch, pr_lcq, pr_lcr;
DROP FUNCTION pr_err(text);
DROP FUNCTION pr_same(text);
DROP FUNCTION pr_shape(text);
DROP SERVER ch_pr CASCADE;
