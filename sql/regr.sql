-- ====================================================================
-- corr, covar_* and regr_* on ClickHouse 18.16, which has no arrayFold:
-- kept local, answers equal (the body, shared with modern_regr.sql, is
-- sql/include/regr.sql; README "What is sent"). Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
\set sent false
CREATE SERVER ch_rg FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db', settings 'max_threads=1');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_rg;
\i sql/include/regr.sql
DROP SERVER ch_rg CASCADE;
