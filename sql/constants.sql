-- ====================================================================
-- Constants as sent to ClickHouse 18.16 (floatfix): float constants bit
-- for bit. The body, shared with modern_constants.sql (the 26.5 engine),
-- is sql/include/constants.sql. Live.
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
\set ch_db regress
CREATE SERVER ch_cn FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_cn;
\i sql/include/constants.sql
DROP SERVER ch_cn CASCADE;
