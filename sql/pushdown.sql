-- ====================================================================
-- Pushdown of WHERE, ORDER BY and LIMIT: what is shipped (EXPLAIN pins the
-- Remote SQL) and that shipping never changes an answer (every condition
-- is run on the foreign table and on a local copy of the same rows).
-- Live (see types.sql). The body, shared with modern_pushdown_base.sql (the
-- 26.5 engine), is sql/include/pushdown_base.sql.
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
\set ch_db regress
CREATE SERVER ch_pd FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_pd;
-- clickhouse_exec with rows in VALUES is HTTP-only (the native protocol takes
-- rows as blocks): the body's fixture rows go through this HTTP server
\getenv http_port CH_HTTP_PORT
\set ch_sql ch_pd_http
CREATE SERVER ch_pd_http FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'http_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_pd_http;
\i sql/include/pushdown_base.sql
DROP SERVER ch_pd, ch_pd_http CASCADE;
