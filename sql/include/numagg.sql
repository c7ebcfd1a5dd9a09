-- ====================================================================
-- sum, avg and the variance family of numeric columns (issue 17 item 7),
-- shared by numagg.sql (18.16) and modern_numagg.sql (the 26.5 engine
-- behind test/chdb/front.py, a test harness, not a server). A numeric
-- column is sent where its ClickHouse type lets ClickHouse sum it exactly
-- (README "What is sent"): Decimal32/64 and integers up to 64 bits on
-- every server, Decimal128 and Int128 where Decimal256 exists (not 18.16:
-- there numagg2 sends their avg and variance, numagg3 their sums, in limbs).
-- Each query's Remote SQL is shown and its answer compared with a local
-- copy as text (so the display scale too), over NULLs, groups of only NULLs, no rows, negative values and the
-- types' extremes; Float64 and String columns declared numeric, a typmod
-- of another scale and DISTINCT are checked local; then 100 seeded random
-- aggregates x group keys x filters, all sent and equal. The caller has
-- created server ch_na and set :ch_db.
-- ====================================================================
SET extra_float_digits = 0;
SELECT clickhouse_exec('ch_na', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.na');
SELECT clickhouse_exec('ch_na', 'CREATE TABLE ' || :'ch_db' || '.na (id Int32, g Nullable(Int32), d9 Nullable(Decimal(9, 2)), d18 Nullable(Decimal(18, 4)), d38 Nullable(Decimal(38, 10)), i32 Nullable(Int32), i64 Nullable(Int64), u32 UInt32, u64 Nullable(UInt64), i8 Int8, f Nullable(Float64), s Nullable(String)) ENGINE = MergeTree ORDER BY id');
-- groups: 1 and 2 ordinary (negative values), 3 only NULLs, 4 one row, 5
-- the extremes (sums past each Decimal''s precision; Decimal(38, 10)''s past
-- 10^38 as raw integers), NULL
SELECT clickhouse_exec('ch_na', 'INSERT INTO ' || :'ch_db' || '.na VALUES
  (1, 1, 1.50, -2.0001, 1.5, 5, 10, 7, 1, 1, 1.5, ''1.5''),
  (2, 1, -3.25, 12.3456, NULL, -7, -20, 0, 2, -1, 2.25, ''2''),
  (3, 1, 0.01, 0, -0.0000000001, 0, 0, 4294967295, 0, 0, 0.1, ''0.10''),
  (4, 2, 100.00, 1, 12345678901234567890.0123456789, 100, 123456789012, 1, NULL, 100, -0.5, NULL),
  (5, 2, -100.00, -1, -12345678901234567890.0123456789, -100, -123456789012, 2, 5, -100, NULL, ''-3''),
  (6, 2, NULL, NULL, NULL, NULL, NULL, 3, NULL, 3, NULL, NULL),
  (7, 3, NULL, NULL, NULL, NULL, NULL, 0, NULL, 0, NULL, NULL),
  (8, 3, NULL, NULL, NULL, NULL, NULL, 0, NULL, 0, NULL, NULL),
  (9, 4, 42.42, 4242.4242, 42.4242424242, 42, 42, 42, 42, 42, 42.42, ''42.42''),
  (10, 5, 9999999.99, 99999999999999.9999, 9999999999999999999999999999.9999999999, 2147483647, 9223372036854775807, 4294967295, 18446744073709551615, 127, 1e300, ''1e300''),
  (11, 5, 9999999.99, 99999999999999.9999, 9999999999999999999999999999.9999999999, 2147483647, 9223372036854775807, 4294967295, 18446744073709551615, 127, 1e300, ''1''),
  (12, 5, 9999999.99, 99999999999999.9999, 9999999999999999999999999999.9999999999, 2147483647, 9223372036854775807, 4294967295, 18446744073709551615, 127, 1, ''2''),
  (13, 5, -9999999.99, -99999999999999.9999, -9999999999999999999999999999.9999999999, -2147483648, -9223372036854775808, 0, 0, -128, -1, ''3''),
  (14, NULL, 0.10, 0.1000, 0.1000000000, 1, 1, 1, 1, 1, 0.1, ''0.1''),
  (15, NULL, -0.10, 0.0001, 0, -1, -1, 0, 0, -1, 0, ''0'')');
-- 200 generated rows (ids 100..299): mixed signs, NULLs, every digit
SELECT clickhouse_exec('ch_na', 'INSERT INTO ' || :'ch_db' || '.na SELECT 100 + number, if(number % 11 = 0, NULL, toInt32(number % 7)), if(number % 5 = 0, NULL, toDecimal32(concat(if(number % 3 = 0, ''-'', ''''), toString(number * 9973 % 10000000), ''.'', toString(number % 100)), 2)), toDecimal64(concat(if(number % 2 = 0, ''-'', ''''), toString(number * 99990001 % 100000000000000), ''.'', toString(number * 37 % 10000)), 4), if(number % 4 = 0, NULL, toDecimal128(concat(if(number % 2 = 1, ''-'', ''''), toString(number * 1234567), ''000000000000000.'', toString(number % 97)), 10)), if(number % 6 = 0, NULL, toInt32(toInt64(number) * 21474836 - 2147483648)), if(number % 7 = 0, NULL, toInt64(number) * 46116860184273879 - 9223372036854775807), toUInt32(number * 21474836), if(number % 3 = 0, NULL, toUInt64(number) * 92233720368547758), toInt8(toInt32(number % 256) - 128), number / 8, toString(number) FROM system.numbers LIMIT 200');
CREATE FOREIGN TABLE na (id int, g int, d9 numeric, d18 numeric, d38 numeric, i32 numeric,
  i64 numeric, u32 numeric, u64 numeric, i8 numeric, f numeric, s numeric)
  SERVER ch_na OPTIONS (table 'na');
CREATE TABLE na_l AS SELECT * FROM na;
SELECT count(*), count(d9), count(d38), count(u64) FROM na_l;
\i sql/include/diff_check.sql
CREATE FUNCTION na_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'na', '(Aggregate|Sort|Group)') $$;

-- ==== Decimal(9, 2) and Decimal(18, 4): sums widened to Decimal128 (no
-- wrap), avg and the variance family finished here from exact pieces
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(d9), avg(d9), sum(d18), avg(d18) FROM na GROUP BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, stddev(d9), var_pop(d18) FROM na GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(d9), avg(d9), sum(d18), avg(d18) FROM na GROUP BY g',
  'SELECT g, stddev(d9), stddev_samp(d9), stddev_pop(d9), variance(d9), var_samp(d9), var_pop(d9) FROM na GROUP BY g',
  'SELECT g, stddev(d18), stddev_samp(d18), stddev_pop(d18), variance(d18), var_samp(d18), var_pop(d18) FROM na GROUP BY g',
  'SELECT sum(d9), avg(d9), sum(d18), avg(d18), stddev(d9), var_pop(d18) FROM na',
  'SELECT sum(d9), avg(d9), sum(d18), variance(d18) FROM na WHERE id > 1000',
  'SELECT g, sum(d9) FILTER (WHERE id > 2), avg(d18) FILTER (WHERE d9 > 0), var_samp(d18) FILTER (WHERE id % 2 = 0) FROM na GROUP BY g',
  'SELECT g, sum(d9), avg(d18) FROM na WHERE id < 100 GROUP BY g HAVING sum(d9) > 0',
  'SELECT g, sum(d18) FROM na GROUP BY g HAVING avg(d18) IS NOT NULL',
  'SELECT g, sum(d9) FROM na WHERE id = 9 GROUP BY g'
]) q, na_check(q) c;
-- the answers themselves, with their scales
SELECT g, sum(d9), avg(d9), sum(d18), avg(d18), stddev(d9), var_pop(d18) FROM na WHERE id < 100 GROUP BY g ORDER BY g;
-- ORDER BY a sum (top-N over groups) and HAVING sent too
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(d18) FROM na GROUP BY g ORDER BY sum(d18) DESC NULLS LAST LIMIT 3;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(d18) FROM na GROUP BY g ORDER BY sum(d18) DESC NULLS LAST LIMIT 3',
  'SELECT g, sum(d9) FROM na GROUP BY g ORDER BY sum(d9) NULLS FIRST, g'
]) q, diff_check(q, 'na', '(Aggregate|Sort|Group)', true) c;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(d9) FROM na GROUP BY g HAVING sum(d9) > 1.5;

-- ==== integer columns declared numeric (scale 0): Int8/Int32 (squares
-- summed directly), Int64/UInt32 (squares in three pieces, x = h * 2^32 + l)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(i64), avg(i32), var_samp(i64), stddev_pop(u32) FROM na GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(i8), avg(i8), stddev(i8), var_pop(i8) FROM na GROUP BY g',
  'SELECT g, sum(i32), avg(i32), stddev(i32), var_pop(i32) FROM na GROUP BY g',
  'SELECT g, sum(i64), avg(i64), stddev(i64), var_samp(i64), stddev_pop(i64) FROM na GROUP BY g',
  'SELECT g, sum(u32), avg(u32), variance(u32), stddev_pop(u32) FROM na GROUP BY g',
  'SELECT sum(i64), avg(i64), variance(i64), sum(u32), avg(u32) FROM na',
  'SELECT g, sum(i64) FILTER (WHERE i64 < 0), avg(u32) FILTER (WHERE id > 10) FROM na GROUP BY g'
]) q, na_check(q) c;
SELECT g, sum(i64), avg(i64), stddev(i64), sum(u32), var_pop(u32) FROM na WHERE id < 100 GROUP BY g ORDER BY g;

-- ==== Decimal(38, 10), Int128 and UInt64 declared numeric: Decimal(38, 10)
-- exact only in Decimal256 (sent on the 26.5 engine; on 18.16, which has
-- none, in limbs: numagg3); UInt64 summed in Decimal128, sent on both (numagg2)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(d38), avg(d38), stddev(d38), sum(u64) FROM na GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(d38), avg(d38) FROM na GROUP BY g',
  'SELECT g, stddev(d38), var_pop(d38), variance(d38), stddev_pop(d38) FROM na GROUP BY g',
  'SELECT g, sum(u64), avg(u64), var_samp(u64), stddev_pop(u64) FROM na GROUP BY g',
  'SELECT sum(d38) FILTER (WHERE id > 9), avg(u64) FILTER (WHERE g = 5) FROM na'
]) q, na_check(q) c;
SELECT g, sum(d38), avg(d38), sum(u64), avg(u64) FROM na WHERE id < 100 GROUP BY g ORDER BY g;

-- ==== kept local, with the reason: Float64 (ClickHouse sums floats,
-- rounding) and String columns declared numeric, DISTINCT, a typmod whose
-- scale is not the Decimal's (PostgreSQL rounds each value it reads) or
-- whose precision does not hold the Decimal's
CREATE FOREIGN TABLE na_t (id int, g int, d9 numeric(9, 2), d18 numeric(18, 2),
  i32 numeric(10, 0), i64 numeric(12, 0))
  SERVER ch_na OPTIONS (table 'na');
CREATE TABLE na_t_l AS SELECT * FROM na_t WHERE id < 10;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(f), avg(f) FROM na GROUP BY g',
  'SELECT g, sum(s), stddev(s) FROM na GROUP BY g',
  'SELECT g, sum(DISTINCT d9), avg(DISTINCT d18) FROM na GROUP BY g',
  'SELECT g, sum(d9 + 1) FROM na GROUP BY g'
]) q, na_check(q) c;
-- numeric(9, 2) over Decimal(9, 2) and numeric(10, 0) over Int32: sent;
-- numeric(18, 2) over Decimal(18, 4) and numeric(12, 0) over Int64: local
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(d9), avg(d9), stddev(i32) FROM na_t WHERE id < 10 GROUP BY g',
  'SELECT g, sum(d18) FROM na_t WHERE id < 10 GROUP BY g',
  'SELECT g, sum(i64) FROM na_t WHERE id < 10 GROUP BY g'
]) q, diff_check(q, 'na_t', '(Aggregate|Sort|Group)') c;
-- numeric(18, 2) over Decimal(18, 4): each value rounded on reading, summed here
SELECT g, sum(d18), avg(d18) FROM na_t WHERE id < 10 GROUP BY g ORDER BY g;

-- ==== 100 seeded random aggregates x group keys x filters (columns every
-- server sends), all sent and equal
SELECT setseed(0.31);
CREATE TEMP TABLE na_runs AS
  SELECT n, format('SELECT %s%s(%s)%s, count(*) FROM na%s',
    CASE WHEN random() < 0.7 THEN 'g, ' ELSE '' END,
    (ARRAY['sum', 'avg', 'stddev', 'stddev_samp', 'stddev_pop', 'variance', 'var_samp', 'var_pop',
           'sum', 'avg'])[1 + floor(random() * 10)::int],
    (ARRAY['d9', 'd18', 'i32', 'i64', 'u32', 'i8'])[1 + floor(random() * 6)::int],
    CASE WHEN random() < 0.3 THEN ' FILTER (WHERE id % ' || 2 + floor(random() * 5)::int || ' = 0)'
         WHEN random() < 0.2 THEN ' FILTER (WHERE d9 < 0)' ELSE '' END,
    CASE WHEN random() < 0.2 THEN ' WHERE id > 150' WHEN random() < 0.1 THEN ' WHERE id > 1000'
         WHEN random() < 0.2 THEN ' WHERE id < 20' ELSE '' END) AS q
  FROM generate_series(1, 100) n;
UPDATE na_runs SET q = q || ' GROUP BY g' WHERE q LIKE 'SELECT g, %';
SELECT count(*) AS queries, count(*) FILTER (WHERE c.pushed) AS pushed,
       count(*) FILTER (WHERE c.same) AS same
FROM na_runs r, LATERAL na_check(r.q) c;
-- every difference (none expected), every query kept local (none expected)
SELECT r.n, r.q FROM na_runs r, LATERAL na_check(r.q) c WHERE NOT c.same OR NOT c.pushed ORDER BY r.n;
DROP TABLE na_runs;
DROP FUNCTION na_check(text);
DROP TABLE na_l, na_t_l;
DROP FOREIGN TABLE na, na_t;
