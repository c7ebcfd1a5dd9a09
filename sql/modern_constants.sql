-- ====================================================================
-- Constants as sent to the ClickHouse 26.5 engine (chDB behind
-- test/chdb/front.py, a test harness, not a server) (floatfix). The body,
-- shared with constants.sql (18.16), is sql/include/constants.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_cn FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_cn;
\i sql/include/constants.sql
DROP SERVER ch_cn CASCADE;
