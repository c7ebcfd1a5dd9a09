-- ====================================================================
-- Random cross-construct differential test on the ClickHouse 26.5 engine
-- (chDB behind test/chdb/front.py, a test harness, not a server; the body,
-- shared with xdiff.sql, is sql/include/xdiff.sql). Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_xd FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_xd;
\i sql/include/xdiff.sql
DROP SERVER ch_xd CASCADE;
