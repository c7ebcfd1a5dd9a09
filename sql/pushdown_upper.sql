-- ====================================================================
-- DISTINCT, windows and grouping sets on ClickHouse 18.16 (the body, shared
-- with modern_pushdown_upper.sql, is sql/include/pushdown_upper.sql): DISTINCT
-- is sent; 18.16 has no window functions and no GROUPING SETS (its WITH
-- ROLLUP / WITH CUBE fill the type's default, not NULL), so those stay local,
-- with the same answers. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_up FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_up;
\i sql/include/pushdown_upper.sql
DROP SERVER ch_up CASCADE;
