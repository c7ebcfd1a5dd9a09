-- pgTAP: the extension's objects and the SQLSTATEs of its errors.
-- Run by test/check.sh with pg_prove against the throwaway PostgreSQL of
-- test/servers.sh; the live checks use the 18.16 server and its fixtures.
\set ON_ERROR_STOP 1
\set QUIET 1
\pset format unaligned
\pset tuples_only true
\pset pager off
\getenv ch_port CH_HTTP_PORT

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
CREATE EXTENSION clickhouse_fdw;

SELECT plan(31);

-- ==== objects
SELECT has_extension('clickhouse_fdw');
SELECT has_function('clickhouse_fdw_handler', ARRAY[]::text[]);
SELECT has_function('clickhouse_fdw_validator', ARRAY['text[]', 'oid']);
SELECT has_function('clickhouse_fdw_version', ARRAY[]::text[]);
SELECT has_function('clickhouse_raw_query', ARRAY['name', 'text']);
SELECT has_function('clickhouse_exec', ARRAY['name', 'text']);
SELECT has_function('clickhouse_exec_on_cluster', ARRAY['name', 'text']);
SELECT ok(NOT has_function_privilege('public', 'clickhouse_exec_on_cluster(name, text)', 'EXECUTE'), 'clickhouse_exec_on_cluster is not executable by PUBLIC');
SELECT has_function('clickhouse_fdw_connections', ARRAY[]::text[]);
SELECT throws_ok($$SET clickhouse_fdw.settings = 'bad name=1'$$, '22023', NULL,
                 'a malformed clickhouse_fdw.settings: 22023');
SELECT function_returns('clickhouse_fdw_handler', ARRAY[]::text[], 'fdw_handler');
SELECT function_returns('clickhouse_fdw_version', ARRAY[]::text[], 'text');
SELECT is((SELECT fdwhandler::regproc::text FROM pg_foreign_data_wrapper WHERE fdwname = 'clickhouse_fdw'),
          'clickhouse_fdw_handler', 'the wrapper uses the handler');
SELECT is((SELECT fdwvalidator::regproc::text FROM pg_foreign_data_wrapper WHERE fdwname = 'clickhouse_fdw'),
          'clickhouse_fdw_validator', 'the wrapper uses the validator');

-- ==== option errors
SELECT throws_ok($$CREATE SERVER s1 FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (hots 'a')$$,
                 'HV00D', 'invalid option "hots" for a foreign server', 'unknown server option: HV00D');
SELECT throws_ok($$CREATE SERVER s1 FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port 'x')$$,
                 'HV024', NULL, 'bad port: HV024');
SELECT throws_ok($$CREATE SERVER s1 FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host '')$$,
                 'HV024', NULL, 'empty host: HV024');
SELECT throws_ok($$CREATE SERVER s1 FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (transport 'x')$$,
                 'HV024', NULL, 'bad transport: HV024');
SELECT lives_ok($$CREATE SERVER s0 FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (transport 'native'); DROP SERVER s0$$,
                'transport native is accepted');
SELECT lives_ok($$CREATE SERVER s1 FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port '9')$$,
                'a valid server');
SELECT throws_ok($$CREATE USER MAPPING FOR CURRENT_USER SERVER s1 OPTIONS (host 'x')$$,
                 'HV00D', NULL, 'server option on a user mapping: HV00D');
SELECT throws_ok($$CREATE FOREIGN TABLE t1 (a int) SERVER s1 OPTIONS (tabel 'x')$$,
                 'HV00D', NULL, 'unknown table option: HV00D');
SELECT throws_ok($$CREATE FOREIGN TABLE t1 (a int OPTIONS (colum_name 'x')) SERVER s1$$,
                 'HV00D', NULL, 'unknown column option: HV00D');

-- ==== errors from a live server
CREATE SERVER live FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER live;
CREATE FOREIGN TABLE nosuch (a int) SERVER live;
CREATE FOREIGN TABLE fails_late (n bigint) SERVER live;
CREATE FOREIGN TABLE ints_narrow (u64 bigint) SERVER live OPTIONS (table 'ints');
CREATE FOREIGN TABLE badutf8 (s text) SERVER live OPTIONS (table 'str_badutf8');
CREATE FOREIGN TABLE arrays (a int) SERVER live;
CREATE FOREIGN TABLE aggstate (s numeric) SERVER live;
SELECT throws_ok('SELECT * FROM nosuch', '42P01', NULL, 'unknown ClickHouse table: 42P01');
SELECT throws_ok('SELECT count(*) FROM fails_late', 'P0001', NULL,
                 'exception after the stream started (throwIf): P0001');
SELECT throws_ok('SELECT * FROM ints_narrow', '22003', NULL, 'UInt64 above bigint: 22003');
SELECT throws_ok('SELECT * FROM badutf8', '22021', NULL, 'invalid UTF-8 as text: 22021');
SELECT throws_ok('SELECT * FROM arrays', 'HV004', NULL, 'an Array read as a scalar: HV004');
SELECT throws_ok('SELECT * FROM aggstate', '0A000', NULL, 'an aggregate function state: 0A000');

CREATE SERVER wrongpw FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port');
CREATE USER MAPPING FOR CURRENT_USER SERVER wrongpw OPTIONS (user 'tester', password 'not-the-password');
CREATE FOREIGN TABLE wrongpw_one (dummy smallint) SERVER wrongpw OPTIONS (database 'system', table 'one');
SELECT throws_ok('SELECT * FROM wrongpw_one', '28P01', NULL, 'wrong password: 28P01');

CREATE SERVER closed FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port '1');
CREATE USER MAPPING FOR CURRENT_USER SERVER closed;
CREATE FOREIGN TABLE closed_t (a int) SERVER closed;
SELECT throws_ok('SELECT * FROM closed_t', '08001', NULL, 'nothing listening: 08001');

SELECT * FROM finish();
ROLLBACK;
