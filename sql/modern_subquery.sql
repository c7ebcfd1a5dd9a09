-- ====================================================================
-- UNION ALL and subqueries on the ClickHouse 26.5 engine (chDB behind
-- test/chdb/front.py, a test harness, not a server). The body, shared with
-- subquery.sql (18.16), is sql/include/subquery.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_sq FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_sq;
\i sql/include/subquery.sql
DROP SERVER ch_sq CASCADE;
