-- ====================================================================
-- Aggregates over windows on ClickHouse 18.16, which has no window
-- functions: every query stays local and is compared with a local copy.
-- The body, shared with modern_winagg.sql (26.5: each sent), is
-- sql/include/winagg.sql. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_wa FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_wa;
\i sql/include/winagg.sql
DROP SERVER ch_wa CASCADE;
