-- ====================================================================
-- jsonb operators on read_as 'json' columns on the ClickHouse 26.5 engine
-- (chDB behind test/chdb/front.py, a test harness, not a server). The body
-- is sql/include/jsonb_pushdown.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_jp FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_jp;
\i sql/include/jsonb_pushdown.sql
DROP SERVER ch_jp CASCADE;
