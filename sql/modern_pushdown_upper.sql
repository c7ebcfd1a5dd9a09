-- ====================================================================
-- DISTINCT, windows and grouping sets on the ClickHouse 26.5 engine (chDB
-- behind test/chdb/front.py, a test harness, not a server): all three are
-- sent, each compared with the local copy. The body, shared with
-- pushdown_upper.sql (18.16), is sql/include/pushdown_upper.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_up FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_up;
\i sql/include/pushdown_upper.sql
-- many rows (several blocks, 37 partitions, NULL partition and order keys):
-- windows, CUBE and DISTINCT against the local copy, EXCEPT ALL both ways
SELECT clickhouse_exec('ch_up', 'DROP TABLE IF EXISTS regress_modern.ubig');
SELECT clickhouse_exec('ch_up', 'CREATE TABLE regress_modern.ubig (id UInt32, p Nullable(Int32), x Nullable(Int64)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_up', 'INSERT INTO regress_modern.ubig SELECT number, if(number % 11 = 0, NULL, number % 37), if(number % 13 = 0, NULL, (number * 7919) % 1000) FROM numbers(30000)');
CREATE FOREIGN TABLE ubig (id int, p int, x bigint) SERVER ch_up OPTIONS (table 'ubig');
CREATE TABLE ubig_l AS SELECT * FROM ubig;
CREATE FUNCTION up_big(q text, OUT pushed boolean, OUT nrows bigint, OUT missing bigint, OUT extra bigint)
LANGUAGE plpgsql AS $$
DECLARE
  plan text;
BEGIN
  EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) t', format(q, 'ubig_l'), format(q, 'ubig')) INTO missing;
  EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) t', format(q, 'ubig'), format(q, 'ubig_l')) INTO extra;
  EXECUTE format('SELECT count(*) FROM (%s) t', format(q, 'ubig')) INTO nrows;
  EXECUTE 'EXPLAIN (COSTS OFF) ' || format(q, 'ubig') INTO plan;
  pushed := plan = 'Foreign Scan';
END $$;
SELECT left(q, 60) AS query, c.* FROM unnest(ARRAY[
  'SELECT id, row_number() OVER w, rank() OVER w, dense_rank() OVER w, percent_rank() OVER w, cume_dist() OVER w, ntile(7) OVER w FROM %s WINDOW w AS (PARTITION BY p ORDER BY x NULLS FIRST, id)',
  'SELECT id, lag(x, 3, -1::bigint) OVER w, lead(x, 1000) OVER w, first_value(x) OVER w, last_value(x) OVER w, nth_value(x, 5) OVER w FROM %s WINDOW w AS (PARTITION BY p ORDER BY id DESC)',
  'SELECT id, sum(x) OVER w, count(x) OVER w, avg(x) OVER w, min(x) OVER w, max(x) OVER w FROM %s WINDOW w AS (PARTITION BY p ORDER BY id ROWS BETWEEN 5 PRECEDING AND 3 FOLLOWING)',
  'SELECT id, sum(x) OVER w, count(*) OVER w, rank() OVER w FROM %s WINDOW w AS (ORDER BY x DESC NULLS LAST)',
  'SELECT p, x, count(*), sum(id), grouping(p, x) FROM %s GROUP BY CUBE (p, x)',
  'SELECT DISTINCT p, x FROM %s'
]) q, up_big(q) c;
DROP FUNCTION up_big(text);
DROP TABLE ubig_l;
DROP SERVER ch_up CASCADE;
