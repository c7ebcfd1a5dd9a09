-- ====================================================================
-- sum, avg and the variance family of numeric columns on the ClickHouse
-- 26.5 engine (chDB behind test/chdb/front.py, a test harness, not a
-- server). The body, shared with numagg.sql (18.16), is
-- sql/include/numagg.sql: here Decimal128 and UInt64 are sent too, summed
-- in Decimal256. Then Int128, Decimal(76, 20) (its sum could wrap even
-- in Decimal256: in limbs, numagg3), raw sums past 10^38, and sums over a window.
-- Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_na FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_na;
\i sql/include/numagg.sql

-- ==== Int128 (squares in pieces x = h * 2^64 + l, summed in Decimal256)
-- and Decimal(76, 20) (limbs)
SELECT clickhouse_exec('ch_na', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.na2');
SELECT clickhouse_exec('ch_na', 'CREATE TABLE ' || :'ch_db' || '.na2 (id Int32, g Int32, i128 Nullable(Int128), d38 Decimal(38, 0), d76 Nullable(Decimal(76, 20)), u128 UInt128) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_na', 'INSERT INTO ' || :'ch_db' || '.na2 VALUES
  (1, 1, 170141183460469231731687303715884105727, 99999999999999999999999999999999999999, 12345678901234567890123456789012345678901234567890.12345678901234567890, 340282366920938463463374607431768211455),
  (2, 1, 170141183460469231731687303715884105727, 99999999999999999999999999999999999999, -1.5, 1),
  (3, 1, -170141183460469231731687303715884105728, 99999999999999999999999999999999999999, NULL, 2),
  (4, 2, -170141183460469231731687303715884105728, -99999999999999999999999999999999999999, 0.00000000000000000001, 0),
  (5, 2, -170141183460469231731687303715884105728, -99999999999999999999999999999999999999, 3, 5),
  (6, 2, NULL, 1, NULL, 7),
  (7, 3, NULL, 0, NULL, 0),
  (8, 4, 18446744073709551616, 18446744073709551615, 1, 18446744073709551616),
  (9, 4, -18446744073709551615, -18446744073709551616, 2, 1)');
CREATE FOREIGN TABLE na2 (id int, g int, i128 numeric, d38 numeric, d76 numeric, u128 numeric)
  SERVER ch_na OPTIONS (table 'na2');
CREATE TABLE na2_l AS SELECT * FROM na2;
CREATE FUNCTION na2_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'na2', '(Aggregate|Sort|Group)') $$;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(i128), avg(d38), stddev(i128) FROM na2 GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(i128), avg(i128), stddev(i128), var_pop(i128), variance(i128) FROM na2 GROUP BY g',
  'SELECT g, sum(d38), avg(d38), stddev_pop(d38), var_samp(d38) FROM na2 GROUP BY g',
  'SELECT sum(i128), sum(d38), var_pop(d38), stddev(i128) FROM na2',
  'SELECT g, sum(d38) FILTER (WHERE id % 2 = 1), variance(i128) FILTER (WHERE id > 1) FROM na2 GROUP BY g'
]) q, na2_check(q) c;
SELECT g, sum(i128), sum(d38), avg(d38), var_pop(d38) FROM na2 GROUP BY g ORDER BY g;
-- the sum of Decimal(76, 20) (could wrap in Decimal256) and its avg in
-- limbs (numagg3, numagg2); UInt128 sent in Decimal256 (numagg2)
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(d76), avg(d76) FROM na2 GROUP BY g',
  'SELECT g, sum(u128), stddev(u128) FROM na2 GROUP BY g'
]) q, na2_check(q) c;

-- ==== sums of numeric columns over a window (window functions: 21.9)
CREATE FOREIGN TABLE na (id int, g int, d9 numeric, d18 numeric, d38 numeric)
  SERVER ch_na OPTIONS (table 'na');
CREATE TABLE na_l AS SELECT * FROM na;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, sum(d18) OVER (PARTITION BY g ORDER BY id) FROM na;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT id, sum(d18) OVER (PARTITION BY g ORDER BY id), avg(d9) OVER (PARTITION BY g) FROM na',
  'SELECT id, sum(d38) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM na'
]) q, diff_check(q, 'na', '(WindowAgg|Sort|Aggregate)') c;
DROP TABLE na_l, na2_l;
DROP FUNCTION na2_check(text);
DROP SERVER ch_na CASCADE;
