-- ====================================================================
-- Expression pushdown on ClickHouse 18.16 (the body, shared with
-- modern_pushdown_exprs.sql, is sql/include/pushdown_exprs.sql). Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_px FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_px;
\i sql/include/pushdown_exprs.sql
DROP SERVER ch_px CASCADE;
