-- ====================================================================
-- Scans: column selection, count(*) without columns, large results,
-- rescans, early stops and connection reuse. Live (see types.sql).
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
CREATE SERVER ch_scan FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_scan;

CREATE FOREIGN TABLE million (n bigint, s text) SERVER ch_scan;

-- ==== only the needed columns are requested
EXPLAIN (VERBOSE, COSTS OFF) SELECT s FROM million WHERE n = 5;
SELECT s FROM million WHERE n = 5;
-- count(*) is computed by ClickHouse
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM million;
SELECT count(*) FROM million;
-- a scan that needs no column still returns every row
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM million WHERE random() >= 0;
SELECT count(*) FROM million WHERE random() >= 0;
-- a 1M-row scan, every value checked
SELECT count(*), sum(n), min(n), max(n), count(DISTINCT s), bool_and(s = n::text) FROM million;

-- ==== early stop (LIMIT), then the connection serves the next query
SELECT n FROM million LIMIT 3;
SELECT count(*) FROM million WHERE n < 10;

-- ==== rescans: a parameterised nested loop runs the remote query again
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_material = off;
CREATE TEMP TABLE keys AS SELECT g AS k FROM generate_series(1, 3) g;
-- (the outer value is written into the remote SQL at each rescan)
EXPLAIN (COSTS OFF) SELECT k, (SELECT s FROM million WHERE n = k) FROM keys;
SELECT k, (SELECT s FROM million WHERE n = k) FROM keys ORDER BY k;
-- (a condition kept local: the same remote query each time)
EXPLAIN (COSTS OFF) SELECT k, (SELECT s FROM million WHERE n::numeric + 0 = k) FROM keys;
SELECT k, (SELECT s FROM million WHERE n::numeric + 0 = k) FROM keys ORDER BY k;
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_material;

-- ==== cursors: fetch part, then the rest
BEGIN;
DECLARE c CURSOR FOR SELECT n FROM million ORDER BY n;
FETCH 2 FROM c;
FETCH 2 FROM c;
CLOSE c;
COMMIT;

-- ==== identifiers with case, spaces, back-quotes and backslashes
CREATE FOREIGN TABLE mixed ("Id" int, w text OPTIONS (column_name 'weird col\name'))
  SERVER ch_scan OPTIONS (table 'Mixed Case`Table');
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM mixed;
SELECT * FROM mixed ORDER BY "Id";

-- ==== whole-row references fetch every column
SELECT m FROM mixed m ORDER BY 1;

DROP SERVER ch_scan CASCADE;
