-- ====================================================================
-- Join pushdown on the ClickHouse 26.5 engine (chDB behind
-- test/chdb/front.py, a test harness, not a server). The body, shared with
-- join_pushdown.sql (18.16), is sql/include/join_pushdown.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_jd FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_jd;
\i sql/include/join_pushdown.sql
DROP SERVER ch_jd CASCADE;
