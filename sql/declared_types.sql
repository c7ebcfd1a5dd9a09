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
