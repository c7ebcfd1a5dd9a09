-- ====================================================================
-- GROUP BY expressions, the HAVING split and partition-wise aggregation on
-- ClickHouse 18.16; the body, shared with modern_groupby.sql, is
-- sql/include/groupby.sql. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_gb FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE SERVER ch_gb2 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_gb;
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_gb2;
\i sql/include/groupby.sql
DROP SERVER ch_gb CASCADE;
DROP SERVER ch_gb2 CASCADE;
