-- ====================================================================
-- The float aggregates' overflow guards on the UNION ALL grouped path and
-- on grouping sets, ClickHouse 18.16 (the UNION ALL grouped path is kept
-- local on 18.16; grouping sets are one SELECT per set). The body, shared
-- with modern_guards2.sql (26.5), is sql/include/guards2.sql. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_g2 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db', settings 'max_threads=1');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_g2;
\i sql/include/guards2.sql
DROP SERVER ch_g2 CASCADE;
