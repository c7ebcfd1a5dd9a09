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
CREATE FUNCTION mex_explain(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, SUMMARY OFF) ' || q LOOP
    line := regexp_replace(line, 'actual time=[0-9.]+\.\.[0-9.]+ ', 'actual ');
    line := regexp_replace(line, '(Query ID: ).*', '\1<id>');
    line := regexp_replace(line, '(Bytes [A-Za-z]+: )[0-9]+', '\1<n>');
    line := regexp_replace(line, '(Elapsed: |Time: )[0-9.]+ ms', '\1<t> ms');
    line := regexp_replace(line, '(Rows Read: )[1-9][0-9]*', '\1<more than 0>');
    RETURN NEXT line;
  END LOOP;
END $$;
SELECT count(*) FROM mex_ints;
SELECT mex_explain('SELECT id FROM mex_ints');
SELECT mex_explain('SELECT id FROM mex_ints WHERE id > 1');
DROP FUNCTION mex_explain(text);
DROP SERVER ch_mex CASCADE;
