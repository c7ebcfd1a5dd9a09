-- ====================================================================
-- Function and operator pushdown on ClickHouse 18.16. The body, shared with
-- modern_pushdown_functions.sql (the 26.5 engine), is sql/include/pushdown_functions.sql. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_pf FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_pf;
\i sql/include/pushdown_functions.sql
DROP SERVER ch_pf CASCADE;
