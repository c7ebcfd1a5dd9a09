-- ====================================================================
-- The body of parallel.sql (ClickHouse 18.16) and modern_parallel.sql (the
-- 26.5 engine): parallel foreign scans (src/fdw/parallel.c), the same
-- answers as the serial plan. Expects the server ch_par and :ch_db.
-- ====================================================================
-- three parts; a UInt64 key (the first of two), negative Int32, DateTime and Date keys
SELECT clickhouse_exec('ch_par', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.par_t');
SELECT clickhouse_exec('ch_par', 'CREATE TABLE ' || :'ch_db' || '.par_t (id UInt64, ts DateTime, k Int32, s String, n Nullable(Int32)) ENGINE = MergeTree ORDER BY (id, ts)');
SELECT clickhouse_exec('ch_par', 'INSERT INTO ' || :'ch_db' || '.par_t SELECT number, toDateTime(1600000000 + number * 7), toInt32(number % 1000) - 500, toString(number), if(number % 5 = 0, NULL, toInt32(number)) FROM system.numbers LIMIT 10000');
SELECT clickhouse_exec('ch_par', 'INSERT INTO ' || :'ch_db' || '.par_t SELECT number, toDateTime(1600000000 + number * 7), toInt32(number % 1000) - 500, toString(number), if(number % 5 = 0, NULL, toInt32(number)) FROM system.numbers WHERE number >= 10000 LIMIT 20000');
SELECT clickhouse_exec('ch_par', 'INSERT INTO ' || :'ch_db' || '.par_t SELECT number * 1000003 % 40000, toDateTime(1600000000), -1, ''dup'', NULL FROM system.numbers LIMIT 5000');
SELECT clickhouse_exec('ch_par', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.par_k');
SELECT clickhouse_exec('ch_par', 'CREATE TABLE ' || :'ch_db' || '.par_k (k Int32, ts DateTime, d Date, v UInt32) ENGINE = MergeTree ORDER BY k');
SELECT clickhouse_exec('ch_par', 'INSERT INTO ' || :'ch_db' || '.par_k SELECT toInt32(number) - 15000, toDateTime(1500000000 + number * 3600), toDate(''2016-07-18'') + number % 3000, toUInt32(number) FROM system.numbers LIMIT 30000');
SELECT clickhouse_exec('ch_par', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.par_ts');
SELECT clickhouse_exec('ch_par', 'CREATE TABLE ' || :'ch_db' || '.par_ts (k Int32, ts DateTime, d Date, v UInt32) ENGINE = MergeTree ORDER BY ts');
SELECT clickhouse_exec('ch_par', 'INSERT INTO ' || :'ch_db' || '.par_ts SELECT * FROM ' || :'ch_db' || '.par_k');
SELECT clickhouse_exec('ch_par', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.par_d');
SELECT clickhouse_exec('ch_par', 'CREATE TABLE ' || :'ch_db' || '.par_d (k Int32, ts DateTime, d Date, v UInt32) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY d');
SELECT clickhouse_exec('ch_par', 'INSERT INTO ' || :'ch_db' || '.par_d SELECT * FROM ' || :'ch_db' || '.par_k');
-- versions of the same rows, merged by FINAL
SELECT clickhouse_exec('ch_par', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.par_final');
SELECT clickhouse_exec('ch_par', 'CREATE TABLE ' || :'ch_db' || '.par_final (id UInt32, ver UInt32, v String) ENGINE = ReplacingMergeTree(ver) ORDER BY id');
SELECT clickhouse_exec('ch_par', 'INSERT INTO ' || :'ch_db' || '.par_final SELECT number, 1, ''old'' FROM system.numbers LIMIT 20000');
SELECT clickhouse_exec('ch_par', 'INSERT INTO ' || :'ch_db' || '.par_final SELECT number * 3, 2, ''new'' FROM system.numbers LIMIT 5000');
-- no usable split column: a String key, a Log table
SELECT clickhouse_exec('ch_par', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.par_str');
SELECT clickhouse_exec('ch_par', 'CREATE TABLE ' || :'ch_db' || '.par_str (s String, v UInt32) ENGINE = MergeTree ORDER BY s');
SELECT clickhouse_exec('ch_par', 'INSERT INTO ' || :'ch_db' || '.par_str SELECT toString(number), toUInt32(number) FROM system.numbers LIMIT 1000');
SELECT clickhouse_exec('ch_par', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.par_log');
SELECT clickhouse_exec('ch_par', 'CREATE TABLE ' || :'ch_db' || '.par_log (id UInt32) ENGINE = Log');
SELECT clickhouse_exec('ch_par', 'INSERT INTO ' || :'ch_db' || '.par_log SELECT toUInt32(number) FROM system.numbers LIMIT 1000');

CREATE FOREIGN TABLE par_t (id bigint, ts timestamptz, k int, s text, n int)
  SERVER ch_par OPTIONS (parallel_workers '2');
CREATE FOREIGN TABLE par_k (k int, ts timestamptz, d date, v bigint) SERVER ch_par OPTIONS (parallel_workers '2');
CREATE FOREIGN TABLE par_ts (k int, ts timestamptz, d date, v bigint) SERVER ch_par OPTIONS (parallel_workers '2');
CREATE FOREIGN TABLE par_d (k int, ts timestamptz, d date, v bigint) SERVER ch_par OPTIONS (parallel_workers '2');
CREATE FOREIGN TABLE par_final (id bigint, ver bigint, v text) SERVER ch_par OPTIONS (final 'on', parallel_workers '2');
CREATE FOREIGN TABLE par_str (s text, v bigint) SERVER ch_par OPTIONS (parallel_workers '2');
CREATE FOREIGN TABLE par_log (id bigint) SERVER ch_par OPTIONS (parallel_workers '2');
CREATE FOREIGN TABLE par_off (id bigint, ts timestamptz, k int, s text, n int) SERVER ch_par OPTIONS (table 'par_t');

-- the option: an integer 0..1024, on the table or the server
CREATE FOREIGN TABLE par_bad (id bigint) SERVER ch_par OPTIONS (parallel_workers '-1');
CREATE FOREIGN TABLE par_bad (id bigint) SERVER ch_par OPTIONS (parallel_workers 'two');
ALTER SERVER ch_par OPTIONS (ADD parallel_workers '1025');

-- the serial answers, copied locally
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE serial_t AS SELECT * FROM par_t;
CREATE TEMP TABLE serial_k AS SELECT * FROM par_k;
CREATE TEMP TABLE serial_final AS SELECT * FROM par_final;
SELECT count(*), sum(id), count(n), sum(k) FROM serial_t;

-- parallel plans wherever they are possible
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;

-- (numeric arithmetic is never sent: "::numeric + 0" keeps the aggregates in PostgreSQL, over the scan)
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*), sum(id) FROM par_t WHERE k > 0 AND (id::numeric + 0) >= 0;
SELECT count(*), sum(id), count(n), sum(k) FROM par_t WHERE (id::numeric + 0) >= 0;
SELECT count(*), sum(id) FROM par_t WHERE k > 0 AND (id::numeric + 0) >= 0;
SELECT count(*), sum(id) FROM serial_t WHERE k > 0;
-- every row exactly once: the differences both ways are empty
EXPLAIN (COSTS OFF) SELECT * FROM par_t EXCEPT ALL SELECT * FROM serial_t;
SELECT count(*) FROM (SELECT * FROM par_t EXCEPT ALL SELECT * FROM serial_t) d;
SELECT count(*) FROM (SELECT * FROM serial_t EXCEPT ALL SELECT * FROM par_t) d;
-- a condition PostgreSQL evaluates, the columns it needs fetched
SELECT count(*), sum(id) FROM par_t WHERE (k::numeric + 0) > 0 AND s LIKE '%7%';
SELECT count(*), sum(id) FROM serial_t WHERE (k::numeric + 0) > 0 AND s LIKE '%7%';
-- OR at the top of the sent WHERE: the range is added to all of it
SELECT count(*), sum(id) FROM par_t WHERE (k > 400 OR k < -400) AND (id::numeric + 0) >= 0;
SELECT count(*), sum(id) FROM serial_t WHERE k > 400 OR k < -400;

-- negative Int32, DateTime and Date split columns
SELECT count(*) FROM (SELECT * FROM par_k EXCEPT ALL SELECT * FROM serial_k) d;
SELECT count(*) FROM (SELECT * FROM par_ts EXCEPT ALL SELECT * FROM serial_k) d;
SELECT count(*) FROM (SELECT * FROM par_d EXCEPT ALL SELECT * FROM serial_k) d;
SELECT count(*), sum(v), min(ts), max(d) FROM par_ts WHERE (v::numeric + 0) >= 0;
SELECT count(*), sum(v), min(ts), max(d) FROM par_d WHERE (v::numeric + 0) >= 0;

-- FINAL: the versions of a row are in one range
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM par_final WHERE (id::numeric + 0) >= 0;
SELECT count(*) FROM (SELECT * FROM par_final EXCEPT ALL SELECT * FROM serial_final) d;
SELECT count(*), sum(id), count(*) FILTER (WHERE v = 'new') FROM par_final WHERE (id::numeric + 0) >= 0;
SELECT count(*), sum(id), count(*) FILTER (WHERE v = 'new') FROM serial_final;

-- a run-time value in the sent WHERE (a generic plan's parameter)
SET plan_cache_mode = force_generic_plan;
PREPARE q(int) AS SELECT count(*), sum(id) FROM par_t WHERE k > $1 AND (id::numeric + 0) >= 0;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE q(100);
EXECUTE q(100);
EXECUTE q(-100);
SELECT count(*), sum(id) FROM serial_t WHERE k > 100;
SELECT count(*), sum(id) FROM serial_t WHERE k > -100;
DEALLOCATE q;
RESET plan_cache_mode;

-- rescans: the Gather inside a nested loop, run once per outer row
SET enable_material = off;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF)
SELECT * FROM (SELECT count(*) AS c, sum(id) AS s FROM par_t WHERE (id::numeric + 0) >= 0) ss RIGHT JOIN (VALUES (1), (2), (3)) v(x) ON true;
SELECT * FROM (SELECT count(*) AS c, sum(id) AS s FROM par_t WHERE (id::numeric + 0) >= 0) ss RIGHT JOIN (VALUES (1), (2), (3)) v(x) ON true;
RESET enable_material;
RESET enable_hashjoin;
RESET enable_mergejoin;

-- no worker launched (the leader reads every range), and workers alone
CREATE FUNCTION explain_analyze(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  l text;
BEGIN
  FOR l IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF l NOT LIKE '%Query ID%' THEN
      RETURN NEXT l;
    END IF;
  END LOOP;
END $$;
SET max_parallel_workers = 0;
SELECT explain_analyze('SELECT count(*), sum(id) FROM par_t WHERE (id::numeric + 0) >= 0');
SELECT count(*), sum(id) FROM par_t WHERE (id::numeric + 0) >= 0;
RESET max_parallel_workers;
SET parallel_leader_participation = off;
SELECT count(*), sum(id) FROM par_t WHERE (id::numeric + 0) >= 0;
RESET parallel_leader_participation;

-- no usable split column, the option off: serial plans
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_str WHERE (v::numeric + 0) >= 0;
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_log WHERE (id::numeric + 0) >= 0;
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_off WHERE (id::numeric + 0) >= 0;
SELECT count(*), sum(v) FROM par_str WHERE (v::numeric + 0) >= 0;
SELECT count(*), sum(id) FROM par_log WHERE (id::numeric + 0) >= 0;
-- the option on the server, 0 on the table
ALTER SERVER ch_par OPTIONS (ADD parallel_workers '2');
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_off WHERE (id::numeric + 0) >= 0;
ALTER FOREIGN TABLE par_off OPTIONS (ADD parallel_workers '0');
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_off WHERE (id::numeric + 0) >= 0;

-- a server that cannot be asked at plan time (a user ClickHouse does not know): a serial
-- plan, and the scan fails with the server's error (before: the planning failed)
CREATE SERVER ch_par_nouser FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db', parallel_workers '2');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_par_nouser OPTIONS (user 'no_such_user');
CREATE FOREIGN TABLE par_nouser (id bigint, ts timestamptz, k int, s text, n int)
  SERVER ch_par_nouser OPTIONS (table 'par_t');
EXPLAIN (COSTS OFF) SELECT count(*) FROM par_nouser WHERE (id::numeric + 0) >= 0;
\set VERBOSITY terse
SELECT count(*) FROM par_nouser WHERE (id::numeric + 0) >= 0;
\set VERBOSITY default
SET client_min_messages = warning;
DROP SERVER ch_par_nouser CASCADE;
RESET client_min_messages;

SELECT clickhouse_exec('ch_par', 'DROP TABLE ' || :'ch_db' || '.par_t');
SELECT clickhouse_exec('ch_par', 'DROP TABLE ' || :'ch_db' || '.par_k');
SELECT clickhouse_exec('ch_par', 'DROP TABLE ' || :'ch_db' || '.par_ts');
SELECT clickhouse_exec('ch_par', 'DROP TABLE ' || :'ch_db' || '.par_d');
SELECT clickhouse_exec('ch_par', 'DROP TABLE ' || :'ch_db' || '.par_final');
SELECT clickhouse_exec('ch_par', 'DROP TABLE ' || :'ch_db' || '.par_str');
SELECT clickhouse_exec('ch_par', 'DROP TABLE ' || :'ch_db' || '.par_log');
