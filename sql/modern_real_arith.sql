-- ====================================================================
-- real arithmetic on the ClickHouse 26.5 engine (chDB behind test/chdb/front.py, a test
-- harness, not a server; the body, shared with
-- real_arith.sql, is sql/include/real_arith.sql). Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_ra FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_ra;
\i sql/include/real_arith.sql
DROP SERVER ch_ra CASCADE;
