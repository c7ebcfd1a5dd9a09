-- ====================================================================
-- Pushdown on a ClickHouse 26.5 engine (chDB behind test/chdb/front.py, a
-- test harness, not a server): the SQL the FDW generates for aggregates,
-- HAVING and use_remote_estimate gives PostgreSQL's answers there too
-- (each query is also run on a local copy). Live (see modern_types.sql).
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
CREATE SERVER ch_mpd FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress_modern');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_mpd;
SET datestyle = 'ISO, YMD';
SELECT clickhouse_exec('ch_mpd', 'DROP TABLE IF EXISTS regress_modern.mpd');
SELECT clickhouse_exec('ch_mpd',
  'CREATE TABLE regress_modern.mpd (id UInt32, g Nullable(Int32), i Nullable(Int64), f Nullable(Float64), d Nullable(Date)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_mpd', 'INSERT INTO regress_modern.mpd VALUES
  (1, NULL, NULL, NULL, NULL), (2, 1, 0, 0, ''2020-01-01''), (3, 1, -5, -1.5, ''2020-01-01''),
  (4, 2, 7, 2.5, ''2020-01-02''), (5, 2, 9223372036854775807, 100, NULL),
  (6, 3, -9223372036854775808, nan, ''2020-01-03''), (7, 3, 3, inf, ''2020-01-03''),
  (8, 4, NULL, NULL, ''2020-01-04''), (9, 4, NULL, 1, ''2020-01-04''), (10, NULL, 4, -inf, NULL)');
CREATE FOREIGN TABLE mpd (id int, g int, i bigint, f float8, d date) SERVER ch_mpd;
CREATE TABLE mpd_local AS SELECT * FROM mpd;

-- HAVING with NULL sums, bigint sums past int64, NaN
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT g, sum(i), count(*) FROM mpd GROUP BY g HAVING NOT (sum(i) > 5) OR sum(i) IS NULL;
SELECT g, sum(i), count(*) FROM mpd GROUP BY g HAVING NOT (sum(i) > 5) OR sum(i) IS NULL ORDER BY g;
SELECT g, sum(i), count(*) FROM mpd_local GROUP BY g HAVING NOT (sum(i) > 5) OR sum(i) IS NULL ORDER BY g;
SELECT g, sum(i) FROM mpd GROUP BY g HAVING sum(i) > 5 ORDER BY g;
SELECT g, sum(i) FROM mpd_local GROUP BY g HAVING sum(i) > 5 ORDER BY g;
SELECT d, sum(f) FROM mpd GROUP BY d HAVING sum(f) > 1 AND max(id) IS NOT NULL ORDER BY d;
SELECT d, sum(f) FROM mpd_local GROUP BY d HAVING sum(f) > 1 AND max(id) IS NOT NULL ORDER BY d;
SELECT count(*) FROM mpd HAVING count(*) > 3;
SELECT count(*) FROM mpd HAVING count(*) > 30;

-- use_remote_estimate: the row count from system.parts
ALTER FOREIGN TABLE mpd OPTIONS (ADD use_remote_estimate 'on');
EXPLAIN SELECT * FROM mpd;

DROP TABLE mpd_local;
DROP SERVER ch_mpd CASCADE;
