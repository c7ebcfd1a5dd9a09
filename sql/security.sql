-- ====================================================================
-- Security: settings that are not settings, their precedence and quoting,
-- password_required, servers without a host, host validation, and the
-- privileges of the SQL functions; a non-superuser matrix in the style of
-- postgres_fdw's. Live (ClickHouse 18.16; user tester/tester_pw).
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
CREATE SERVER sec_srv FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (host '127.0.0.1', port :'ch_port', dbname 'regress', settings 'max_threads=2');
CREATE USER MAPPING FOR CURRENT_USER SERVER sec_srv;
CREATE FOREIGN TABLE sec_settings (name text, value text) SERVER sec_srv
  OPTIONS (database 'system', table 'settings');
CREATE FUNCTION sec_setting(n text) RETURNS text LANGUAGE sql
  AS $$ SELECT value FROM sec_settings WHERE name = n $$;
-- (the table the attacks below would create; an older build created it)
SELECT clickhouse_exec('sec_srv', 'DROP TABLE IF EXISTS default.pwn');

-- ==== HTTP parameters that are not settings are refused: GUC, server, mapping
SET clickhouse_fdw.settings = 'query=CREATE TABLE default.pwn ENGINE = Memory AS';
SET clickhouse_fdw.settings = 'user=foo';
SET clickhouse_fdw.settings = 'max_threads=1, Password=x';
SET clickhouse_fdw.settings = 'QUERY_ID=x';
SET clickhouse_fdw.settings = 'param_x=1';
SET clickhouse_fdw.settings = 'session_id=s1';
SET clickhouse_fdw.settings = 'default_format=JSON';
SET clickhouse_fdw.settings = 'wait_end_of_query=1';
ALTER SERVER sec_srv OPTIONS (SET settings 'database=system');
ALTER USER MAPPING FOR CURRENT_USER SERVER sec_srv OPTIONS (ADD settings 'decompress=1');
-- settings that would change the answers the FDW relies on
SET clickhouse_fdw.settings = 'extremes=1';
SET clickhouse_fdw.settings = 'join_use_nulls=0';
SET clickhouse_fdw.settings = 'insert_deduplication_token=abc';
SET clickhouse_fdw.settings = 'output_format_native_encode_types_in_binary_format=1';
SET clickhouse_fdw.settings = 'result_overflow_mode=break';
SET clickhouse_fdw.settings = 'group_by_overflow_mode = any';
SET clickhouse_fdw.settings = 'result_overflow_mode=throw';
RESET clickhouse_fdw.settings;
-- nothing was created by the attempts above
SELECT clickhouse_raw_query('sec_srv', 'EXISTS TABLE default.pwn');

-- ==== quoting: commas, quotes and line breaks in values; items on lines
SET clickhouse_fdw.settings = 'format_csv_delimiter='','', max_block_size=4321';
SELECT sec_setting('format_csv_delimiter') AS delim, sec_setting('max_block_size') AS block;
SET clickhouse_fdw.settings = 'format_csv_delimiter=''''''''';
SELECT sec_setting('format_csv_delimiter') AS delim;
SET clickhouse_fdw.settings = E'max_block_size = 1111\nmax_insert_block_size=2222\n';
SELECT sec_setting('max_block_size') AS block, sec_setting('max_insert_block_size') AS insert_block;
SET clickhouse_fdw.settings = E'format_csv_delimiter = ''x\ny''';
SET clickhouse_fdw.settings = 'format_csv_delimiter=''a';
SET clickhouse_fdw.settings = 'format_csv_delimiter=''a''b';
SET clickhouse_fdw.settings = 'format_csv_delimiter=a''b';
SET clickhouse_fdw.settings = 'max_block_size=';
RESET clickhouse_fdw.settings;

-- ==== precedence: the server's settings are fixed, then the mapping's
SELECT sec_setting('max_threads') AS server_threads;
SET clickhouse_fdw.settings = 'max_threads=8';
SELECT sec_setting('max_threads');
RESET clickhouse_fdw.settings;
ALTER USER MAPPING FOR CURRENT_USER SERVER sec_srv OPTIONS (ADD settings 'max_threads=8');
SELECT sec_setting('max_threads');
ALTER USER MAPPING FOR CURRENT_USER SERVER sec_srv OPTIONS (SET settings 'max_block_size=3333');
SET clickhouse_fdw.settings = 'max_block_size=5';
SELECT sec_setting('max_block_size');
-- what no level above sets, a lower level may add
SET clickhouse_fdw.settings = 'max_insert_block_size=4444';
SELECT sec_setting('max_threads') AS threads, sec_setting('max_block_size') AS block,
       sec_setting('max_insert_block_size') AS insert_block;
RESET clickhouse_fdw.settings;
ALTER USER MAPPING FOR CURRENT_USER SERVER sec_srv OPTIONS (DROP settings);

-- ==== host validation
CREATE SERVER sec_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host 'svc/admin#');
CREATE SERVER sec_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host 'user@host');
CREATE SERVER sec_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host 'h:8123/admin');
CREATE SERVER sec_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host 'h, user@h2');
CREATE SERVER sec_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host 'a b');
CREATE SERVER sec_ok1 FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host 'ch-1.example_net.local');
CREATE SERVER sec_ok2 FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host '::1');
CREATE SERVER sec_ok3 FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host '[::1]');
DROP SERVER sec_ok1, sec_ok2, sec_ok3;

-- ==== a non-superuser
CREATE ROLE regress_chfdw_user;
GRANT USAGE ON FOREIGN DATA WRAPPER clickhouse_fdw TO regress_chfdw_user;
GRANT USAGE ON FOREIGN SERVER sec_srv TO regress_chfdw_user;
GRANT CREATE ON SCHEMA public TO regress_chfdw_user;
SET ROLE regress_chfdw_user;
-- a mapping without a password: refused when it connects, as in postgres_fdw
CREATE USER MAPPING FOR CURRENT_USER SERVER sec_srv;
CREATE FOREIGN TABLE sec_ints (id int) SERVER sec_srv OPTIONS (table 'ints');
SELECT count(*) FROM sec_ints;
ALTER USER MAPPING FOR CURRENT_USER SERVER sec_srv OPTIONS (ADD password_required 'false');
CREATE USER MAPPING FOR CURRENT_USER SERVER sec_srv OPTIONS (password_required 'false');
ALTER USER MAPPING FOR CURRENT_USER SERVER sec_srv OPTIONS (ADD password_required 'true');
ALTER USER MAPPING FOR CURRENT_USER SERVER sec_srv OPTIONS (ADD user 'tester', password 'tester_pw');
SELECT count(*) FROM sec_ints;
-- the GUC cannot override what the server fixed, nor name HTTP parameters
SET clickhouse_fdw.settings = 'max_threads=8';
SELECT count(*) FROM sec_ints;
SET clickhouse_fdw.settings = 'query=DROP TABLE regress.ints';
RESET clickhouse_fdw.settings;
-- its own server without host does not silently mean loopback
CREATE SERVER sec_own FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port');
CREATE USER MAPPING FOR CURRENT_USER SERVER sec_own OPTIONS (user 'tester', password 'tester_pw');
CREATE FOREIGN TABLE own_ints (id int) SERVER sec_own OPTIONS (database 'regress', table 'ints');
SELECT count(*) FROM own_ints;
ALTER SERVER sec_own OPTIONS (ADD host '127.0.0.1');
SELECT count(*) FROM own_ints;
-- the raw query and exec functions are not for PUBLIC
SELECT clickhouse_raw_query('sec_srv', 'SELECT 1');
SELECT clickhouse_exec('sec_srv', 'CREATE TABLE default.pwn (a UInt8) ENGINE = Memory');
RESET ROLE;
-- a PUBLIC mapping without a password does not help a non-superuser
DROP USER MAPPING FOR regress_chfdw_user SERVER sec_srv;
CREATE USER MAPPING FOR PUBLIC SERVER sec_srv;
SET ROLE regress_chfdw_user;
SELECT count(*) FROM sec_ints;
RESET ROLE;
DROP USER MAPPING FOR PUBLIC SERVER sec_srv;
-- a superuser may waive the password for a mapping it makes
CREATE USER MAPPING FOR regress_chfdw_user SERVER sec_srv OPTIONS (password_required 'false');
SET ROLE regress_chfdw_user;
SELECT count(*) FROM sec_ints;
RESET ROLE;
-- after GRANT EXECUTE the functions work for that role
GRANT EXECUTE ON FUNCTION clickhouse_raw_query(name, text) TO regress_chfdw_user;
SET ROLE regress_chfdw_user;
SELECT clickhouse_raw_query('sec_srv', 'SELECT 42');
RESET ROLE;
SELECT has_function_privilege('public', 'clickhouse_exec(name, text)', 'EXECUTE') AS public_exec,
       has_function_privilege('public', 'clickhouse_raw_query(name, text)', 'EXECUTE') AS public_raw;
SELECT clickhouse_raw_query('sec_srv', 'EXISTS TABLE default.pwn');

-- ==== clean up
DROP OWNED BY regress_chfdw_user;
DROP ROLE regress_chfdw_user;
DROP SERVER sec_srv CASCADE;
DROP FUNCTION sec_setting(text);
