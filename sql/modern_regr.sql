-- ====================================================================
-- corr, covar_* and regr_* on the ClickHouse 26.5 engine (chDB behind
-- test/chdb/front.py, a test harness, not a server), which has arrayFold:
-- sent, PostgreSQL's float8_regr_accum replayed by ClickHouse and finished
-- by PostgreSQL (src/fdw/agg_regr.c). The body, shared with regr.sql
-- (18.16), is sql/include/regr.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
\set sent true
CREATE SERVER ch_rg FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db', settings 'max_threads=1');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_rg;
\i sql/include/regr.sql
DROP SERVER ch_rg CASCADE;
