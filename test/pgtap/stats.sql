-- pgTAP: the statistics view clickhouse_fdw_stats (per backend here: the
-- test cluster does not preload the library; test/stats_shared.sh checks
-- the shared counters). Live, ClickHouse 18.16.
\set ON_ERROR_STOP 1
\set QUIET 1
\pset format unaligned
\pset tuples_only true
\pset pager off
\getenv ch_port CH_HTTP_PORT

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
CREATE EXTENSION clickhouse_fdw;
SELECT plan(18);

SELECT has_view('clickhouse_fdw_stats');
SELECT columns_are('clickhouse_fdw_stats', ARRAY['server', 'host', 'scope', 'queries', 'inserts',
  'rows_received', 'bytes_received', 'rows_sent', 'bytes_sent', 'retries', 'failovers',
  'wait_seconds', 'errors', 'errors_by_sqlstate', 'since']);
SELECT ok(NOT has_function_privilege('public', 'clickhouse_fdw_stats_reset()', 'EXECUTE'),
          'resetting is not for PUBLIC');

CREATE SERVER st FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host '127.0.0.1', port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER st OPTIONS (user 'tester', password 'tester_pw');
CREATE FOREIGN TABLE st_million (n bigint, s text) SERVER st OPTIONS (table 'million');
CREATE FOREIGN TABLE st_nosuch (a int) SERVER st OPTIONS (table 'no_such_table');
SELECT clickhouse_exec('st', 'DROP TABLE IF EXISTS regress.st_ins');
SELECT clickhouse_exec('st', 'CREATE TABLE regress.st_ins (id UInt32) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE st_ins (id int) SERVER st OPTIONS (table 'st_ins', batch_size '1000');
SELECT clickhouse_fdw_stats_reset();
CREATE TEMP TABLE s0 AS SELECT * FROM clickhouse_fdw_stats WHERE server = 'st';

-- (n + 0 stays local: every row of the range travels)
SELECT is((SELECT count(*) FROM st_million WHERE n < 100000 AND (n + 0) >= 0), 100000::bigint, 'a scan');
INSERT INTO st_ins SELECT g FROM generate_series(1, 2500) g;
SELECT throws_ok('SELECT * FROM st_nosuch', '42P01', NULL, 'a remote error');
SELECT throws_ok('SELECT * FROM st_nosuch', '42P01', NULL, 'the same again');
CREATE TEMP TABLE s1 AS SELECT * FROM clickhouse_fdw_stats WHERE server = 'st';

SELECT is((SELECT host || ' ' || scope FROM s1), '127.0.0.1:' || :'ch_port' || ' this backend',
          'one row: server, host in use (host:port), scope');
SELECT cmp_ok((SELECT queries FROM s1), '>=', 3::bigint, 'queries counted');
SELECT is((SELECT inserts FROM s1), 3::bigint, 'three INSERT blocks of 1000 rows');
SELECT is((SELECT rows_sent FROM s1), 2500::bigint, 'rows sent = rows committed');
SELECT cmp_ok((SELECT bytes_sent FROM s1), '>', 1000::bigint, 'bytes sent (lz4 frames)');
SELECT cmp_ok((SELECT rows_received FROM s1), '>=', 100000::bigint, 'rows received (the scan, the metadata)');
SELECT cmp_ok((SELECT bytes_received FROM s1), '>=', 800000::bigint, 'bytes received (100,000 UInt64 at least)');
SELECT cmp_ok((SELECT wait_seconds FROM s1), '>', 0::float8, 'time waiting on ClickHouse');
SELECT is((SELECT errors_by_sqlstate FROM s1), '{"42P01": 2}'::jsonb, 'remote errors by SQLSTATE');
SELECT is((SELECT errors FROM s1), 2::bigint, 'errors in all');
SELECT ok((SELECT row_to_json(s1)::text FROM s1) !~ 'tester', 'no user name or password in the view');
SELECT clickhouse_fdw_stats_reset();
SELECT is((SELECT queries + inserts + rows_received + errors FROM clickhouse_fdw_stats WHERE server = 'st'),
          0::bigint, 'reset: the counters are back to 0');

SELECT clickhouse_exec('st', 'DROP TABLE regress.st_ins');
SELECT * FROM finish();
ROLLBACK;
