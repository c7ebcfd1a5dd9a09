-- ====================================================================
-- Scalar subqueries in the SELECT list, EXISTS/IN under OR and GROUPING()
-- of expressions on ClickHouse 18.16 (the body, shared with
-- modern_subquery3.sql, is sql/include/subquery3.sql). 18.16 runs no
-- correlated subqueries: they stay local, shown local here. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_s3 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_s3;
\i sql/include/subquery3.sql
DROP SERVER ch_s3 CASCADE;
