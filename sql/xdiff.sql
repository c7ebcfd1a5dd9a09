-- ====================================================================
-- Random cross-construct differential test on ClickHouse 18.16 (the body,
-- shared with modern_xdiff.sql, is sql/include/xdiff.sql). Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_xd FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_xd;
\i sql/include/xdiff.sql
DROP SERVER ch_xd CASCADE;
