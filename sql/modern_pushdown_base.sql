-- ====================================================================
-- The pushdown.sql checks on the ClickHouse 26.5 engine (chDB behind
-- test/chdb/front.py, a test harness, not a server).
-- Pushdown of WHERE, ORDER BY and LIMIT: what is shipped (EXPLAIN pins the
-- Remote SQL) and that shipping never changes an answer (every condition
-- is run on the foreign table and on a local copy of the same rows).
-- Live. The body, shared with pushdown.sql (18.16), is
-- sql/include/pushdown_base.sql.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
\set ch_sql ch_pd
CREATE SERVER ch_pd FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_pd;
\i sql/include/pushdown_base.sql
DROP SERVER ch_pd CASCADE;
