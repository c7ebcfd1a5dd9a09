-- ====================================================================
-- Modern errors: a ClickHouse 26.5 engine's exceptions (chDB behind
-- test/chdb/front.py, a test harness, which answers like a 26.5 server:
-- "Code: N. DB::Exception: ... (NAME) (version 26.5.1.1)", the HTTP status
-- of exceptionCodeToHTTPStatus, X-ClickHouse-Exception-Code, code 516 for
-- a wrong password, and a 25.11+ "__exception__" block after HTTP 200 for a
-- query that fails mid-stream). Live (see modern_types.sql).
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
CREATE SERVER ch_merr FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress_modern');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_merr;
\i sql/include/show_error.sql

-- ==== the fields of an exception (as errors.sql): the modern text's code
-- name and "(version ...)" stay out of the message
CREATE FOREIGN TABLE no_such_table (a int) SERVER ch_merr;
SELECT * FROM show_error('SELECT * FROM no_such_table');
CREATE FOREIGN TABLE fails_late (n bigint) SERVER ch_merr;
SELECT * FROM show_error('SELECT count(*) FROM fails_late WHERE n::numeric + 0 >= 0');
CREATE SERVER ch_mauth FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_mauth OPTIONS (user 'tester', password 'wrong');
CREATE FOREIGN TABLE one_auth (dummy smallint) SERVER ch_mauth OPTIONS (database 'system', table 'one');
SELECT * FROM show_error('SELECT * FROM one_auth');

-- query ids differ from run to run: the rest shows messages without DETAIL
\set VERBOSITY terse

-- ==== unknown table, column, database
SELECT * FROM no_such_table;
\echo :LAST_ERROR_SQLSTATE
CREATE FOREIGN TABLE no_such_column (nope int) SERVER ch_merr OPTIONS (table 'ints');
SELECT * FROM no_such_column;
\echo :LAST_ERROR_SQLSTATE
CREATE FOREIGN TABLE no_such_db (id int) SERVER ch_merr OPTIONS (database 'no_such_db', table 'ints');
SELECT * FROM no_such_db;
\echo :LAST_ERROR_SQLSTATE

-- ==== an exception after HTTP 200 and more than 1 MiB of rows: an error, never a
-- short result (the condition is not sent, so every row streams)
SELECT count(*) FROM fails_late WHERE n::numeric + 0 >= 0;
\echo :LAST_ERROR_SQLSTATE
-- the same failure before the first byte (the aggregate runs in ClickHouse)
SELECT count(*) FROM fails_late;
\echo :LAST_ERROR_SQLSTATE
-- the connection is usable afterwards
CREATE FOREIGN TABLE ints (id int, u8 int) SERVER ch_merr;
SELECT count(*), sum(u8) FROM ints;

-- ==== settings reach the engine: a limit it enforces is its error
ALTER SERVER ch_merr OPTIONS (ADD settings 'max_result_rows=2, result_overflow_mode=throw');
SELECT id FROM ints WHERE id + 0 > 0;
\echo :LAST_ERROR_SQLSTATE
ALTER SERVER ch_merr OPTIONS (DROP settings);
SELECT id FROM ints WHERE id + 0 > 0 ORDER BY id;

-- ==== authentication: a modern server answers code 516 (AUTHENTICATION_FAILED)
SELECT * FROM one_auth;
\echo :LAST_ERROR_SQLSTATE
ALTER USER MAPPING FOR CURRENT_USER SERVER ch_mauth OPTIONS (SET user 'nobody');
SELECT * FROM one_auth;
\echo :LAST_ERROR_SQLSTATE
-- the right password works
ALTER USER MAPPING FOR CURRENT_USER SERVER ch_mauth OPTIONS (SET user 'tester', SET password 'tester_pw');
SELECT * FROM one_auth;

\set VERBOSITY default
DROP SERVER ch_mauth CASCADE;
DROP SERVER ch_merr CASCADE;
DROP FUNCTION show_error(text);
