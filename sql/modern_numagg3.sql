-- ====================================================================
-- (numagg3) sums of wide columns declared numeric on the ClickHouse 26.5
-- engine (chDB behind test/chdb/front.py, a test harness, not a server).
-- The body, shared with numagg3.sql (18.16), is sql/include/numagg3.sql:
-- here Decimal128 is summed in Decimal256. Then Int256, UInt256 and
-- Decimal256 (scales 0, 20 and 76), whose sums can pass every ClickHouse
-- type (2^255): sent in eight 32-bit limbs that PostgreSQL recombines
-- exactly, at their extremes (sums past 2^255 and 10^76), negative, NULL
-- only, no rows, FILTER, grouping sets; HAVING and ORDER BY of them
-- evaluated by PostgreSQL over the returned groups, over windows local;
-- about 100 groups of seeded random extreme values. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_n3 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_n3;
\i sql/include/numagg3.sql

-- ==== the 256-bit types: group 1 300 rows of the maxima, group 2 300
-- rows of the minima (UInt256: 0 and max - 1), group 3 the two
-- alternating, group 4 only NULLs, group 5 small values, NULL mixed
SELECT clickhouse_exec('ch_n3', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.n3w');
SELECT clickhouse_exec('ch_n3', 'CREATE TABLE ' || :'ch_db' || '.n3w (id Int32, g Nullable(Int32), i256 Nullable(Int256), u256 UInt256, d76 Nullable(Decimal(76, 20)), e76 Nullable(Decimal(76, 0)), f76 Nullable(Decimal(76, 76))) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3w SELECT number, 1, toInt256(''57896044618658097711785492504343953926634992332820282019728792003956564819967''), toUInt256(''115792089237316195423570985008687907853269984665640564039457584007913129639935''), toDecimal256(''99999999999999999999999999999999999999999999999999999999.99999999999999999999'', 20), toDecimal256(''9999999999999999999999999999999999999999999999999999999999999999999999999999'', 0), toDecimal256(''0.9999999999999999999999999999999999999999999999999999999999999999999999999999'', 76) FROM system.numbers LIMIT 300');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3w SELECT 1000 + number, 2, toInt256(''-57896044618658097711785492504343953926634992332820282019728792003956564819968''), toUInt256(if(number % 2 = 0, ''0'', ''115792089237316195423570985008687907853269984665640564039457584007913129639934'')), toDecimal256(''-99999999999999999999999999999999999999999999999999999999.99999999999999999999'', 20), toDecimal256(''-9999999999999999999999999999999999999999999999999999999999999999999999999999'', 0), toDecimal256(''-0.9999999999999999999999999999999999999999999999999999999999999999999999999999'', 76) FROM system.numbers LIMIT 300');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3w SELECT 2000 + number, 3, toInt256(if(number % 2 = 0, ''57896044618658097711785492504343953926634992332820282019728792003956564819967'', ''-57896044618658097711785492504343953926634992332820282019728792003956564819968'')), toUInt256(if(number % 2 = 0, ''115792089237316195423570985008687907853269984665640564039457584007913129639935'', ''0'')), toDecimal256(if(number % 2 = 0, ''99999999999999999999999999999999999999999999999999999999.99999999999999999999'', ''-0.00000000000000000001''), 20), toDecimal256(if(number % 2 = 0, ''1'', ''-9999999999999999999999999999999999999999999999999999999999999999999999999999''), 0), toDecimal256(if(number % 3 = 0, ''-0.0000000000000000000000000000000000000000000000000000000000000000000000000001'', ''0.5''), 76) FROM system.numbers LIMIT 301');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3w VALUES
  (3000, 4, NULL, 0, NULL, NULL, NULL), (3001, 4, NULL, 0, NULL, NULL, NULL),
  (3002, 5, -1, 1, -0.00000000000000000001, -1, -0.0000000000000000000000000000000000000000000000000000000000000000000000000001),
  (3003, NULL, 4294967296, 4294967295, 79228162514264337593543950336.5, 340282366920938463463374607431768211456, 0.25),
  (3004, NULL, -4294967297, 340282366920938463463374607431768211456, -1.25, -18446744073709551616, -0.125),
  (3005, NULL, NULL, 7, NULL, 0, NULL)');
CREATE FOREIGN TABLE n3w (id int, g int, i256 numeric, u256 numeric, d76 numeric, e76 numeric,
  f76 numeric) SERVER ch_n3 OPTIONS (table 'n3w');
CREATE TABLE n3w_l AS SELECT * FROM n3w;
SELECT count(*), count(i256), count(d76), max(abs(s_i)) > 2::numeric ^ 255 AS i256_past_2_255,
  max(s_u) > 2::numeric ^ 256 AS u256_past_2_256, max(abs(s_e)) > 1e76 AS e76_past_10_76
  FROM n3w_l, LATERAL (SELECT sum(i256) AS s_i, sum(u256) AS s_u, sum(e76) AS s_e FROM n3w_l w
                       WHERE w.g = n3w_l.g) s;
CREATE FUNCTION n3w_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'n3w', '(Aggregate|Sort|Group)') $$;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(i256), sum(u256) FROM n3w GROUP BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT sum(d76) FILTER (WHERE id > 5) FROM n3w;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(i256), sum(u256), sum(d76), sum(e76), sum(f76) FROM n3w GROUP BY g',
  'SELECT sum(i256), sum(u256), sum(d76), sum(e76), sum(f76) FROM n3w',
  'SELECT sum(i256), sum(u256), sum(d76), count(*) FROM n3w WHERE id < 0',
  'SELECT g, sum(u256) FILTER (WHERE id % 3 = 0), sum(i256) FILTER (WHERE id % 2 = 1), sum(f76) FILTER (WHERE id > 2100) FROM n3w GROUP BY g',
  'SELECT g, sum(i256), avg(i256), var_pop(u256), count(d76), max(e76), sum(id), avg(d76) FROM n3w GROUP BY g',
  'SELECT g, sum(u256) * 2, sum(i256) / count(*) FROM n3w GROUP BY g',
  'SELECT g, sum(e76) FROM n3w GROUP BY ROLLUP (g)',
  'SELECT g, id % 2, sum(d76) FROM n3w GROUP BY GROUPING SETS ((g), (id % 2), ())'
]) q, n3w_check(q) c;
SELECT g, sum(i256), sum(u256), sum(d76), sum(e76), sum(f76) FROM n3w GROUP BY g ORDER BY g;
SELECT scale(sum(d76)), scale(sum(f76)), scale(sum(e76)), sum(f76) FROM n3w WHERE g = 5;
-- HAVING and ORDER BY: PostgreSQL's Filter over the returned groups and its Sort
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, count(*) FROM n3w GROUP BY g HAVING sum(u256) > 2::numeric ^ 256;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(i256) FROM n3w GROUP BY g ORDER BY sum(i256) LIMIT 2;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, count(*) FROM n3w GROUP BY g HAVING sum(u256) > 2::numeric ^ 256',
  'SELECT g, sum(d76) FROM n3w GROUP BY g HAVING sum(d76) < 0 OR sum(i256) > 0'
]) q, n3w_check(q) c;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(i256) FROM n3w GROUP BY g ORDER BY sum(i256) NULLS FIRST, g LIMIT 2',
  'SELECT g, sum(e76) FROM n3w GROUP BY g ORDER BY 2 DESC, 1'
]) q, diff_check(q, 'n3w', '(Aggregate|Group)', true) c;
-- kept local: over a window (a value PostgreSQL finishes is no window
-- value), DISTINCT; a window over the groups is PostgreSQL's
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, sum(i256) OVER (PARTITION BY g) FROM n3w;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(u256), rank() OVER (ORDER BY sum(u256)) FROM n3w GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT id, sum(i256) OVER (PARTITION BY g), sum(u256) OVER (PARTITION BY g ORDER BY id) FROM n3w',
  'SELECT g, sum(DISTINCT u256) FROM n3w GROUP BY g',
  'SELECT g, sum(u256), rank() OVER (ORDER BY sum(u256)) FROM n3w GROUP BY g'
]) q, diff_check(q, 'n3w', '(WindowAgg|Sort|Aggregate)') c;
-- the same Var numbers over an Int256 and an Int64 table in one statement
SELECT clickhouse_exec('ch_n3', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.n3c');
SELECT clickhouse_exec('ch_n3', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.n3d');
SELECT clickhouse_exec('ch_n3', 'CREATE TABLE ' || :'ch_db' || '.n3c (id Int32, v Int256) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_n3', 'CREATE TABLE ' || :'ch_db' || '.n3d (id Int32, v Int64) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3c SELECT number, toInt256(''57896044618658097711785492504343953926634992332820282019728792003956564819967'') FROM system.numbers LIMIT 50');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3d SELECT number, 9223372036854775807 FROM system.numbers LIMIT 50');
CREATE FOREIGN TABLE n3c (id int, v numeric) SERVER ch_n3 OPTIONS (table 'n3c');
CREATE FOREIGN TABLE n3d (id int, v numeric) SERVER ch_n3 OPTIONS (table 'n3d');
CREATE TABLE n3c_l AS SELECT * FROM n3c;
CREATE TABLE n3d_l AS SELECT * FROM n3d;
EXPLAIN (VERBOSE, COSTS OFF) SELECT (SELECT sum(v) FROM n3c), (SELECT sum(v) FROM n3d);
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT (SELECT sum(v) FROM n3c), (SELECT sum(v) FROM n3d)',
  'SELECT (SELECT sum(v) FROM n3d), (SELECT sum(v) FROM n3c)'
]) q, diff_check(q, 'n3c|n3d', '(Sort)') c;

-- ==== about 100 groups of seeded random 256-bit values (digits of
-- cityHash64, half of them of the most digits, Int256 negative a quarter
-- of the time, a tenth NULL: most groups' sums past 2^255 and 2^256) and
-- 40 seeded random queries
SELECT clickhouse_exec('ch_n3', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.n3wr');
SELECT clickhouse_exec('ch_n3', 'CREATE TABLE ' || :'ch_db' || '.n3wr (id UInt32, g UInt32, i256 Nullable(Int256), u256 UInt256, d76 Nullable(Decimal(76, 20))) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3wr SELECT number, cityHash64(number, 1) % 97,
  if(cityHash64(number, 12) % 10 = 0, NULL, toInt256(concat(if(cityHash64(number, 13) % 4 = 0, ''-'', ''''), ''5'', substring(concat(toString(cityHash64(number, 14)), toString(cityHash64(number, 15)), toString(cityHash64(number, 16)), toString(cityHash64(number, 17)), toString(cityHash64(number, 18)), toString(cityHash64(number, 33))), 1, if(cityHash64(number, 19) % 2 = 0, 75, cityHash64(number, 19) % 76))))),
  toUInt256(concat(''9'', substring(concat(toString(cityHash64(number, 20)), toString(cityHash64(number, 21)), toString(cityHash64(number, 22)), toString(cityHash64(number, 23)), toString(cityHash64(number, 24)), toString(cityHash64(number, 34))), 1, if(cityHash64(number, 25) % 2 = 0, 76, cityHash64(number, 25) % 77)))),
  if(cityHash64(number, 26) % 10 = 0, NULL, toDecimal256(concat(if(cityHash64(number, 27) % 2 = 0, ''-'', ''''), ''9'', substring(concat(toString(cityHash64(number, 28)), toString(cityHash64(number, 29)), toString(cityHash64(number, 30))), 1, 40 + cityHash64(number, 31) % 16), ''.'', toString(cityHash64(number, 32))), 20))
  FROM system.numbers LIMIT 3000');
CREATE FOREIGN TABLE n3wr (id int, g int, i256 numeric, u256 numeric, d76 numeric) SERVER ch_n3 OPTIONS (table 'n3wr');
CREATE TABLE n3wr_l AS SELECT * FROM n3wr;
SELECT count(*), count(DISTINCT g), count(i256), count(d76),
  max(u256) > 2::numeric ^ 250 AS big_u256, min(i256) < -(2::numeric ^ 250) AS big_negative
  FROM n3wr_l;
SELECT count(*) AS groups, count(*) FILTER (WHERE abs(s) > 2::numeric ^ 255) AS i256_past_2_255,
  count(*) FILTER (WHERE su > 2::numeric ^ 256) AS u256_past_2_256 FROM
  (SELECT g, sum(i256) AS s, sum(u256) AS su FROM n3wr_l GROUP BY g) s;
SELECT setseed(0.55);
CREATE TEMP TABLE n3_runs AS
  SELECT n, format('SELECT %ssum(%s)%s, %s FROM n3wr%s',
    CASE WHEN random() < 0.8 THEN 'g, ' ELSE '' END,
    (ARRAY['i256', 'u256', 'd76'])[1 + floor(random() * 3)::int],
    CASE WHEN random() < 0.3 THEN ' FILTER (WHERE id % ' || 2 + floor(random() * 5)::int || ' = 0)'
         ELSE '' END,
    (ARRAY['count(*)', 'sum(d76)', 'avg(i256)', 'sum(u256) FILTER (WHERE id % 2 = 1)'])[1 + floor(random() * 4)::int],
    CASE WHEN random() < 0.2 THEN ' WHERE id > 2500' WHEN random() < 0.1 THEN ' WHERE id > 9000'
         ELSE '' END) AS q
  FROM generate_series(1, 40) n;
UPDATE n3_runs SET q = q || ' GROUP BY g' WHERE q LIKE 'SELECT g, %';
SELECT count(*) AS queries, count(*) FILTER (WHERE c.same) AS same,
       count(*) FILTER (WHERE c.pushed) AS pushed
FROM n3_runs r, LATERAL diff_check(r.q, 'n3wr', '(Aggregate|Sort|Group)') c;
SELECT r.n, r.q FROM n3_runs r, LATERAL diff_check(r.q, 'n3wr', '(Aggregate|Sort|Group)') c
  WHERE NOT c.same OR NOT c.pushed ORDER BY r.n;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(i256), sum(u256), sum(d76), count(*) FROM n3wr GROUP BY g'
]) q, diff_check(q, 'n3wr', '(Aggregate|Sort|Group)') c;
(SELECT g, sum(i256), sum(u256), sum(d76) FROM n3wr GROUP BY g EXCEPT ALL
 SELECT g, sum(i256), sum(u256), sum(d76) FROM n3wr_l GROUP BY g)
UNION ALL
(SELECT g, sum(i256), sum(u256), sum(d76) FROM n3wr_l GROUP BY g EXCEPT ALL
 SELECT g, sum(i256), sum(u256), sum(d76) FROM n3wr GROUP BY g);
DROP TABLE n3_runs;
DROP FUNCTION n3w_check(text);
DROP FUNCTION n3_check(text);
DROP FUNCTION n3_ordered(text);
DROP TABLE n3_l, n3w_l, n3wr_l, n3c_l, n3d_l;
DROP FOREIGN TABLE n3, n3w, n3wr, n3c, n3d;
DROP SERVER ch_n3 CASCADE;
