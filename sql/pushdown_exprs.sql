-- ====================================================================
-- Expression pushdown on ClickHouse 18.16 (the body, shared with
-- modern_pushdown_exprs.sql, is sql/include/pushdown_exprs.sql). Live.
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
\set ch_db regress
CREATE SERVER ch_px FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_px;
\i sql/include/pushdown_exprs.sql
DROP SERVER ch_px CASCADE;
