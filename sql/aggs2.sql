-- ====================================================================
-- Aggregates of expressions and the edges of issue 17's item 7 on
-- ClickHouse 18.16 (the body, shared with modern_aggs2.sql, is
-- sql/include/aggs2.sql). Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_a2 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_a2;
\i sql/include/aggs2.sql
DROP SERVER ch_a2 CASCADE;
