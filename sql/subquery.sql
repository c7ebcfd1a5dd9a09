-- ====================================================================
-- UNION ALL and subqueries on ClickHouse 18.16 (the body, shared with
-- modern_subquery.sql, is sql/include/subquery.sql). Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_sq FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db',
           settings 'allow_experimental_low_cardinality_type=1');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_sq;
\i sql/include/subquery.sql
DROP SERVER ch_sq CASCADE;
