-- pgTAP: who may do what (README, "Security"): the functions' privileges
-- after a fresh install and after an upgrade from 1.0, and the SQLSTATEs a
-- non-superuser meets. Run by test/check.sh with pg_prove; the live checks
-- use the 18.16 server (user tester/tester_pw).
\set ON_ERROR_STOP 1
\set QUIET 1
\pset format unaligned
\pset tuples_only true
\pset pager off
\getenv ch_port CH_HTTP_PORT

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
SELECT plan(21);

-- ==== the upgrade from 1.0 takes EXECUTE on the SQL functions from PUBLIC
CREATE EXTENSION clickhouse_fdw VERSION '1.0';
SELECT ok(has_function_privilege('public', 'clickhouse_exec(name, text)', 'EXECUTE'),
          '1.0: PUBLIC could run clickhouse_exec');
ALTER EXTENSION clickhouse_fdw UPDATE TO '1.1';
SELECT is((SELECT extversion FROM pg_extension WHERE extname = 'clickhouse_fdw'), '1.1',
          'updated to 1.1');
SELECT ok(NOT has_function_privilege('public', 'clickhouse_exec(name, text)', 'EXECUTE'),
          '1.1: clickhouse_exec is not for PUBLIC');
SELECT ok(NOT has_function_privilege('public', 'clickhouse_raw_query(name, text)', 'EXECUTE'),
          '1.1: clickhouse_raw_query is not for PUBLIC');
-- 1.2: clickhouse_fdw_connections shows the hosts in use (option host lists)
ALTER EXTENSION clickhouse_fdw UPDATE TO '1.2';
SELECT is((SELECT extversion FROM pg_extension WHERE extname = 'clickhouse_fdw'), '1.2',
          'updated to 1.2');
SELECT is((SELECT proargnames[array_upper(proargnames, 1)] FROM pg_proc
            WHERE proname = 'clickhouse_fdw_connections'), 'hosts',
          '1.2: clickhouse_fdw_connections ends with the hosts in use');
SELECT ok(has_function_privilege('public', 'clickhouse_fdw_connections()', 'EXECUTE'),
          'clickhouse_fdw_connections stays PUBLIC (no secrets in it)');
DROP EXTENSION clickhouse_fdw;
CREATE EXTENSION clickhouse_fdw;
SELECT ok(NOT has_function_privilege('public', 'clickhouse_exec(name, text)', 'EXECUTE'),
          'a fresh install: clickhouse_exec is not for PUBLIC');

-- ==== a non-superuser
CREATE SERVER tap_sec FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (host '127.0.0.1', port :'ch_port', dbname 'regress', settings 'max_threads=2');
CREATE ROLE tap_chfdw_user;
GRANT USAGE ON FOREIGN DATA WRAPPER clickhouse_fdw TO tap_chfdw_user;
GRANT USAGE ON FOREIGN SERVER tap_sec TO tap_chfdw_user;
GRANT CREATE, USAGE ON SCHEMA public TO tap_chfdw_user;
SET ROLE tap_chfdw_user;
CREATE USER MAPPING FOR CURRENT_USER SERVER tap_sec;
CREATE FOREIGN TABLE tap_ints (id int) SERVER tap_sec OPTIONS (table 'ints');
SELECT throws_ok('SELECT count(*) FROM tap_ints', '2F003', 'password is required',
                 'a mapping without a password: 2F003');
SELECT throws_ok($$ALTER USER MAPPING FOR CURRENT_USER SERVER tap_sec OPTIONS (ADD password_required 'false')$$,
                 '42501', NULL, 'password_required false is superuser-only: 42501');
ALTER USER MAPPING FOR CURRENT_USER SERVER tap_sec OPTIONS (ADD user 'tester', password 'tester_pw');
SELECT is((SELECT count(*) FROM tap_ints), 3::bigint, 'with a password it connects');
SELECT throws_ok($$SET clickhouse_fdw.settings = 'query=DROP TABLE regress.ints'$$, '22023', NULL,
                 'an HTTP parameter in clickhouse_fdw.settings: 22023');
SELECT throws_ok($$SET clickhouse_fdw.settings = 'user=default'$$, '22023', NULL,
                 'user in clickhouse_fdw.settings: 22023');
SELECT throws_ok($$ALTER USER MAPPING FOR CURRENT_USER SERVER tap_sec OPTIONS (ADD settings 'password=x')$$,
                 'HV00D', NULL, 'an HTTP parameter in the mapping''s settings: HV00D');
SET clickhouse_fdw.settings = 'max_threads=16';
SELECT throws_ok('SELECT count(*) FROM tap_ints', '42501', NULL,
                 'the GUC cannot change what the server fixed: 42501');
RESET clickhouse_fdw.settings;
ALTER USER MAPPING FOR CURRENT_USER SERVER tap_sec OPTIONS (ADD settings 'max_threads=16');
SELECT throws_ok('SELECT count(*) FROM tap_ints', '42501', NULL,
                 'the mapping cannot change what the server fixed: 42501');
ALTER USER MAPPING FOR CURRENT_USER SERVER tap_sec OPTIONS (DROP settings);
CREATE SERVER tap_own FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER tap_own OPTIONS (user 'tester', password 'tester_pw');
CREATE FOREIGN TABLE tap_own_ints (id int) SERVER tap_own OPTIONS (table 'ints');
SELECT throws_ok('SELECT count(*) FROM tap_own_ints', '2F003', NULL,
                 'its own server without host: 2F003');
SELECT throws_ok($$ALTER SERVER tap_own OPTIONS (ADD host 'evil/x#')$$, 'HV024', NULL,
                 'a host with a path: HV024');
SELECT throws_ok($$SELECT clickhouse_exec('tap_sec', 'SELECT 1')$$, '42501', NULL,
                 'clickhouse_exec without a grant: 42501');
SELECT throws_ok($$SELECT clickhouse_raw_query('tap_sec', 'SELECT 1')$$, '42501', NULL,
                 'clickhouse_raw_query without a grant: 42501');
RESET ROLE;
GRANT EXECUTE ON FUNCTION clickhouse_raw_query(name, text) TO tap_chfdw_user;
SET ROLE tap_chfdw_user;
SELECT is(clickhouse_raw_query('tap_sec', 'SELECT 7'), E'7\n', 'granted: it runs');
RESET ROLE;

SELECT * FROM finish();
ROLLBACK;
