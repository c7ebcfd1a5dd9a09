-- ====================================================================
-- (numagg2) sums, averages and the variance family of wide integer and
-- Decimal columns declared numeric on ClickHouse 18.16 (the body, shared
-- with modern_numagg2.sql, is sql/include/numagg2.sql): UInt64 sent, the
-- avg and variance family of Decimal128 sent in 32-bit limbs, (numagg3)
-- its sum too (18.16 has no Decimal256). Then a plan whose connection must be
-- made again and cannot be: planned here, never an error. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_n2 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_n2;
\i sql/include/numagg2.sql

-- ==== the server's capabilities cannot be asked (Decimal128 needs to
-- know whether Decimal256 exists): the column types are known (cached),
-- but the changed user mapping makes the connection again, which fails
-- (a user ClickHouse does not know, as a server down would). Planning
-- does not fail: the aggregate is computed here, and the scan itself
-- reports the error when it runs. (Before the fix EXPLAIN raised
-- "Unknown user no_such_user".)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, avg(d38) FROM n2 GROUP BY g;
ALTER USER MAPPING FOR CURRENT_USER SERVER ch_n2 OPTIONS (ADD user 'no_such_user');
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, avg(d38) FROM n2 GROUP BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, avg(d38), sum(d38), stddev(d30) FROM n2 GROUP BY g;
\set VERBOSITY terse
SELECT g, avg(d38) FROM n2 GROUP BY g;
\set VERBOSITY default
-- the user mapping restored: asked again, sent again
ALTER USER MAPPING FOR CURRENT_USER SERVER ch_n2 OPTIONS (DROP user);
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, avg(d38) FROM n2 GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY['SELECT g, avg(d38) FROM n2 GROUP BY g']) q, n2_check(q) c;

DROP FUNCTION n2_check(text);
DROP TABLE n2_l;
DROP FOREIGN TABLE n2;
DROP SERVER ch_n2 CASCADE;
