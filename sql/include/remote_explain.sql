-- remote_explain(q): EXPLAIN (ANALYZE, COSTS OFF, SUMMARY OFF) of q with what
-- changes from run to run masked (times, the query id, byte counts, rows
-- ClickHouse read), so the remote figures of each Foreign Scan can be
-- compared: rows received stay exact. Used by native.sql and
-- modern_explain.sql.
CREATE FUNCTION remote_explain(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
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
