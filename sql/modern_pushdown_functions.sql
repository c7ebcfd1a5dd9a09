-- ====================================================================
-- Function and operator pushdown on the ClickHouse 26.5 engine (chDB behind
-- test/chdb/front.py, a test harness, not a server). The body, shared with
-- pushdown_functions.sql (18.16), is sql/include/pushdown_functions.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_pf FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_pf;
\i sql/include/pushdown_functions.sql
DROP SERVER ch_pf CASCADE;
