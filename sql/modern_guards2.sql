-- ====================================================================
-- The float aggregates' overflow guards on the UNION ALL grouped path and
-- on grouping sets, the ClickHouse 26.5 engine (chDB behind
-- test/chdb/front.py, a test harness, not a server). The body, shared
-- with guards2.sql (18.16), is sql/include/guards2.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_g2 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db', settings 'max_threads=1');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_g2;
\i sql/include/guards2.sql
DROP SERVER ch_g2 CASCADE;
