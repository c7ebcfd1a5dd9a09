-- ====================================================================
-- Errors: remote exceptions keep their meaning; broken streams are never
-- returned as short results. Live (see types.sql).
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
CREATE SERVER ch_err FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_err;
\i sql/include/show_error.sql

-- ==== a ClickHouse exception reads like a PostgreSQL error: ClickHouse's message
-- alone, the exception class and code (and the code's name) in DETAIL with the
-- query id, the remote SQL in CONTEXT, the SQLSTATE from the code. The same on
-- both transports (HTTP sends text, TCP fields).
CREATE FOREIGN TABLE no_such_table (a int) SERVER ch_err;
SELECT * FROM show_error('SELECT * FROM no_such_table');
-- an exception inside a Native stream after rows were sent
CREATE FOREIGN TABLE fails_late (n bigint, boom smallint) SERVER ch_err;
SELECT * FROM show_error('SELECT max(n), max(boom) FROM (SELECT n, boom FROM fails_late OFFSET 0) s');
-- an exception while connecting
CREATE SERVER ch_auth FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (transport :'ch_transport', port :'ch_port');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_auth OPTIONS (user 'tester', password 'wrong');
CREATE FOREIGN TABLE one_auth (dummy smallint) SERVER ch_auth OPTIONS (database 'system', table 'one');
SELECT * FROM show_error('SELECT * FROM one_auth');

-- query ids differ from run to run: the rest shows messages without DETAIL
\set VERBOSITY terse

-- ==== unknown table and column
SELECT * FROM no_such_table;
CREATE FOREIGN TABLE no_such_column (nope int) SERVER ch_err OPTIONS (table 'ints');
SELECT * FROM no_such_column;

-- ==== an exception after HTTP 200 and many rows: an error, not a short result
SELECT count(*) FROM fails_late;
-- the connection is usable afterwards
CREATE FOREIGN TABLE ints (id int) SERVER ch_err;
SELECT count(*) FROM ints;

-- ==== types that cannot be read as declared, or at all
CREATE FOREIGN TABLE arrays (id int, a int) SERVER ch_err;
SELECT * FROM arrays;
SELECT id FROM arrays ORDER BY id;
CREATE FOREIGN TABLE aggstate (k int, s numeric) SERVER ch_err;
SELECT k FROM aggstate;
-- (the byte offset counts each transport's own framing: masked)
DO $$ BEGIN PERFORM * FROM aggstate;
EXCEPTION WHEN others THEN
  RAISE NOTICE '%: %', SQLSTATE, regexp_replace(SQLERRM, 'byte offset [0-9]+', 'byte offset <n>');
END $$;

-- ==== authentication: wrong password
SELECT * FROM one_auth;
-- the right password works; the password never appears in errors
ALTER USER MAPPING FOR CURRENT_USER SERVER ch_auth OPTIONS (SET password 'tester_pw');
SELECT * FROM one_auth;

-- ==== nothing listening: a connection error, and the backend survives
CREATE SERVER ch_closed FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (transport :'ch_transport', port '1');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_closed;
CREATE FOREIGN TABLE closed_t (a int) SERVER ch_closed;
-- (each transport names the address its own way: masked)
DO $$ BEGIN PERFORM * FROM closed_t;
EXCEPTION WHEN others THEN
  RAISE NOTICE '%: %', SQLSTATE, regexp_replace(SQLERRM, ' at .*', ' at <address>');
END $$;
SELECT 1 AS still_alive;

-- ==== no user mapping
CREATE SERVER ch_nomap FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (transport :'ch_transport', port :'ch_port');
CREATE FOREIGN TABLE nomap_t (a int) SERVER ch_nomap;
SELECT * FROM nomap_t;

DROP SERVER ch_err, ch_auth, ch_closed, ch_nomap CASCADE;
DROP FUNCTION show_error(text);
