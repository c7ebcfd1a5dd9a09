-- ====================================================================
-- Body of key_join.sql (ClickHouse 18.16) and modern_key_join.sql (the
-- 26.5 engine behind test/chdb/front.py, a test harness, not a server):
-- joins of local tables with a ClickHouse table by the "ClickHouse Key
-- Join" custom scan (keyjoin.c): the local side's distinct keys are sent in
-- IN lists, batch by batch, and the rows are joined locally. Each query is
-- run on the foreign table and on a local copy and compared; the plan is
-- checked to use the key join. The caller has created server ch_kj and set
-- :ch_db.
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_kj', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.kjf');
SELECT clickhouse_exec('ch_kj', 'CREATE TABLE ' || :'ch_db' || '.kjf (id Int32, k Nullable(Int32), s Nullable(String), d Date, x Int64, u UUID, dt DateTime) ENGINE = MergeTree ORDER BY id');
-- 600 rows: k repeats (0..39, every 9th NULL), s repeats, d 50 days
SELECT clickhouse_exec('ch_kj', 'INSERT INTO ' || :'ch_db' || '.kjf SELECT toInt32(number), if(number % 9 = 0, NULL, toInt32(number % 40)), if(number % 11 = 0, NULL, concat(''s'', toString(number % 23))), toDate(''2020-01-01'') + number % 50, toInt64(number % 7), toUUID(concat(''00000000-0000-0000-0000-'', substring(toString(1000000000000 + number % 30), 2))), toDateTime(''2020-01-01 00:00:00'') + number * 7200 FROM numbers(600)');
-- strings that need escaping, a key of 0 and a date at the Date range's start
SELECT clickhouse_exec('ch_kj', 'INSERT INTO ' || :'ch_db' || '.kjf VALUES (1000, 0, ''it''''s'', ''1970-01-01'', 1, ''00000000-0000-0000-0000-000000000999'', ''2020-01-01 00:00:00''), (1001, -5, ''back\\\\slash'', ''2149-06-06'', 2, ''00000000-0000-0000-0000-000000000999'', ''2020-01-01 00:00:00''), (1002, 2000000000, '''', ''2020-01-01'', 3, ''00000000-0000-0000-0000-000000000001'', ''2020-01-01 00:00:00'')');
-- dt: a DateTime declared date (its date in the server's zone, resolved when the scan starts)
CREATE FOREIGN TABLE kjf (id int, k int, s text, d date, x bigint, u uuid, dt date) SERVER ch_kj OPTIONS (table 'kjf');
CREATE TABLE kjf_l AS SELECT * FROM kjf;
-- the local sides: duplicates, NULL keys, keys absent remotely, out of range
CREATE TABLE kjl (k bigint, s text, d date, v int, u uuid);
INSERT INTO kjl SELECT CASE WHEN g % 6 = 0 THEN NULL ELSE g % 45 END,
  CASE WHEN g % 8 = 0 THEN NULL ELSE 's' || (g % 27) END,
  date '2020-01-01' + (g % 60), g,
  ('00000000-0000-0000-0000-' || lpad((g % 35)::text, 12, '0'))::uuid
  FROM generate_series(1, 120) g;
INSERT INTO kjl VALUES (0, 'it''s', '1970-01-01', 1001, NULL), (-5, 'back\\slash', '2149-06-06', 1002, NULL),
  (2000000000, '', '1960-01-01', 1003, NULL), (3000000000, E'tab\there', '2200-01-01', 1004, NULL),
  (7, 's7', 'infinity', 1005, NULL), (7, 's7', '-infinity', 1006, NULL);
CREATE TABLE kjl2 (k int, w text);
INSERT INTO kjl2 SELECT g % 20, 'w' || g FROM generate_series(1, 30) g;
CREATE TABLE kje (k bigint, s text, d date, v int);
ANALYZE kjl;
ANALYZE kjl2;
ANALYZE kje;

-- kj_check(query): the query on the foreign table and on its local copy
-- (kjf -> kjf_l), rows compared both ways with EXCEPT ALL; keyjoin: the
-- plan has the key join
CREATE FUNCTION kj_check(q text, OUT keyjoin boolean, OUT same boolean, OUT nrows int)
LANGUAGE plpgsql AS $$
DECLARE
  plan text := '';
  line text;
  lq text := regexp_replace(q, '\mkjf\M', 'kjf_l', 'g');
  diff int;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
    plan := plan || line || E'\n';
  END LOOP;
  keyjoin := plan LIKE '%ClickHouse Key Join%';
  EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) a', q, lq) INTO diff;
  same := diff = 0;
  EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) a', lq, q) INTO diff;
  same := same AND diff = 0;
  EXECUTE format('SELECT count(*) FROM (%s) a', lq) INTO nrows;
END $$;

-- kj_counts(query): the key join's counters of EXPLAIN ANALYZE
CREATE FUNCTION kj_counts(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF line ~ '^ *(->  )?(Custom Scan|Batches:|Remote Queries:|Keys Sent:|Remote Rows:)' THEN
      RETURN NEXT trim(line);
    END IF;
  END LOOP;
END $$;

-- ==== what is sent: the foreign table's conditions and the key list
EXPLAIN (VERBOSE, COSTS OFF) SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k;
EXPLAIN (VERBOSE, COSTS OFF) SELECT l.v, f.id, f.s FROM kjl l LEFT JOIN kjf f ON f.k = l.k AND f.x > 2 AND f.id % 3 <> l.v % 3 WHERE l.v < 100;
EXPLAIN (VERBOSE, COSTS OFF) SELECT l.v FROM kjl l WHERE EXISTS (SELECT 1 FROM kjf f WHERE f.s = l.s AND f.id > l.v);
EXPLAIN (VERBOSE, COSTS OFF) SELECT l.v FROM kjl l WHERE NOT EXISTS (SELECT 1 FROM kjf f WHERE f.d = l.d);
EXPLAIN (VERBOSE, COSTS OFF) SELECT f.id FROM kjf f WHERE f.k IN (SELECT k FROM kjl2);
-- the keys as sent (EXPLAIN ANALYZE VERBOSE shows the SQL of the last
-- batch); small batches cost more than a hash join of these small tables,
-- so the other joins are turned off where a test needs several batches
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_nestloop = off;
SET clickhouse_fdw.key_join_batch_keys = 4;
CREATE FUNCTION kj_sent(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF line ~ '^ *(Remote SQL Sent:|Batches:|Remote Queries:|Keys Sent:)' THEN
      RETURN NEXT trim(line);
    END IF;
  END LOOP;
END $$;
SELECT kj_sent('SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.s = l.s WHERE l.v BETWEEN 1001 AND 1004');
SELECT kj_sent('SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k WHERE l.v BETWEEN 1001 AND 1004');
SELECT kj_sent('SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.d = l.d WHERE l.v > 1000');
SELECT kj_sent('SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.u = l.u WHERE l.v < 3');
SELECT kj_sent('SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.dt = l.d WHERE l.v < 3');
RESET clickhouse_fdw.key_join_batch_keys;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_nestloop;

-- ==== answers: each join kind and key type, against the local copy
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k',
  'SELECT l.v, f.id, f.s FROM kjl l LEFT JOIN kjf f ON f.k = l.k',
  'SELECT l.v, f.id, f.s FROM kjl l LEFT JOIN kjf f ON f.k = l.k AND f.x > 2 AND f.id % 3 <> l.v % 3 WHERE l.v < 100',
  'SELECT l.v, f.id FROM kjl l LEFT JOIN kjf f ON f.k = l.k WHERE f.id IS NULL OR f.x < 3',
  'SELECT l.v FROM kjl l WHERE EXISTS (SELECT 1 FROM kjf f WHERE f.k = l.k)',
  'SELECT l.v FROM kjl l WHERE EXISTS (SELECT 1 FROM kjf f WHERE f.s = l.s AND f.id > l.v)',
  'SELECT l.v FROM kjl l WHERE EXISTS (SELECT 1 FROM kjf f WHERE f.k = l.k AND f.s <> l.s)',
  'SELECT l.v FROM kjl l WHERE NOT EXISTS (SELECT 1 FROM kjf f WHERE f.k = l.k)',
  'SELECT l.v FROM kjl l WHERE NOT EXISTS (SELECT 1 FROM kjf f WHERE f.d = l.d)',
  'SELECT l.v FROM kjl l WHERE NOT EXISTS (SELECT 1 FROM kjf f WHERE f.k = l.k AND f.x <> 3)',
  'SELECT f.id FROM kjf f WHERE f.k IN (SELECT k FROM kjl2)',
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.s = l.s',
  -- (the key join where it is cheaper: here few remote rows are estimated)
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.d = l.d AND f.x = 2',
  'SELECT l.v, f.id FROM kjl l LEFT JOIN kjf f ON f.d = l.d',
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.u = l.u',
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.dt = l.d',
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k AND f.s = l.s',
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k AND f.x > l.v % 5',
  -- a condition of the foreign table that PostgreSQL evaluates
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k WHERE md5(f.s) > ''8''',
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k + 1',
  'SELECT a.k, a.n, f.id FROM (SELECT k, count(*) n FROM kjl GROUP BY k) a JOIN kjf f ON f.k = a.k',
  'SELECT l.v, m.w, f.id FROM kjl l JOIN kjl2 m ON m.k = l.k JOIN kjf f ON f.k = m.k',
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k WHERE f.x > 1 AND l.v > 10',
  'SELECT l.k, count(*), sum(f.x) FROM kjl l JOIN kjf f ON f.k = l.k GROUP BY l.k'
]) q, kj_check(q) c;

-- ==== more local keys than one batch: several remote queries, same
-- answers; an empty local side
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_nestloop = off;
SET clickhouse_fdw.key_join_batch_keys = 7;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.d = l.d AND f.x = 2',
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.s = l.s',
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.u = l.u',
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k AND f.s = l.s',
  'SELECT e.v, f.id FROM kje e JOIN kjf f ON f.k = e.k',
  'SELECT e.v, f.id FROM kje e LEFT JOIN kjf f ON f.k = e.k',
  'SELECT e.v FROM kje e WHERE NOT EXISTS (SELECT 1 FROM kjf f WHERE f.s = e.s)',
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k',
  'SELECT l.v, f.id, f.s FROM kjl l LEFT JOIN kjf f ON f.k = l.k AND f.x > 2',
  'SELECT l.v FROM kjl l WHERE EXISTS (SELECT 1 FROM kjf f WHERE f.s = l.s AND f.id > l.v)',
  'SELECT l.v FROM kjl l WHERE NOT EXISTS (SELECT 1 FROM kjf f WHERE f.d = l.d)',
  'SELECT f.id FROM kjf f WHERE f.k IN (SELECT k FROM kjl2)'
]) q, kj_check(q) c;
SELECT kj_counts('SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k');
SELECT kj_counts('SELECT l.v, f.id FROM kjl l LEFT JOIN kjf f ON f.k = l.k');
-- an empty local side sends nothing
SELECT kj_counts('SELECT e.v, f.id FROM kje e LEFT JOIN kjf f ON f.k = e.k');
-- only NULL keys: no remote query, every row null-extended
SELECT kj_counts('SELECT l.v, f.id FROM kjl l LEFT JOIN kjf f ON f.k = l.k WHERE l.k IS NULL');
RESET clickhouse_fdw.key_join_batch_keys;
-- bounded memory: a batch also ends when its rows reach work_mem
CREATE TABLE kjw AS SELECT k, v, (SELECT string_agg(md5(v::text || g), '') FROM generate_series(1, 45) g) AS pad FROM kjl;
ANALYZE kjw;
SET work_mem = '64kB';
SELECT kj_counts('SELECT w.v, length(w.pad), f.id FROM kjw w LEFT JOIN kjf f ON f.k = w.k');
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT w.v, length(w.pad), f.id FROM kjw w LEFT JOIN kjf f ON f.k = w.k'
]) q, kj_check(q) c;
RESET work_mem;
DROP TABLE kjw;
RESET enable_nestloop;

-- ==== a LIMIT stops the scan early; a rescan (the inner side of a nested loop) starts over
SELECT count(*) FROM (SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k LIMIT 5) a;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_nestloop = off;
SET enable_memoize = off;
EXPLAIN (COSTS OFF) SELECT count(*), sum(a.v + a.id) FROM (SELECT m.k, x.v, x.id FROM kjl2 m,
  LATERAL (SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k WHERE l.v = m.k + 10 OFFSET 0) x) a;
SELECT count(*), sum(a.v + a.id) FROM (SELECT m.k, x.v, x.id FROM kjl2 m,
  LATERAL (SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k WHERE l.v = m.k + 10 OFFSET 0) x) a;
SELECT count(*), sum(a.v + a.id) FROM (SELECT m.k, x.v, x.id FROM kjl2 m,
  LATERAL (SELECT l.v, f.id FROM kjl l JOIN kjf_l f ON f.k = l.k WHERE l.v = m.k + 10 OFFSET 0) x) a;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_nestloop;
RESET enable_memoize;

-- ==== run-time values in the foreign table's conditions (a prepared
-- statement's generic plan): written in with the keys
SET plan_cache_mode = force_generic_plan;
PREPARE kj_p(int, text) AS SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k
  WHERE f.x > $1 AND f.s <> $2 AND l.v < 50;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE kj_p(2, 's3');
CREATE TABLE kj_pr AS EXECUTE kj_p(2, 's3');
SELECT count(*) AS nrows,
  (SELECT count(*) FROM ((TABLE kj_pr) EXCEPT ALL (SELECT l.v, f.id FROM kjl l JOIN kjf_l f ON f.k = l.k
    WHERE f.x > 2 AND f.s <> 's3' AND l.v < 50)) a) AS only_remote,
  (SELECT count(*) FROM ((SELECT l.v, f.id FROM kjl l JOIN kjf_l f ON f.k = l.k
    WHERE f.x > 2 AND f.s <> 's3' AND l.v < 50) EXCEPT ALL (TABLE kj_pr)) a) AS only_local
  FROM kj_pr;
DROP TABLE kj_pr;
DEALLOCATE kj_p;
RESET plan_cache_mode;

-- ==== several equalities: each is sent as an IN list of its local values
-- (a superset: the pairs are matched by the equalities); the key of the
-- hash table is the one matching fewest rows (by the statistics of ANALYZE)
SELECT kj_sent('SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k AND f.s = l.s AND f.d = l.d WHERE l.v BETWEEN 1001 AND 1004');
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k AND f.d = l.d',
  'SELECT l.v, f.id, f.s FROM kjl l LEFT JOIN kjf f ON f.k = l.k AND f.s = l.s',
  'SELECT l.v FROM kjl l WHERE NOT EXISTS (SELECT 1 FROM kjf f WHERE f.k = l.k AND f.u = l.u)',
  'SELECT l.v FROM kjl l WHERE EXISTS (SELECT 1 FROM kjf f WHERE f.k = l.k AND f.s = l.s AND f.x <> l.v % 3)'
]) q, kj_check(q) c;
-- the other key all NULL: nothing can match, no remote query
SELECT kj_counts('SELECT l.v, f.id FROM kjl l LEFT JOIN kjf f ON f.k = l.k AND f.u = l.u WHERE l.u IS NULL');
ANALYZE kjf;
EXPLAIN (VERBOSE, COSTS OFF) SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.x = l.v % 7 AND f.id = l.v;
EXPLAIN (COSTS OFF) SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.x = l.v % 7 AND f.id = l.v;
EXPLAIN (COSTS OFF) SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.id = l.v AND f.x = l.v % 7;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.x = l.v % 7 AND f.id = l.v'
]) q, kj_check(q) c;

-- ==== plain EXPLAIN never connects (a server nobody listens on), date keys included
CREATE SERVER ch_kj_down FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port '9');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_kj_down;
CREATE FOREIGN TABLE kjf_down (id int, k int, d date) SERVER ch_kj_down OPTIONS (table 'kjf');
EXPLAIN (VERBOSE, COSTS OFF) SELECT l.v, f.id FROM kjl l JOIN kjf_down f ON f.k = l.k AND f.d = l.d;
DROP FOREIGN TABLE kjf_down;
DROP USER MAPPING FOR CURRENT_USER SERVER ch_kj_down;
DROP SERVER ch_kj_down;

-- ==== not a key join: no usable key, or the GUC off
-- a key type that is not sent (numeric, float, timestamps), an expression of the foreign side
EXPLAIN (COSTS OFF) SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k::numeric = l.k::numeric;
EXPLAIN (COSTS OFF) SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k + 1 = l.k;
-- a nondeterministic collation: not byte equality
CREATE COLLATION kj_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
EXPLAIN (COSTS OFF) SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.s = l.s COLLATE kj_ci;
-- row marks (an EvalPlanQual recheck needs the joined row): FOR UPDATE, UPDATE ... FROM
EXPLAIN (COSTS OFF) SELECT l.v FROM kjl l JOIN kjf f ON f.k = l.k FOR UPDATE OF l;
EXPLAIN (COSTS OFF) UPDATE kjl l SET v = l.v FROM kjf f WHERE f.k = l.k;
SET clickhouse_fdw.enable_key_join = off;
EXPLAIN (COSTS OFF) SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT l.v, f.id FROM kjl l JOIN kjf f ON f.k = l.k',
  'SELECT l.v, f.id, f.s FROM kjl l LEFT JOIN kjf f ON f.k = l.k'
]) q, kj_check(q) c;
RESET clickhouse_fdw.enable_key_join;
SHOW clickhouse_fdw.enable_key_join;
SHOW clickhouse_fdw.key_join_batch_keys;
SET clickhouse_fdw.key_join_batch_keys = 0;

DROP FUNCTION kj_check(text);
DROP FUNCTION kj_counts(text);
DROP FUNCTION kj_sent(text);
DROP COLLATION kj_ci;
DROP TABLE kjl, kjl2, kje, kjf_l;
DROP FOREIGN TABLE kjf;
SELECT clickhouse_exec('ch_kj', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.kjf');
