-- ====================================================================
-- GROUP BY expressions, the HAVING split and partition-wise aggregation on
-- the ClickHouse 26.5 engine (chDB behind test/chdb/front.py, a test
-- harness, not a server); the body, shared with groupby.sql, is
-- sql/include/groupby.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_gb FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE SERVER ch_gb2 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_gb;
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_gb2;
\i sql/include/groupby.sql
DROP SERVER ch_gb CASCADE;
DROP SERVER ch_gb2 CASCADE;
