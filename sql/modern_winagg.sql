-- ====================================================================
-- Aggregates over windows sent to the ClickHouse 26.5 engine (chDB behind
-- test/chdb/front.py, a test harness, not a server), each compared with a
-- local copy. The body, shared with winagg.sql (18.16: all local), is
-- sql/include/winagg.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_wa FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_wa;
\i sql/include/winagg.sql
DROP SERVER ch_wa CASCADE;
