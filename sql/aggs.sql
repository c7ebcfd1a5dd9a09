-- ====================================================================
-- Aggregates sent to ClickHouse 18.16 (the body, shared with
-- modern_aggs.sql, is sql/include/aggs.sql). Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_ag FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_ag;
\i sql/include/aggs.sql
DROP SERVER ch_ag CASCADE;
