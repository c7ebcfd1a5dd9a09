-- ====================================================================
-- ANALYZE of foreign tables: row count from ClickHouse, a random sample
-- of bounded size for PostgreSQL's column statistics. Live (see types.sql).
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
CREATE SERVER ch_an FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_an;
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_an', 'DROP TABLE IF EXISTS regress.an_small');
SELECT clickhouse_exec('ch_an', 'DROP TABLE IF EXISTS regress.an_big');
SELECT clickhouse_exec('ch_an',
  'CREATE TABLE regress.an_small (id UInt32, k String, n Nullable(Int32), ts DateTime(''Asia/Tokyo'')) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_an',
  'INSERT INTO regress.an_small SELECT number, concat(''k'', toString(number % 7)), if(number % 4 = 0, NULL, toInt32(number % 100)), toDateTime(''2020-01-01 00:00:00'', ''Asia/Tokyo'') + number * 60 FROM numbers(5000)');
SELECT clickhouse_exec('ch_an',
  'CREATE TABLE regress.an_big (id UInt64, g UInt8) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_an',
  'INSERT INTO regress.an_big SELECT number, number % 3 FROM numbers(200000)');
CREATE FOREIGN TABLE an_small (id int, k text, n int, ts timestamptz) SERVER ch_an;
CREATE FOREIGN TABLE an_big (id bigint, g int) SERVER ch_an;

-- before ANALYZE: the default estimate
EXPLAIN SELECT * FROM an_small WHERE k = 'k1';
SELECT reltuples FROM pg_class WHERE relname = 'an_small';

-- a table smaller than the sample: every row, exact statistics
ANALYZE an_small;
SELECT reltuples FROM pg_class WHERE relname = 'an_small';
SELECT attname, null_frac, n_distinct, most_common_vals::text
  FROM pg_stats WHERE tablename = 'an_small' AND attname IN ('k', 'n') ORDER BY attname;
SELECT min(v::timestamptz), max(v::timestamptz)
  FROM pg_stats, unnest(histogram_bounds::text::text[]) v
  WHERE tablename = 'an_small' AND attname = 'ts';
SELECT min(ts), max(ts) FROM an_small;
-- the planner uses them: 5000 rows / 7 values
EXPLAIN SELECT * FROM an_small WHERE k = 'k1';
EXPLAIN SELECT * FROM an_small WHERE n IS NULL;
-- a condition PostgreSQL evaluates (pg_column_size is never sent): every row
-- travels and is converted, then the condition runs on it, and the cost says
-- so (5,000 rows x (0.02 + the condition's 0.0025), not the 1,667 it keeps)
EXPLAIN SELECT * FROM an_small WHERE pg_column_size(k) > 2;

-- a bigger table: count() for the total, a sample of default_statistics_target
-- x 300 rows, of which only about 1.5 x as many travel (ANALYZE VERBOSE says
-- how many; random, so not shown here)
SET default_statistics_target = 10;
ANALYZE an_big;
SELECT reltuples FROM pg_class WHERE relname = 'an_big';
SELECT attname, n_distinct, (SELECT array_agg(x ORDER BY x) FROM unnest(most_common_vals::text::int[]) x)
  FROM pg_stats WHERE tablename = 'an_big' AND attname = 'g';
SELECT null_frac, n_distinct > 0 OR n_distinct < -0.5 AS distinct_ok
  FROM pg_stats WHERE tablename = 'an_big' AND attname = 'id';
RESET default_statistics_target;

-- an empty table, and a column that no longer exists remotely
SELECT clickhouse_exec('ch_an', 'TRUNCATE TABLE regress.an_small');
ANALYZE an_small;
SELECT reltuples FROM pg_class WHERE relname = 'an_small';
CREATE FOREIGN TABLE an_bad (id int, nope int) SERVER ch_an OPTIONS (table 'an_big');
\set VERBOSITY terse
ANALYZE an_bad;
\set VERBOSITY default

SELECT clickhouse_exec('ch_an', 'DROP TABLE regress.an_small');
SELECT clickhouse_exec('ch_an', 'DROP TABLE regress.an_big');
DROP SERVER ch_an CASCADE;
