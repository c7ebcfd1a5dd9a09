-- ====================================================================
-- IS [NOT] DISTINCT FROM of boolean conditions and UNION ALL of one
-- foreign table twice on ClickHouse 18.16 (the body, shared with
-- modern_subquery4.sql, is sql/include/subquery4.sql). 18.16 keeps every
-- UNION ALL local: shown local here. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_s4 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_s4;
\i sql/include/subquery4.sql
DROP SERVER ch_s4 CASCADE;
