-- ====================================================================
-- UPDATE and DELETE as ClickHouse mutations, TRUNCATE. Live (see
-- types.sql); the test creates its own table with clickhouse_exec.
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
CREATE SERVER ch_mod FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_mod;
SET datestyle = 'ISO, YMD';
SELECT clickhouse_exec('ch_mod', 'DROP TABLE IF EXISTS regress.mut');
SELECT clickhouse_exec('ch_mod',
  'CREATE TABLE regress.mut (id UInt32, s String, n Nullable(Int32), d Date) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE mut (id int, s text, n int, d date) SERVER ch_mod;
INSERT INTO mut VALUES (1, 'a', 1, '2020-01-01'), (2, 'b', NULL, '2020-01-02'),
  (3, 'c', 3, '2020-01-03'), (4, 'it''s', 4, '2020-01-04');

-- ==== one mutation; the command tag counts the rows; the change is visible at once
EXPLAIN (VERBOSE, COSTS OFF) UPDATE mut SET s = 'z', n = 9 WHERE id >= 3;
UPDATE mut SET s = 'z', n = 9 WHERE id >= 3;
SELECT * FROM mut ORDER BY id;
UPDATE mut SET n = NULL, d = '2021-12-31' WHERE n IS NOT NULL AND s <> 'z';
SELECT * FROM mut ORDER BY id;
UPDATE mut SET s = s WHERE id = 100;
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM mut WHERE s = 'z' OR n IS NULL AND id = 2;
DELETE FROM mut WHERE s = 'z' OR n IS NULL AND id = 2;
SELECT * FROM mut ORDER BY id;

-- expressions that ship (see pushdown_exprs.sql) make one mutation too
EXPLAIN (VERBOSE, COSTS OFF) UPDATE mut SET s = upper(s COLLATE "C") || '!' WHERE s ~ '^a';
UPDATE mut SET s = upper(s COLLATE "C") || '!' WHERE s ~ '^a';
SELECT * FROM mut ORDER BY id;

-- run-time values (current_date, parameters) are written in when the mutation starts
EXPLAIN (VERBOSE, COSTS OFF) UPDATE mut SET n = 7 WHERE d < current_date;
UPDATE mut SET n = 7 WHERE d < current_date;
PREPARE mut_set(text, int) AS UPDATE mut SET s = $1, d = current_date - 1000 WHERE id = $2;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE mut_set('from a parameter', 1);
EXECUTE mut_set('from a parameter', 1);
SELECT id, s, d = current_date - 1000 AS d_ok FROM mut ORDER BY id;
UPDATE mut SET d = '2021-12-31' WHERE id = 1;
PREPARE mut_del(date) AS DELETE FROM mut WHERE d > $1;
EXECUTE mut_del('2100-01-01');
SELECT * FROM mut ORDER BY id;
DEALLOCATE mut_del;

-- ==== what would need row-at-a-time changes is refused
UPDATE mut SET s = initcap(s);
DELETE FROM mut WHERE initcap(s) = 'a';
CREATE TEMP TABLE ids (k int);
INSERT INTO ids VALUES (1);
UPDATE mut SET s = 'x' FROM ids WHERE mut.id = ids.k;
DELETE FROM mut RETURNING id;
-- ClickHouse's own limits come back as its errors
\set VERBOSITY terse
UPDATE mut SET id = 5;
\set VERBOSITY default

-- ==== TRUNCATE
TRUNCATE mut;
SELECT count(*) FROM mut;

SELECT clickhouse_exec('ch_mod', 'DROP TABLE regress.mut');
DROP SERVER ch_mod CASCADE;
