-- ====================================================================
-- real arithmetic on ClickHouse 18.16 (the body, shared with
-- modern_real_arith.sql, is sql/include/real_arith.sql). Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_ra FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_ra;
\i sql/include/real_arith.sql
DROP SERVER ch_ra CASCADE;
