-- ====================================================================
-- Modern EXPLAIN ANALYZE: over HTTP a 26.5 engine (chDB behind
-- test/chdb/front.py, a test harness) sends X-ClickHouse-Summary, so each
-- Foreign Scan also shows the rows and bytes ClickHouse read and its own
-- elapsed time (18.16 sends no summary: sql/native.sql). Byte counts,
-- times and rows read are masked; rows received are exact.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
CREATE SERVER ch_mex FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress_modern');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_mex;
CREATE FOREIGN TABLE mex_ints (id int) SERVER ch_mex OPTIONS (table 'ints');
\i sql/include/remote_explain.sql
SELECT count(*) FROM mex_ints;
SELECT remote_explain('SELECT id FROM mex_ints');
SELECT remote_explain('SELECT id FROM mex_ints WHERE id > 1');
DROP FUNCTION remote_explain(text);
DROP SERVER ch_mex CASCADE;
