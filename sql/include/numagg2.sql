-- ====================================================================
-- (numagg2) sums, averages and the variance family of wide integer and
-- Decimal columns declared numeric, shared by numagg2.sql (18.16) and
-- modern_numagg2.sql (the 26.5 engine behind test/chdb/front.py, a test
-- harness, not a server). README "What is sent": UInt64 is summed in
-- Decimal128 (below 2^127 over fewer than 2^63 rows) and its squares in
-- 32-bit pieces on every server; Decimal(38, 10) is summed in Decimal256
-- where it exists (26.5) and, where it does not (18.16), its avg and
-- variance family are sent in four 32-bit limbs (sums of the limbs and of
-- their products in Decimal128, recombined here), and (numagg3) its sum
-- from the limbs' sums (no 18.16 type holds it). Each answer is compared with a local copy
-- as text (so the display scale too): the extremes (UInt64 max, Decimal128
-- +-(10^28 - 1e-10)) in groups of 300 rows (sums past 2^64 and raw sums
-- past 2^127 and 10^38), NULLs, groups of only NULLs, no rows, FILTER,
-- HAVING, group keys and none; then about 100 groups of seeded random wide
-- values and 60 seeded random queries. The caller has created server ch_n2
-- and set :ch_db.
-- ====================================================================
SET extra_float_digits = 0;
SELECT clickhouse_exec('ch_n2', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.n2');
SELECT clickhouse_exec('ch_n2', 'CREATE TABLE ' || :'ch_db' || '.n2 (id Int32, g Nullable(Int32), u64 Nullable(UInt64), d38 Nullable(Decimal(38, 10)), d30 Decimal(30, 3)) ENGINE = MergeTree ORDER BY id');
-- group 1: 300 rows of the maxima (UInt64 max, Decimal(38, 10) max);
-- group 2: 300 rows of Decimal(38, 10)'s minimum and UInt64 max - 1;
-- group 3: the two alternating (sums near 0 from huge values); group 4
-- only NULLs; group 5 one row of small values; NULL: mixed
SELECT clickhouse_exec('ch_n2', 'INSERT INTO ' || :'ch_db' || '.n2 SELECT number, 1, 18446744073709551615, toDecimal128(''9999999999999999999999999999.9999999999'', 10), toDecimal128(''999999999999999999999999999.999'', 3) FROM system.numbers LIMIT 300');
SELECT clickhouse_exec('ch_n2', 'INSERT INTO ' || :'ch_db' || '.n2 SELECT 1000 + number, 2, 18446744073709551614, toDecimal128(''-9999999999999999999999999999.9999999999'', 10), toDecimal128(''-999999999999999999999999999.999'', 3) FROM system.numbers LIMIT 300');
SELECT clickhouse_exec('ch_n2', 'INSERT INTO ' || :'ch_db' || '.n2 SELECT 2000 + number, 3, if(number % 2 = 0, 18446744073709551615, 0), toDecimal128(if(number % 2 = 0, ''9999999999999999999999999999.9999999999'', ''-9999999999999999999999999999.9999999999''), 10), toDecimal128(if(number % 3 = 0, ''-0.001'', ''0.001''), 3) FROM system.numbers LIMIT 301');
SELECT clickhouse_exec('ch_n2', 'INSERT INTO ' || :'ch_db' || '.n2 VALUES
  (3000, 4, NULL, NULL, 0), (3001, 4, NULL, NULL, 0),
  (3002, 5, 7, -0.0000000001, -1.5),
  (3003, NULL, 4294967296, 18446744073709551616.0000000001, 4294967295.999),
  (3004, NULL, 4294967295, -18446744073709551615.9999999999, -4294967296.001),
  (3005, NULL, NULL, -1, 1),
  (3006, NULL, 0, NULL, 0)');
CREATE FOREIGN TABLE n2 (id int, g int, u64 numeric, d38 numeric, d30 numeric)
  SERVER ch_n2 OPTIONS (table 'n2');
CREATE TABLE n2_l AS SELECT * FROM n2;
SELECT count(*), count(u64), count(d38), sum(u64) > 2::numeric ^ 64 AS u64_past_2_64,
  max(abs(d38)) * 1e10 * 300 > 2::numeric ^ 127 AS d38_raw_past_2_127 FROM n2_l;
\i sql/include/diff_check.sql
CREATE FUNCTION n2_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'n2', '(Aggregate|Sort|Group)') $$;

-- ==== UInt64: sum and avg in Decimal128, squares in 32-bit pieces
-- (intDiv / modulo of the UInt64 itself, never wrapped to Int64)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(u64), avg(u64), var_pop(u64) FROM n2 GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(u64), avg(u64) FROM n2 GROUP BY g',
  'SELECT g, stddev(u64), stddev_samp(u64), stddev_pop(u64), variance(u64), var_samp(u64), var_pop(u64) FROM n2 GROUP BY g',
  'SELECT sum(u64), avg(u64), var_pop(u64) FROM n2',
  'SELECT sum(u64), avg(u64), stddev(u64) FROM n2 WHERE id < 0',
  'SELECT g, sum(u64) FILTER (WHERE id % 3 = 0), avg(u64) FILTER (WHERE id % 2 = 1), variance(u64) FILTER (WHERE id > 150) FROM n2 GROUP BY g',
  'SELECT g, sum(u64) FROM n2 GROUP BY g HAVING sum(u64) > 18446744073709551615',
  'SELECT g, id % 3, sum(u64), avg(u64) FROM n2 GROUP BY g, id % 3'
]) q, n2_check(q) c;
SELECT g, sum(u64), avg(u64), var_pop(u64) FROM n2 GROUP BY g ORDER BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(u64) FROM n2 GROUP BY g HAVING sum(u64) > 18446744073709551615;

-- ==== Decimal(38, 10) and Decimal(30, 3) (Decimal128): avg and the
-- variance family (limbs on 18.16, Decimal256 on 26.5)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, avg(d38), stddev(d38) FROM n2 GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, avg(d38), avg(d30) FROM n2 GROUP BY g',
  'SELECT g, stddev(d38), stddev_samp(d38), stddev_pop(d38), variance(d38), var_samp(d38), var_pop(d38) FROM n2 GROUP BY g',
  'SELECT g, stddev(d30), var_pop(d30), variance(d30) FROM n2 GROUP BY g',
  'SELECT avg(d38), var_pop(d38), stddev(d30) FROM n2',
  'SELECT avg(d38), variance(d38) FROM n2 WHERE id < 0',
  'SELECT g, avg(d38) FILTER (WHERE id % 2 = 0), var_samp(d38) FILTER (WHERE id % 7 = 1) FROM n2 GROUP BY g',
  'SELECT g, avg(d38) FROM n2 GROUP BY g HAVING avg(d38) IS NOT NULL',
  'SELECT g, avg(d38), stddev(d38), sum(u64) FROM n2 GROUP BY g'
]) q, n2_check(q) c;
SELECT g, avg(d38), var_pop(d38), avg(d30), stddev(d30) FROM n2 GROUP BY g ORDER BY g;
-- sums of Decimal(38, 10): sent on 26.5 (Decimal256), on 18.16 in limbs (numagg3)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(d38), sum(d30) FROM n2 GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(d38), sum(d30) FROM n2 GROUP BY g',
  'SELECT sum(d38) FILTER (WHERE id > 10), sum(d30) FROM n2'
]) q, n2_check(q) c;
SELECT g, sum(d38), sum(d30) FROM n2 GROUP BY g ORDER BY g;

-- ==== about 100 groups of seeded random wide values (cityHash64 of the
-- row number: UInt64 anywhere in its range, Decimal(38, 10) of up to 28
-- integer digits of either sign, a tenth NULL)
SELECT clickhouse_exec('ch_n2', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.n2r');
SELECT clickhouse_exec('ch_n2', 'CREATE TABLE ' || :'ch_db' || '.n2r (id UInt32, g UInt32, u64 Nullable(UInt64), d38 Nullable(Decimal(38, 10))) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_n2', 'INSERT INTO ' || :'ch_db' || '.n2r SELECT number, cityHash64(number, 1) % 101, if(cityHash64(number, 2) % 10 = 0, NULL, cityHash64(number, 3)), if(cityHash64(number, 4) % 10 = 0, NULL, toDecimal128(concat(if(cityHash64(number, 5) % 2 = 0, ''-'', ''''), toString(cityHash64(number, 6) % 1000000000000000000), toString(cityHash64(number, 7) % 10000000000), ''.'', toString(cityHash64(number, 8) % 10000000000)), 10)) FROM system.numbers LIMIT 3000');
CREATE FOREIGN TABLE n2r (id int, g int, u64 numeric, d38 numeric) SERVER ch_n2 OPTIONS (table 'n2r');
CREATE TABLE n2r_l AS SELECT * FROM n2r;
SELECT count(*), count(DISTINCT g), count(u64), count(d38), max(u64) > 2::numeric ^ 63 AS big_u64,
  max(abs(d38)) > 1e27 AS big_d38, min(d38) < 0 AS negative FROM n2r_l;
SELECT setseed(0.52);
CREATE TEMP TABLE n2_runs AS
  SELECT n, format('SELECT %s%s(%s)%s, count(*) FROM n2r%s',
    CASE WHEN random() < 0.8 THEN 'g, ' ELSE '' END,
    (ARRAY['sum', 'avg', 'stddev', 'stddev_samp', 'stddev_pop', 'variance', 'var_samp', 'var_pop',
           'sum', 'avg'])[1 + floor(random() * 10)::int],
    (ARRAY['u64', 'd38'])[1 + floor(random() * 2)::int],
    CASE WHEN random() < 0.3 THEN ' FILTER (WHERE id % ' || 2 + floor(random() * 5)::int || ' = 0)'
         ELSE '' END,
    CASE WHEN random() < 0.2 THEN ' WHERE id > 2500' WHEN random() < 0.1 THEN ' WHERE id > 9000'
         ELSE '' END) AS q
  FROM generate_series(1, 60) n;
UPDATE n2_runs SET q = q || ' GROUP BY g' WHERE q LIKE 'SELECT g, %';
-- every query's answer equal; all sent (numagg3: sum(d38) on 18.16 too)
SELECT count(*) AS queries, count(*) FILTER (WHERE c.same) AS same,
       count(*) FILTER (WHERE c.pushed) AS pushed,
       count(*) FILTER (WHERE NOT c.pushed AND r.q NOT LIKE '%sum(d38)%') AS other_local
FROM n2_runs r, LATERAL diff_check(r.q, 'n2r', '(Aggregate|Sort|Group)') c;
SELECT r.n, r.q FROM n2_runs r, LATERAL diff_check(r.q, 'n2r', '(Aggregate|Sort|Group)') c
  WHERE NOT c.same ORDER BY r.n;
-- the random groups themselves, all sent at once
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(u64), avg(u64), stddev(u64), avg(d38), var_pop(d38) FROM n2r GROUP BY g',
  'SELECT g, stddev_pop(u64), stddev_samp(u64), stddev_pop(d38), stddev_samp(d38) FROM n2r GROUP BY g',
  'SELECT g, stddev_pop(u64), stddev_samp(d38) FROM n2r WHERE id % 7 < 3 GROUP BY g'
]) q, diff_check(q, 'n2r', '(Aggregate|Sort|Group)') c;
DROP TABLE n2_runs;
DROP TABLE n2r_l;
DROP FOREIGN TABLE n2r;
