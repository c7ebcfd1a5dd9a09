-- ====================================================================
-- Grouped float sum / avg / variance family with PostgreSQL's overflow
-- errors on ClickHouse 18.16 (src/fdw/agg_float.c); regr_avgx / regr_avgy
-- by agg_float.c's easy / hard split (no arrayFold). The body, shared with
-- modern_floatagg.sql (26.5), is sql/include/floatagg.sql. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_fa FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db', settings 'max_threads=1');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_fa;
\i sql/include/floatagg.sql
DROP SERVER ch_fa CASCADE;
