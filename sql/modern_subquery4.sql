-- ====================================================================
-- IS [NOT] DISTINCT FROM of boolean conditions and UNION ALL of one
-- foreign table twice on the ClickHouse 26.5 engine (chDB behind
-- test/chdb/front.py, a test harness, not a server). The body, shared
-- with subquery4.sql (18.16), is sql/include/subquery4.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_s4 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_s4;
\i sql/include/subquery4.sql
DROP SERVER ch_s4 CASCADE;
