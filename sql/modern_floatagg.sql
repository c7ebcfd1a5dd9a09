-- ====================================================================
-- Grouped float sum / avg / variance family with PostgreSQL's overflow
-- errors on the ClickHouse 26.5 engine (chDB behind test/chdb/front.py, a
-- test harness, not a server; src/fdw/agg_float.c); regr_avgx /
-- regr_avgy sent through agg_regr.c's arrayFold replay. The body, shared
-- with floatagg.sql (18.16), is sql/include/floatagg.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_fa FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db', settings 'max_threads=1');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_fa;
\i sql/include/floatagg.sql
DROP SERVER ch_fa CASCADE;
