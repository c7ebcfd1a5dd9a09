-- ====================================================================
-- ClickHouse's own functions and aggregates on ClickHouse 18.16. The body,
-- shared with modern_chfuncs.sql (the 26.5 engine), is
-- sql/include/chfuncs.sql. Live.
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
\set ch_db regress
CREATE SERVER ch_cf FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_cf;
-- the fixtures' INSERT ... VALUES statements go over HTTP
\getenv ch_http_port CH_HTTP_PORT
CREATE SERVER ch_cf_setup FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_http_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_cf_setup;
\set ch_setup ch_cf_setup
\i sql/include/chfuncs.sql
-- 18.16 has no groupBitmap and no toStartOfInterval (caps): never sent, so
-- PostgreSQL is asked and refuses
CREATE FOREIGN TABLE cf_ev (id int, n bigint, ts timestamptz) SERVER ch_cf OPTIONS (table 'cf_ev');
\i sql/include/show_error.sql
SELECT field, value FROM show_error($$SELECT clickhouse_raw_query('ch_cf_setup', 'SELECT groupBitmap(toUInt64(n)) FROM regress.cf_ev')$$)
WHERE field IN ('sqlstate', 'message');
EXPLAIN (VERBOSE, COSTS OFF) SELECT groupbitmap(n) FROM cf_ev;
\set VERBOSITY terse
SELECT groupbitmap(n) FROM cf_ev;
SELECT tostartofinterval(ts, interval '1 hour') FROM cf_ev;
SELECT id FROM cf_ev WHERE tostartofinterval(ts, interval '1 hour') > '2024-01-01 10:00:00+00';
\set VERBOSITY default
DROP FOREIGN TABLE cf_ev;
DROP FUNCTION show_error(text);
DROP SERVER ch_cf CASCADE;
DROP SERVER ch_cf_setup CASCADE;
