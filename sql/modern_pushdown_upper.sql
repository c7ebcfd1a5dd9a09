-- ====================================================================
-- DISTINCT, windows and grouping sets on the ClickHouse 26.5 engine (chDB
-- behind test/chdb/front.py, a test harness, not a server): all three are
-- sent, each compared with the local copy. The body, shared with
-- pushdown_upper.sql (18.16), is sql/include/pushdown_upper.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_up FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_up;
\i sql/include/pushdown_upper.sql
DROP SERVER ch_up CASCADE;
