-- ====================================================================
-- Aggregates over windows sent to the ClickHouse 26.5 engine (chDB behind
-- test/chdb/front.py, a test harness, not a server), each compared with a
-- local copy. The body, shared with winagg.sql (18.16: all local), is
-- sql/include/winagg.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_wa FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_wa;
\i sql/include/winagg.sql
-- many rows (several blocks, 37 partitions, NULL partition and order keys,
-- peers, running float sums over 1e17 and fractions): the new aggregates
-- against the local copy, EXCEPT ALL both ways (doubles compared by value)
SELECT clickhouse_exec('ch_wa', 'DROP TABLE IF EXISTS regress_modern.wbig');
SELECT clickhouse_exec('ch_wa', 'CREATE TABLE regress_modern.wbig (id UInt32, p Nullable(Int32), k Nullable(Int32), x Nullable(Int64), ok Nullable(UInt8), s Nullable(String), f Nullable(Float64)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_wa', 'INSERT INTO regress_modern.wbig SELECT number, if(number % 11 = 0, NULL, number % 37), if(number % 17 = 0, NULL, number % 5), if(number % 13 = 0, NULL, if(number % 7 = 0, 9223372036854775807 - number, (number * 7919) % 100000 - 50000)), if(number % 19 = 0, NULL, number % 3 > 0), if(number % 23 = 0, NULL, toString(number % 101)), if(number % 29 = 0, NULL, if(number % 1000 = 0, 1e17, number / 7)) FROM numbers(20000)');
CREATE FOREIGN TABLE wbig (id int, p int, k int, x bigint, ok boolean, s text, f float8) SERVER ch_wa OPTIONS (table 'wbig');
CREATE TABLE wbig_l AS SELECT * FROM wbig;
CREATE FUNCTION wa_big(q text, OUT pushed boolean, OUT nrows bigint, OUT missing bigint, OUT extra bigint)
LANGUAGE plpgsql AS $$
DECLARE
  plan text;
BEGIN
  EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) t', format(q, 'wbig_l'), format(q, 'wbig')) INTO missing;
  EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) t', format(q, 'wbig'), format(q, 'wbig_l')) INTO extra;
  EXECUTE format('SELECT count(*) FROM (%s) t', format(q, 'wbig')) INTO nrows;
  EXECUTE 'EXPLAIN (COSTS OFF) ' || format(q, 'wbig') INTO plan;
  pushed := plan = 'Foreign Scan';
END $$;
SELECT left(q, 60) AS query, c.* FROM unnest(ARRAY[
  'SELECT id, bool_and(ok) OVER w, bool_or(ok) OVER w, bit_and(x) OVER w, bit_or(x) OVER w, bit_xor(x) OVER w, variance(x) OVER w, stddev_pop(x) OVER w FROM %s WINDOW w AS (PARTITION BY p ORDER BY id ROWS BETWEEN 5 PRECEDING AND 3 FOLLOWING)',
  'SELECT id, var_samp(x) OVER w, stddev(x) OVER w, bit_xor(k) OVER w, every(ok) OVER w FROM %s WINDOW w AS (PARTITION BY k ORDER BY p NULLS FIRST)',
  'SELECT id, string_agg(s, '','') OVER w, array_agg(x) OVER w, min(s) OVER w, max(s) OVER w FROM %s WINDOW w AS (PARTITION BY p ORDER BY id DESC ROWS BETWEEN 3 PRECEDING AND CURRENT ROW)',
  'SELECT id, var_pop(x) OVER w, bool_or(ok) OVER w FROM %s WINDOW w AS (PARTITION BY p)',
  'SELECT id, sum(f) OVER (PARTITION BY p ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), sum(f) OVER (ORDER BY id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM %s'
]) q, wa_big(q) c;
DROP FUNCTION wa_big(text);
DROP TABLE wbig_l;
DROP SERVER ch_wa CASCADE;
