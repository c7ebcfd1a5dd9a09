-- ====================================================================
-- Join pushdown on ClickHouse 18.16 (the body, shared with
-- modern_join_pushdown.sql, is sql/include/join_pushdown.sql). Live.
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
\set ch_db regress
CREATE SERVER ch_jd FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_jd;
\i sql/include/join_pushdown.sql
DROP SERVER ch_jd CASCADE;
