-- ====================================================================
-- ORDER BY / LIMIT over UNION ALLs and correlated subqueries on
-- ClickHouse 18.16 (the body, shared with modern_subquery2.sql, is
-- sql/include/subquery2.sql). Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_s2 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db',
           settings 'allow_experimental_low_cardinality_type=1');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_s2;
\i sql/include/subquery2.sql
DROP SERVER ch_s2 CASCADE;
