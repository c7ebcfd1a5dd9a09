-- ====================================================================
-- Key joins (a local table joined with a ClickHouse table by sending the
-- local keys) on ClickHouse 18.16; the body, shared with
-- modern_key_join.sql, is sql/include/key_join.sql. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_kj FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_kj;
\i sql/include/key_join.sql
DROP SERVER ch_kj CASCADE;
