-- ====================================================================
-- The float aggregates' overflow guards (src/fdw/agg_float.c) on the
-- UNION ALL grouped path (src/fdw/subquery.c, modern servers only) and on
-- grouping sets (GROUPING SETS on 26.5, one SELECT per set under UNION ALL
-- on 18.16: src/fdw/window.c), shared by guards2.sql (ClickHouse 18.16)
-- and modern_guards2.sql (the 26.5 engine behind test/chdb/front.py, a
-- test harness, not a server). The caller has created server ch_g2
-- (settings 'max_threads=1') and set :ch_db.
--
-- PostgreSQL computes every group's aggregates before HAVING filters and
-- before LIMIT stops, so a group whose float sum / avg / variance
-- overflows raises 22003 also when HAVING drops it or LIMIT leaves it
-- out: the guards are ClickHouse's HAVING and the user's HAVING is
-- evaluated by PostgreSQL. Each query is compared with the local copy
-- (diff_check, SQLSTATEs of errors too). Before the fix the UNION ALL
-- queries with a HAVING that drops the overflowing group returned rows on
-- 26.5, and GROUPING SETS ... LIMIT 1 returned a row (the 26.5 engine
-- computes the SELECT's values after LIMIT), where PostgreSQL raises.
-- ====================================================================
SET extra_float_digits = 1;
SELECT clickhouse_exec('ch_g2', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.g2a');
SELECT clickhouse_exec('ch_g2', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.g2b');
SELECT clickhouse_exec('ch_g2', 'CREATE TABLE ' || :'ch_db' || '.g2a (id Int32, g Nullable(Int32), h Nullable(Int32), f Nullable(Float64)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_g2', 'CREATE TABLE ' || :'ch_db' || '.g2b (id Int32, g Nullable(Int32), h Nullable(Int32), f Nullable(Float64)) ENGINE = MergeTree ORDER BY id');
-- group g = 2 overflows (1e308 + 1e308 in g2a, a third 1e308 in g2b) and
-- has fewer rows than g = 1; g = 3 ordinary
SELECT clickhouse_exec('ch_g2', 'INSERT INTO ' || :'ch_db' || '.g2a VALUES (1, 1, 1, 1), (2, 1, 2, 2), (3, 2, 1, 1e308), (4, 3, 1, 5), (5, 2, 2, 1e308)');
SELECT clickhouse_exec('ch_g2', 'INSERT INTO ' || :'ch_db' || '.g2b VALUES (6, 1, 1, 3), (7, 2, 2, 1e308), (8, 3, 2, 6), (9, 1, 1, 4)');
CREATE FOREIGN TABLE g2a (id int, g int, h int, f float8) SERVER ch_g2 OPTIONS (table 'g2a');
CREATE FOREIGN TABLE g2b (id int, g int, h int, f float8) SERVER ch_g2 OPTIONS (table 'g2b');
CREATE TABLE g2a_l AS SELECT * FROM g2a ORDER BY id;
CREATE TABLE g2b_l AS SELECT * FROM g2b ORDER BY id;
SELECT count(*) FROM g2a_l;
SELECT count(*) FROM g2b_l;

\i sql/include/diff_check.sql
CREATE FUNCTION g2_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'g2a|g2b', '(Aggregate|Sort|Group)', false, true) $$;
-- does the Remote SQL have a HAVING (the guards) and does the plan filter here?
CREATE FUNCTION g2_plan(q text, OUT remote_having boolean, OUT local_filter boolean,
    OUT union_sent boolean) LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  remote_having := false; local_filter := false; union_sent := false;
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    IF line ~ 'Remote SQL' AND line ~ ' HAVING ' THEN remote_having := true; END IF;
    IF line ~ 'Remote SQL' AND line ~ 'UNION ALL' THEN union_sent := true; END IF;
    IF line ~ '^ *Filter: ' THEN local_filter := true; END IF;
  END LOOP;
END $$;

-- ==== UNION ALL of foreign tables, grouped (sent as one query on 26.5)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT g, sum(f) FROM (SELECT g, f FROM g2a UNION ALL SELECT g, f FROM g2b) u GROUP BY g HAVING count(*) > 3;
\set VERBOSITY terse
SELECT g, sum(f) FROM (SELECT g, f FROM g2a UNION ALL SELECT g, f FROM g2b) u GROUP BY g HAVING count(*) > 3;
SELECT g, avg(f) FROM (SELECT g, f FROM g2a UNION ALL SELECT g, f FROM g2b) u GROUP BY g HAVING g <> 2;
\set VERBOSITY default
SELECT q, c.*, p.* FROM unnest(ARRAY[
  'SELECT g, sum(f) FROM (SELECT g, f FROM g2a UNION ALL SELECT g, f FROM g2b) u GROUP BY g HAVING count(*) > 3',
  'SELECT g, avg(f) FROM (SELECT g, f FROM g2a UNION ALL SELECT g, f FROM g2b) u GROUP BY g HAVING g <> 2',
  'SELECT g, var_samp(f) FROM (SELECT g, f FROM g2a UNION ALL SELECT g, f FROM g2b) u GROUP BY g HAVING max(f) < 10',
  'SELECT g, count(*) FROM (SELECT g, f FROM g2a UNION ALL SELECT g, f FROM g2b) u GROUP BY g HAVING sum(f) < 100',
  'SELECT g, sum(f) FROM (SELECT g, f FROM g2a UNION ALL SELECT g, f FROM g2b) u GROUP BY g ORDER BY count(*) DESC LIMIT 1',
  'SELECT g, sum(f) FROM (SELECT g, f FROM g2a UNION ALL SELECT g, f FROM g2b) u GROUP BY g HAVING count(*) > 1',
  -- without the overflowing group: answers, the guards still sent
  'SELECT g, sum(f), avg(f) FROM (SELECT g, f FROM g2a UNION ALL SELECT g, f FROM g2b WHERE g <> 2) u WHERE g <> 2 GROUP BY g HAVING count(*) > 1',
  'SELECT g, stddev(f) FROM (SELECT g, f FROM g2a WHERE g <> 2 UNION ALL SELECT g, f FROM g2b WHERE g <> 2) u GROUP BY g HAVING count(*) > 3',
  -- no float aggregate: HAVING is sent as before
  'SELECT g, count(*) FROM (SELECT g, f FROM g2a UNION ALL SELECT g, f FROM g2b) u GROUP BY g HAVING count(*) > 3',
  'SELECT g, max(f) FROM (SELECT g, f FROM g2a UNION ALL SELECT g, f FROM g2b) u GROUP BY g HAVING min(f) < 2'
]) q, g2_check(q) c, g2_plan(q) p;

-- ==== grouping sets (GROUPING SETS on 26.5, a UNION ALL of one SELECT
-- per set on 18.16): HAVING is PostgreSQL's, the guards ClickHouse's
EXPLAIN (VERBOSE, COSTS OFF)
SELECT g, h, sum(f) FROM g2a GROUP BY GROUPING SETS ((g), (h)) LIMIT 1;
\set VERBOSITY terse
SELECT g, h, sum(f) FROM g2a GROUP BY GROUPING SETS ((g), (h)) LIMIT 1;
\set VERBOSITY default
SELECT q, c.*, p.* FROM unnest(ARRAY[
  'SELECT g, h, sum(f) FROM g2a GROUP BY GROUPING SETS ((g), (h)) LIMIT 1',
  'SELECT g, h, sum(f) FROM g2a GROUP BY ROLLUP (g, h) HAVING count(*) > 5',
  'SELECT g, h, avg(f) FROM g2a GROUP BY GROUPING SETS ((g), (h)) HAVING count(*) > 5',
  'SELECT g, h, avg(f) FROM g2a GROUP BY CUBE (g, h) LIMIT 2',
  'SELECT g, h, variance(f) FROM g2a GROUP BY ROLLUP (g, h) HAVING g <> 2',
  'SELECT g, sum(f) FROM g2a GROUP BY GROUPING SETS ((g), ()) HAVING count(*) > 1',
  -- without the overflowing group: answers (a LIMIT without ORDER BY: its count of values)
  'SELECT g, h, sum(f), avg(f) FROM g2a WHERE g <> 2 GROUP BY ROLLUP (g, h) HAVING count(*) > 1',
  'SELECT count(x) FROM (SELECT g, h, stddev_pop(f) AS x FROM g2a WHERE g <> 2 GROUP BY GROUPING SETS ((g), (h), ()) LIMIT 3) s',
  'SELECT g, h, sum(f) FROM g2b GROUP BY CUBE (g, h) HAVING sum(f) > 3',
  'SELECT g, h, count(*) FROM g2a GROUP BY ROLLUP (g, h) HAVING count(*) > 1'
]) q, g2_check(q) c, g2_plan(q) p;

-- ==== seeded random checks: two tables of 200 rows, g = id % 10, the
-- group g = 7 overflowing in each (eight rows of 1e308), in g2rb also the
-- group g = 3 (-1e308 seven times) but only on h = 0 rows; random
-- aggregates, HAVING thresholds (dropping the overflowing groups or not),
-- grouping forms and LIMITs (without ORDER BY: the count of values), each
-- compared with the local copy
SELECT clickhouse_exec('ch_g2', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.g2ra');
SELECT clickhouse_exec('ch_g2', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.g2rb');
SELECT clickhouse_exec('ch_g2', 'CREATE TABLE ' || :'ch_db' || '.g2ra (id Int32, g Nullable(Int32), h Nullable(Int32), f Nullable(Float64)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_g2', 'CREATE TABLE ' || :'ch_db' || '.g2rb (id Int32, g Nullable(Int32), h Nullable(Int32), f Nullable(Float64)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_g2', 'INSERT INTO ' || :'ch_db' || '.g2ra SELECT toInt32(number), toInt32(number % 10), toInt32(number % 3), if(number % 50 IN (7, 17), 1e308, number / 4) FROM system.numbers LIMIT 200');
SELECT clickhouse_exec('ch_g2', 'INSERT INTO ' || :'ch_db' || '.g2rb SELECT toInt32(number + 200), toInt32(number % 10), toInt32(number % 3), multiIf(number % 50 IN (7, 17), 1e308, number % 30 = 3, -1e308, number / 8) FROM system.numbers LIMIT 200');
CREATE FOREIGN TABLE g2ra (id int, g int, h int, f float8) SERVER ch_g2 OPTIONS (table 'g2ra');
CREATE FOREIGN TABLE g2rb (id int, g int, h int, f float8) SERVER ch_g2 OPTIONS (table 'g2rb');
CREATE TABLE g2ra_l AS SELECT * FROM g2ra ORDER BY id;
CREATE TABLE g2rb_l AS SELECT * FROM g2rb ORDER BY id;
SELECT count(*), count(*) FILTER (WHERE f = 1e308) FROM g2ra_l;
SELECT count(*), count(*) FILTER (WHERE f = -1e308) FROM g2rb_l;
CREATE FUNCTION g2r_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'g2ra|g2rb', '(Aggregate|Sort|Group)', false, true) $$;
SELECT setseed(0.42);
CREATE TEMP TABLE g2r_q AS
SELECT i, CASE form
    WHEN 0 THEN format('SELECT g, %s(f) FROM (SELECT g, h, f FROM g2ra UNION ALL SELECT g, h, f FROM g2rb) u GROUP BY g HAVING %s', agg, hav)
    WHEN 1 THEN format('SELECT g, h, %s(f) FROM %s GROUP BY ROLLUP (g, h) HAVING %s', agg, tab, hav)
    WHEN 2 THEN format('SELECT count(x) FROM (SELECT g, h, %s(f) AS x FROM %s GROUP BY GROUPING SETS ((g), (h)) LIMIT %s) s', agg, tab, lim)
    WHEN 3 THEN format('SELECT g, %s(f) FROM (SELECT g, f FROM g2ra WHERE h = %s UNION ALL SELECT g, f FROM g2rb WHERE h = %s) u GROUP BY g ORDER BY count(*) LIMIT %s', agg, hh, hh, lim)
    WHEN 4 THEN format('SELECT h, %s(f) FROM %s WHERE h = %s OR g <> 7 GROUP BY CUBE (h) HAVING %s', agg, tab, hh, hav)
    ELSE format('SELECT g, %s(f), count(*) FROM %s WHERE g %s 7 GROUP BY g HAVING %s', agg, tab, CASE WHEN hh = 0 THEN '<>' ELSE '=' END, hav)
  END AS q
FROM (SELECT i, floor(random() * 6)::int AS form,
        (ARRAY['sum', 'avg', 'var_samp', 'stddev_pop', 'variance', 'stddev'])[1 + floor(random() * 6)::int] AS agg,
        (ARRAY['g2ra', 'g2rb'])[1 + floor(random() * 2)::int] AS tab,
        (ARRAY['count(*) > 20', 'count(*) > 5', 'count(*) > ' || floor(random() * 45)::int, 'max(h) < 2', 'g <> 7', 'sum(h) < 30'])[1 + floor(random() * 6)::int] AS hav,
        1 + floor(random() * 4)::int AS lim,
        floor(random() * 3)::int AS hh
      FROM generate_series(1, 60) i) r;
-- every check the same as the local copy; how many raised, returned rows, were sent
SELECT count(*) AS checks, count(*) FILTER (WHERE c.same) AS same,
       count(*) FILTER (WHERE c.err = '22003') AS raised,
       count(*) FILTER (WHERE c.err IS NULL AND c.nrows > 0) AS answered,
       count(*) FILTER (WHERE c.pushed) AS pushed
FROM g2r_q, g2r_check(q) c;
-- the ones that differ (none)
SELECT i, q, c.* FROM g2r_q, g2r_check(q) c WHERE NOT c.same ORDER BY i;
