-- ====================================================================
-- More function pushdown on ClickHouse 18.16 (fnmore): the guards' errors
-- with PostgreSQL's own SQLSTATE and message, sqrt, to_char patterns. The
-- body, shared with modern_functions_more.sql (the 26.5 engine), is
-- sql/include/functions_more.sql. Live.
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
\set ch_db regress
CREATE SERVER ch_fm FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_fm;
\i sql/include/functions_more.sql
DROP FUNCTION show_error(text), fm_one(text, text), fm_rand(text);
DROP SERVER ch_fm CASCADE;
