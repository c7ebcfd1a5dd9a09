-- ====================================================================
-- Text ordering sent under collations that order by code point: C, POSIX
-- and C.UTF-8 in a UTF-8 database (also the database default, see the
-- pushdown tests); ICU and other collations stay local. Non-ASCII data,
-- each answer compared with a local copy. Live (ClickHouse 18.16).
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
CREATE SERVER ch_coll FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (transport :'ch_transport', port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_coll;
SELECT clickhouse_exec('ch_coll', 'DROP TABLE IF EXISTS regress.coll');
SELECT clickhouse_exec('ch_coll', 'CREATE TABLE regress.coll (id UInt8, s String) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE coll (id int, s text COLLATE "C.utf8") SERVER ch_coll;
CREATE TABLE coll_local (id int, s text COLLATE "C.utf8");
INSERT INTO coll_local VALUES (1, 'a'), (2, 'B'), (3, 'é'), (4, 'z'), (5, 'Ω'), (6, '€'), (7, '😀'),
  (8, ''), (9, 'ab'), (10, 'Z'), (11, 'ä'), (12, 'e'), (13, 'ｚ');
INSERT INTO coll SELECT * FROM coll_local;
SELECT datcollate = 'C.UTF-8' OR datcollate = 'C.utf8' AS default_is_c_utf8 FROM pg_database WHERE datname = current_database();

-- ==== sent: ORDER BY, a top-N, comparisons, min/max, GROUP BY ... ORDER BY
EXPLAIN (VERBOSE, COSTS OFF) SELECT s FROM coll ORDER BY s LIMIT 5;
SELECT (SELECT array_agg(s) FROM (SELECT s FROM coll ORDER BY s) x) =
       (SELECT array_agg(s) FROM (SELECT s FROM coll_local ORDER BY s) x) AS same_order,
       (SELECT array_agg(s) FROM (SELECT s FROM coll ORDER BY s DESC LIMIT 4) x) AS top4;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM coll WHERE s > 'é';
SELECT array_agg(id ORDER BY id) FROM coll WHERE s > 'é'
UNION ALL SELECT array_agg(id ORDER BY id) FROM coll_local WHERE s > 'é';
EXPLAIN (VERBOSE, COSTS OFF) SELECT min(s), max(s) FROM coll;
SELECT min(s), max(s) FROM coll UNION ALL SELECT min(s), max(s) FROM coll_local;
-- GROUP BY without aggregates (the distinct values) is sent too
INSERT INTO coll_local VALUES (14, 'a'), (15, 'é');
INSERT INTO coll VALUES (14, 'a'), (15, 'é');
EXPLAIN (VERBOSE, COSTS OFF) SELECT s FROM coll GROUP BY s ORDER BY s;
SELECT (SELECT array_agg(s) FROM (SELECT s FROM coll GROUP BY s ORDER BY s) x) =
       (SELECT array_agg(s) FROM (SELECT s FROM coll_local GROUP BY s ORDER BY s) x) AS same_groups,
       (SELECT count(*) FROM (SELECT s FROM coll GROUP BY s) x) AS n_groups;
-- ==== kept local: an ICU collation orders otherwise (ClickHouse would not)
EXPLAIN (VERBOSE, COSTS OFF) SELECT s FROM coll ORDER BY s COLLATE "und-x-icu" LIMIT 5;
SELECT array_agg(s) FROM (SELECT s FROM coll ORDER BY s COLLATE "und-x-icu" LIMIT 5) x;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM coll WHERE s COLLATE "und-x-icu" > 'é';

SELECT clickhouse_exec('ch_coll', 'DROP TABLE regress.coll');
DROP TABLE coll_local;
DROP SERVER ch_coll CASCADE;
