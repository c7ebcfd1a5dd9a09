-- ====================================================================
-- Aggregates sent to the ClickHouse 26.5 engine (chDB behind
-- test/chdb/front.py, a test harness, not a server). The body, shared with
-- aggs.sql (18.16), is sql/include/aggs.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_ag FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_ag;
\i sql/include/aggs.sql
DROP SERVER ch_ag CASCADE;
