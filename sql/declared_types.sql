-- ====================================================================
-- A column declared with another type family than its ClickHouse column
-- (a Float64 declared numeric, an Int64 declared double precision) is read
-- exactly, and never used in a sent expression: ClickHouse would group,
-- compare and sort it with its own type (-0 and 0 two groups, NaN
-- unordered, integers compared exactly where PostgreSQL rounds). Each
-- answer compared with a local copy of the rows. Live (ClickHouse 18.16).
-- ====================================================================
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
CREATE SERVER ch_decl FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (transport :'ch_transport', port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_decl;
SELECT clickhouse_exec('ch_decl', 'DROP TABLE IF EXISTS regress.decl');
SELECT clickhouse_exec('ch_decl', 'CREATE TABLE regress.decl (id UInt8, f Float64, i Int64, d Decimal(18, 4)) ENGINE = MergeTree ORDER BY id');
-- the rows come through a foreign table declared as ClickHouse's types
CREATE FOREIGN TABLE decl_ok (id int, f float8, i bigint, d numeric) SERVER ch_decl OPTIONS (table 'decl');
INSERT INTO decl_ok VALUES (1, 0, 1, 1.5), (2, '-0', 2, 2.5), (3, 'NaN', 3, 3.5), (4, 'NaN', 4, 4.5),
  (5, 7.5, 9007199254740993, 5.5), (6, 'Infinity', -9007199254740993, 6.5);
-- f as numeric, i and d as double precision: other families
CREATE FOREIGN TABLE decl_mis (id int, f numeric, i float8, d float8) SERVER ch_decl OPTIONS (table 'decl');
CREATE TABLE decl_local AS SELECT * FROM decl_mis;
SELECT * FROM decl_mis ORDER BY id;

-- ==== kept local on decl_mis, each answer as the local copy's
EXPLAIN (VERBOSE, COSTS OFF) SELECT f, count(*) FROM decl_mis GROUP BY f;
SELECT (SELECT array_agg(x ORDER BY x) FROM (SELECT f::text || ':' || count(*) AS x FROM decl_mis GROUP BY f) s) =
       (SELECT array_agg(x ORDER BY x) FROM (SELECT f::text || ':' || count(*) AS x FROM decl_local GROUP BY f) s) AS same_groups,
       (SELECT array_agg(x ORDER BY x) FROM (SELECT f::text || ':' || count(*) AS x FROM decl_mis GROUP BY f) s) AS groups;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM decl_mis WHERE f > 5;
SELECT array_agg(id ORDER BY id) FROM decl_mis WHERE f > 5
UNION ALL SELECT array_agg(id ORDER BY id) FROM decl_local WHERE f > 5;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM decl_mis ORDER BY f, id;
SELECT (SELECT array_agg(id) FROM (SELECT id FROM decl_mis ORDER BY f, id) s) AS remote_order,
       (SELECT array_agg(id) FROM (SELECT id FROM decl_local ORDER BY f, id) s) AS local_order;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM decl_mis WHERE i = 9007199254740992;
SELECT array_agg(id ORDER BY id) FROM decl_mis WHERE i = 9007199254740992
UNION ALL SELECT array_agg(id ORDER BY id) FROM decl_local WHERE i = 9007199254740992;
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(DISTINCT f) FROM decl_mis;
SELECT (SELECT count(DISTINCT f) FROM decl_mis) AS remote, (SELECT count(DISTINCT f) FROM decl_local) AS local;
EXPLAIN (VERBOSE, COSTS OFF) SELECT sum(d) FROM decl_mis WHERE d > 2;
SELECT (SELECT sum(d) FROM decl_mis WHERE d > 2) = (SELECT sum(d) FROM decl_local WHERE d > 2) AS same_sum;
-- a column of the same family still goes in the same query (id)
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM decl_mis WHERE id > 2 AND f > 5;

-- ==== sent on decl_ok (the same family)
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM decl_ok WHERE f > 5 AND i > 0 AND d > 2;
SELECT array_agg(id ORDER BY id) FROM decl_ok WHERE f > 5 AND i > 0 AND d > 2;

-- ==== ALTER FOREIGN TABLE: the next plan sees the new declaration
ALTER FOREIGN TABLE decl_mis ALTER COLUMN f TYPE float8;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM decl_mis WHERE f > 5;
ALTER FOREIGN TABLE decl_mis ALTER COLUMN f TYPE numeric;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM decl_mis WHERE f > 5;

-- ==== numeric(p, s) of fewer fractional digits than the Decimal: the read
-- rounds (numeric_in with the typmod: 1.5001 and 1.4999 are both 1.5 in a
-- numeric(10, 1)), so the column is compared, grouped, sorted and joined by
-- PostgreSQL; these were sent and answered with ClickHouse's unrounded values.
-- A scale at least the Decimal's (numeric(10, 4), numeric(12, 6)) and the
-- integer id as numeric(5, 0) still go out; numeric(20, -1) rounds to tens.
INSERT INTO decl_ok VALUES (7, 0, 7, 1.5001), (8, 0, 8, 1.4999), (9, 0, 15, 2.25);
CREATE FOREIGN TABLE decl_tm (id numeric(5, 0), f float8, i numeric(20, -1), d numeric(10, 1)) SERVER ch_decl OPTIONS (table 'decl');
CREATE TABLE decl_tm_local AS SELECT * FROM decl_tm;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM decl_tm WHERE d = 1.5;
SELECT array_agg(id ORDER BY id) FROM decl_tm WHERE d = 1.5
UNION ALL SELECT array_agg(id ORDER BY id) FROM decl_tm_local WHERE d = 1.5;
EXPLAIN (VERBOSE, COSTS OFF) SELECT d, count(*) FROM decl_tm GROUP BY d;
SELECT (SELECT array_agg(x ORDER BY x) FROM (SELECT d || ':' || count(*) AS x FROM decl_tm GROUP BY d) s) =
       (SELECT array_agg(x ORDER BY x) FROM (SELECT d || ':' || count(*) AS x FROM decl_tm_local GROUP BY d) s) AS same_groups,
       (SELECT array_agg(x ORDER BY x) FROM (SELECT d || ':' || count(*) AS x FROM decl_tm GROUP BY d) s) AS groups;
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(DISTINCT d) FROM decl_tm;
SELECT (SELECT count(DISTINCT d) FROM decl_tm) AS remote, (SELECT count(DISTINCT d) FROM decl_tm_local) AS local;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM decl_tm WHERE i = 10;
SELECT array_agg(id ORDER BY id) FROM decl_tm WHERE i = 10
UNION ALL SELECT array_agg(id ORDER BY id) FROM decl_tm_local WHERE i = 10;
EXPLAIN (VERBOSE, COSTS OFF) SELECT a.id FROM decl_tm a JOIN decl_tm b ON a.d = b.d WHERE a.id <> b.id;
SELECT array_agg(a.id || '-' || b.id ORDER BY a.id, b.id) FROM decl_tm a JOIN decl_tm b ON a.d = b.d WHERE a.id <> b.id
UNION ALL SELECT array_agg(a.id || '-' || b.id ORDER BY a.id, b.id) FROM decl_tm_local a JOIN decl_tm_local b ON a.d = b.d WHERE a.id <> b.id;
ALTER FOREIGN TABLE decl_tm ALTER COLUMN d TYPE numeric(10, 4);
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM decl_tm WHERE d = 1.5 AND id > 0;
SELECT array_agg(id ORDER BY id) FROM decl_tm WHERE d = 1.5 AND id > 0;
ALTER FOREIGN TABLE decl_tm ALTER COLUMN d TYPE numeric(12, 6);
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM decl_tm WHERE d = 1.5001;
SELECT array_agg(id ORDER BY id) FROM decl_tm WHERE d = 1.5001;
DROP TABLE decl_tm_local;

-- ==== a server that cannot be asked: planned as declared (EXPLAIN works;
-- the scan itself would fail), asked again in the next transaction
CREATE SERVER ch_decl_down FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (transport :'ch_transport', host '127.0.0.1', port '9');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_decl_down;
CREATE FOREIGN TABLE decl_down (id int, f numeric) SERVER ch_decl_down OPTIONS (table 'decl');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM decl_down WHERE f > 5;
-- the same table moved to the live server: its lookup now succeeds
ALTER FOREIGN TABLE decl_down OPTIONS (ADD database 'regress');
ALTER SERVER ch_decl_down OPTIONS (SET port :'ch_port');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM decl_down WHERE f > 5;
SELECT array_agg(id ORDER BY id) FROM decl_down WHERE f > 5;
DROP SERVER ch_decl_down CASCADE;

DROP TABLE decl_local;
DROP SERVER ch_decl CASCADE;

-- ==== date parts past 18.16's table of days: its toYear() and the other
-- date functions answer 1970 for every Date from 2106-02-08 on. There such
-- a date is computed 100 years earlier (year, quarter, month, day, decade,
-- century, millennium) or raises (the other fields); the query tests the
-- server, each answer compared with a local copy
CREATE SERVER ch_dp FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (transport :'ch_transport', port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_dp;
SELECT clickhouse_exec('ch_dp', 'DROP TABLE IF EXISTS regress.far_dates');
SELECT clickhouse_exec('ch_dp', 'CREATE TABLE regress.far_dates (id UInt8, d Date) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE far_dates (id int, d date) SERVER ch_dp;
INSERT INTO far_dates VALUES (1, '2020-05-17'), (2, '2106-02-07'), (3, '2106-02-08'), (4, '2149-06-06'),
  (5, '2100-02-28'), (6, '2100-03-01'), (7, '2104-02-29'), (8, '2148-12-31'), (9, '2120-10-01'), (10, '1970-01-01');
CREATE TABLE far_local AS SELECT * FROM far_dates;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM far_dates WHERE extract(year FROM d) > 2100;
SELECT f, (SELECT array_agg(id ORDER BY id) FROM far_dates WHERE extract(year FROM d) = 2106) AS remote,
  (SELECT array_agg(id ORDER BY id) FROM far_local WHERE extract(year FROM d) = 2106) AS local
  FROM (VALUES ('year')) v(f);
CREATE FUNCTION far_same(field text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text; l text;
BEGIN
  EXECUTE format('SELECT string_agg(id || '':'' || x, '' '' ORDER BY id) FROM (SELECT id, extract(%s FROM d) AS x FROM far_dates GROUP BY id, 2) s', field) INTO r;
  EXECUTE format('SELECT string_agg(id || '':'' || x, '' '' ORDER BY id) FROM (SELECT id, extract(%s FROM d) AS x FROM far_local) s', field) INTO l;
  RETURN CASE WHEN r = l THEN 'same' ELSE 'remote ' || r || ' / local ' || l END;
END $$;
-- (the grouped query is sent: ClickHouse computes every value compared)
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, extract(decade FROM d) AS x FROM far_dates GROUP BY id, 2;
SELECT f, far_same(f) FROM unnest(ARRAY['year', 'quarter', 'month', 'day', 'decade', 'century', 'millennium', 'epoch']) f;
EXPLAIN (VERBOSE, COSTS OFF) SELECT extract(month FROM d), count(*) FROM far_dates GROUP BY 1;
SELECT (SELECT array_agg(m || ':' || c ORDER BY m) FROM (SELECT extract(month FROM d) AS m, count(*) AS c FROM far_dates GROUP BY 1) s) =
       (SELECT array_agg(m || ':' || c ORDER BY m) FROM (SELECT extract(month FROM d) AS m, count(*) AS c FROM far_local GROUP BY 1) s) AS same_groups;
-- (dates18) every field, also week, dow, isodow and isoyear, from the
-- Date's day number on a server without Date32 (pushdown_epoch.c; the
-- Remote SQL above is EXPLAIN's, the fallback of other servers): these
-- raised 22008 for such a date before
SELECT f, far_same(f) FROM unnest(ARRAY['week', 'dow', 'isodow', 'isoyear']) f;
SELECT id FROM far_dates WHERE extract(isodow FROM d) = 1 ORDER BY id;
SELECT id FROM far_local WHERE extract(isodow FROM d) = 1 ORDER BY id;
SELECT array_agg(id ORDER BY id) FROM far_dates WHERE id IN (1, 2, 10) AND extract(dow FROM d) >= 0;
DROP FUNCTION far_same(text);
DROP TABLE far_local;
DROP SERVER ch_dp CASCADE;
