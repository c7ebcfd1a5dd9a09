-- ====================================================================
-- (numagg3) sum of Decimal128 columns declared numeric, shared by
-- numagg3.sql (18.16) and modern_numagg3.sql (the 26.5 engine behind
-- test/chdb/front.py, a test harness, not a server). README "What is
-- sent": where there is no Decimal256 (18.16) the sum of a Decimal128
-- travels in four 32-bit limbs (the count and the sums of the limbs, in
-- Decimal128) and PostgreSQL recombines it exactly at the column's scale;
-- on 26.5 it is summed in Decimal256. A sum PostgreSQL finishes is no
-- value for ClickHouse: in HAVING it is PostgreSQL's Filter over the
-- returned groups, in ORDER BY PostgreSQL's Sort (18.16); over a window
-- it stays local. Each answer is compared with a local copy as text (the
-- display scale too): Decimal(38, 0), (38, 10), (38, 38) and (20, 2) at
-- their extremes in groups of 300 rows (raw sums past 2^127 and 10^38),
-- negative values, groups of only NULLs (NULL), no rows (NULL), FILTER,
-- group keys and none, mixed with other aggregates; then about 100 groups
-- of seeded random extreme values and 60 seeded random queries. The
-- caller has created server ch_n3 and set :ch_db.
-- ====================================================================
SET extra_float_digits = 0;
SELECT clickhouse_exec('ch_n3', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.n3');
SELECT clickhouse_exec('ch_n3', 'CREATE TABLE ' || :'ch_db' || '.n3 (id Int32, g Nullable(Int32), d0 Nullable(Decimal(38, 0)), d10 Nullable(Decimal(38, 10)), d38 Nullable(Decimal(38, 38)), d20 Decimal(20, 2), i Int32) ENGINE = MergeTree ORDER BY id');
-- group 1: 300 rows of the maxima; group 2: 300 rows of the minima;
-- group 3: the two alternating (301 rows: the maximum once more); group 4
-- only NULLs; group 5 one row of small values; NULL: mixed, 2^126 twice
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3 SELECT number, 1, toDecimal128(''99999999999999999999999999999999999999'', 0), toDecimal128(''9999999999999999999999999999.9999999999'', 10), toDecimal128(''0.99999999999999999999999999999999999999'', 38), toDecimal128(''999999999999999999.99'', 2), 1 FROM system.numbers LIMIT 300');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3 SELECT 1000 + number, 2, toDecimal128(''-99999999999999999999999999999999999999'', 0), toDecimal128(''-9999999999999999999999999999.9999999999'', 10), toDecimal128(''-0.99999999999999999999999999999999999999'', 38), toDecimal128(''-999999999999999999.99'', 2), 2 FROM system.numbers LIMIT 300');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3 SELECT 2000 + number, 3, toDecimal128(if(number % 2 = 0, ''99999999999999999999999999999999999999'', ''-99999999999999999999999999999999999999''), 0), toDecimal128(if(number % 2 = 0, ''9999999999999999999999999999.9999999999'', ''-9999999999999999999999999999.9999999999''), 10), toDecimal128(if(number % 2 = 0, ''0.99999999999999999999999999999999999999'', ''-0.99999999999999999999999999999999999999''), 38), toDecimal128(if(number % 3 = 0, ''-0.01'', ''0.01''), 2), 3 FROM system.numbers LIMIT 301');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3 VALUES
  (3000, 4, NULL, NULL, NULL, 0, 4), (3001, 4, NULL, NULL, NULL, 0, 4),
  (3002, 5, -1, -0.0000000001, -0.00000000000000000000000000000000000001, -1.5, 5),
  (3003, NULL, 85070591730234615865843651857942052864, 1701411834604692317316873037.1588410572, 0.17014118346046923173168730371588410572, 4294967295.99, 6),
  (3004, NULL, 85070591730234615865843651857942052863, -18446744073709551615.9999999999, -0.5, -4294967296.01, 7),
  (3005, NULL, -1, NULL, 0.00000000000000000000000000000000000001, 1, 8),
  (3006, NULL, 0, 0, NULL, 0, 9)');
CREATE FOREIGN TABLE n3 (id int, g int, d0 numeric, d10 numeric, d38 numeric, d20 numeric, i int)
  SERVER ch_n3 OPTIONS (table 'n3');
CREATE TABLE n3_l AS SELECT * FROM n3;
SELECT count(*), count(d0), count(d38), max(s0) > 2::numeric ^ 127 AS d0_past_2_127,
  max(abs(s10)) * 1e10 > 2::numeric ^ 127 AS d10_raw_past_2_127,
  max(abs(s38)) * 1e38 > 2::numeric ^ 127 AS d38_raw_past_2_127
  FROM n3_l, LATERAL (SELECT sum(d0) AS s0, sum(d10) AS s10, sum(d38) AS s38 FROM n3_l w
                      WHERE w.g = n3_l.g) s;
\i sql/include/diff_check.sql
CREATE FUNCTION n3_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'n3', '(Aggregate|Sort|Group)') $$;
CREATE FUNCTION n3_ordered(q text, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'n3', '(Aggregate|Group)', true) $$;

-- ==== sums sent: 18.16 in limbs (PostgreSQL recombines them), 26.5 in
-- Decimal256; grouped and not, FILTER, no rows, only NULLs, the scales
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(d10) FROM n3 GROUP BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT sum(d0) FILTER (WHERE id % 2 = 0), count(*) FROM n3;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(d0), sum(d10), sum(d38), sum(d20) FROM n3 GROUP BY g',
  'SELECT sum(d0), sum(d10), sum(d38), sum(d20) FROM n3',
  'SELECT sum(d0), sum(d10), sum(d38), sum(d20), count(*) FROM n3 WHERE id < 0',
  'SELECT g, sum(d0) FROM n3 WHERE id < 0 GROUP BY g',
  'SELECT g, sum(d0) FILTER (WHERE id % 3 = 0), sum(d10) FILTER (WHERE id % 2 = 1), sum(d38) FILTER (WHERE id > 2100) FROM n3 GROUP BY g',
  'SELECT sum(d10) FILTER (WHERE id > 10), sum(d38) FILTER (WHERE g = 4) FROM n3',
  'SELECT g, id % 3, sum(d0), sum(d38) FROM n3 GROUP BY g, id % 3',
  'SELECT i, sum(d10) FROM n3 GROUP BY i',
  'SELECT g, sum(d0), avg(d0), stddev(d10), count(d38), sum(i), max(d38), min(d20), avg(d38) FROM n3 GROUP BY g',
  'SELECT g, sum(d10) * 2, sum(d0) / count(*), sum(d38) - sum(d38) FROM n3 GROUP BY g',
  'SELECT g, sum(d0) FROM n3 GROUP BY ROLLUP (g)'
]) q, n3_check(q) c;
SELECT g, sum(d0), sum(d10), sum(d38), sum(d20) FROM n3 GROUP BY g ORDER BY g;
SELECT sum(d0), sum(d10), sum(d38), sum(d20) FROM n3 WHERE g = 4;
SELECT sum(d0), sum(d10) FROM n3 WHERE id < 0;
-- the scale of each sum is the column's, as PostgreSQL's (trailing zeros kept)
SELECT scale(sum(d0)), scale(sum(d10)), scale(sum(d38)), scale(sum(d20)) FROM n3 WHERE g = 5;
SELECT sum(d10), sum(d20) FROM n3 WHERE id = 3006;

-- ==== HAVING and ORDER BY of such a sum: on 18.16 PostgreSQL's Filter
-- over the groups ClickHouse returns (the sum among them) and its Sort;
-- on 26.5 sent. Either way the answers are PostgreSQL's.
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, count(*) FROM n3 GROUP BY g HAVING sum(d0) > 170141183460469231731687303715884105726;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(d10) FROM n3 GROUP BY g ORDER BY sum(d10) DESC LIMIT 2;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, count(*) FROM n3 GROUP BY g HAVING sum(d0) > 170141183460469231731687303715884105726',
  'SELECT g, sum(d38) FROM n3 GROUP BY g HAVING sum(d38) < 0 AND count(*) > 1',
  'SELECT g, sum(d10) FROM n3 GROUP BY g HAVING sum(d10) IS NULL',
  'SELECT sum(d0) FROM n3 HAVING sum(d0) > 0'
]) q, n3_check(q) c;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(d10) FROM n3 GROUP BY g ORDER BY sum(d10) DESC NULLS LAST, g LIMIT 2',
  'SELECT g, sum(d0) FROM n3 GROUP BY g ORDER BY 2, 1',
  'SELECT g, sum(d38) FROM n3 GROUP BY g ORDER BY sum(d38) NULLS FIRST, g'
]) q, n3_ordered(q) c;
SELECT g, count(*) FROM n3 GROUP BY g HAVING sum(d0) > 170141183460469231731687303715884105726 ORDER BY g;
SELECT g, sum(d10) FROM n3 GROUP BY g ORDER BY sum(d10) DESC NULLS LAST, g LIMIT 2;

-- ==== kept local (EXPLAIN shows PostgreSQL's Aggregate): DISTINCT, an
-- expression's sum (a computed Decimal's scale is ClickHouse's). Over a
-- window: 18.16 has none (local), 26.5 sends the Decimal256 sum (its
-- limb sums over windows stay local: modern_numagg3)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(DISTINCT d0) FROM n3 GROUP BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(d10 + 1) FROM n3 GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(DISTINCT d0) FROM n3 GROUP BY g',
  'SELECT g, sum(d10 + 1) FROM n3 GROUP BY g'
]) q, n3_check(q) c;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT id, sum(d0) OVER (PARTITION BY g) FROM n3'
]) q, diff_check(q, 'n3', '(WindowAgg|Sort|Aggregate)') c;
-- a scalar subquery per outer row, sent as a join where ClickHouse has
-- its value (26.5: Decimal256), kept local where PostgreSQL would finish
-- it (18.16: limbs)
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT o.id, (SELECT sum(d0) FROM n3 w WHERE w.i = o.i) FROM n3 o WHERE o.id > 3000'
]) q, diff_check(q, 'n3', '(Sort)') c;

-- ==== the same Var numbers over two tables in one statement: a sum of
-- n3a.d (Decimal(38, 2): limbs on 18.16) and of n3b.d (Decimal(18, 2):
-- a plain sum) are equal Aggrefs; the first planned keeps its form, the
-- other is computed by PostgreSQL (never finished the wrong way)
SELECT clickhouse_exec('ch_n3', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.n3a');
SELECT clickhouse_exec('ch_n3', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.n3b');
SELECT clickhouse_exec('ch_n3', 'CREATE TABLE ' || :'ch_db' || '.n3a (id Int32, d Decimal(38, 2)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_n3', 'CREATE TABLE ' || :'ch_db' || '.n3b (id Int32, d Decimal(18, 2)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3a SELECT number, toDecimal128(''999999999999999999999999999999999999.99'', 2) FROM system.numbers LIMIT 200');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3b SELECT number, toDecimal64(''9999999999999999.99'', 2) FROM system.numbers LIMIT 200');
CREATE FOREIGN TABLE n3a (id int, d numeric) SERVER ch_n3 OPTIONS (table 'n3a');
CREATE FOREIGN TABLE n3b (id int, d numeric) SERVER ch_n3 OPTIONS (table 'n3b');
CREATE TABLE n3a_l AS SELECT * FROM n3a;
CREATE TABLE n3b_l AS SELECT * FROM n3b;
EXPLAIN (VERBOSE, COSTS OFF) SELECT (SELECT sum(d) FROM n3a), (SELECT sum(d) FROM n3b);
EXPLAIN (VERBOSE, COSTS OFF) SELECT (SELECT sum(d) FROM n3b), (SELECT sum(d) FROM n3a);
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT (SELECT sum(d) FROM n3a), (SELECT sum(d) FROM n3b)',
  'SELECT (SELECT sum(d) FROM n3b), (SELECT sum(d) FROM n3a)',
  'SELECT sum(d) FROM n3a',
  'SELECT sum(d) FROM n3b'
]) q, diff_check(q, 'n3a|n3b', '(Sort)') c;
SELECT (SELECT sum(d) FROM n3a), (SELECT sum(d) FROM n3b);
-- in two statements of one transaction the record is the statement's:
-- both sent (n3b's in the plain form)
BEGIN;
EXPLAIN (COSTS OFF) SELECT sum(d) FROM n3a;
EXPLAIN (COSTS OFF) SELECT sum(d) FROM n3b;
SELECT sum(d) FROM n3a;
SELECT sum(d) FROM n3b;
COMMIT;
-- but two queries a PL/pgSQL function plans in one statement share the
-- record: on 18.16 n3b's sum (planned second) is computed by PostgreSQL
CREATE FUNCTION n3_two(OUT q text, OUT plan_top text, OUT s numeric, OUT same boolean)
RETURNS SETOF record LANGUAGE plpgsql AS $$
DECLARE
  l numeric;
BEGIN
  FOR q IN SELECT unnest(ARRAY['SELECT sum(d) FROM n3a', 'SELECT sum(d) FROM n3b']) LOOP
    EXECUTE 'EXPLAIN (COSTS OFF) ' || q INTO plan_top;
    EXECUTE q INTO s;
    EXECUTE q || '_l' INTO l;
    same := s IS NOT DISTINCT FROM l AND scale(s) = scale(l);
    RETURN NEXT;
  END LOOP;
END $$;
SELECT * FROM n3_two();
DROP FUNCTION n3_two();
-- a prepared statement's custom and generic plans (planned at each EXECUTE)
PREPARE n3p(int) AS SELECT sum(d), count(*) FROM n3a WHERE id >= $1;
EXECUTE n3p(0); EXECUTE n3p(0); EXECUTE n3p(0); EXECUTE n3p(0); EXECUTE n3p(0);
EXECUTE n3p(150);
EXPLAIN (COSTS OFF) EXECUTE n3p(150);
DEALLOCATE n3p;
-- partition-wise aggregation over foreign partitions: each partition's
-- whole groups sent (GROUP BY the partition key); partial sums are not
-- sent (PostgreSQL combines the partials it computes)
SELECT clickhouse_exec('ch_n3', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.n3pa');
SELECT clickhouse_exec('ch_n3', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.n3pb');
SELECT clickhouse_exec('ch_n3', 'CREATE TABLE ' || :'ch_db' || '.n3pa (id Int32, d Decimal(38, 2)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_n3', 'CREATE TABLE ' || :'ch_db' || '.n3pb (id Int32, d Decimal(38, 2)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3pa SELECT id, d FROM ' || :'ch_db' || '.n3a WHERE id < 100');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3pb SELECT id, -d FROM ' || :'ch_db' || '.n3a WHERE id >= 100');
CREATE TABLE n3pt (id int, d numeric) PARTITION BY RANGE (id);
CREATE FOREIGN TABLE n3pt_a PARTITION OF n3pt FOR VALUES FROM (0) TO (100) SERVER ch_n3 OPTIONS (table 'n3pa');
CREATE FOREIGN TABLE n3pt_b PARTITION OF n3pt FOR VALUES FROM (100) TO (1000) SERVER ch_n3 OPTIONS (table 'n3pb');
CREATE TABLE n3pt_l AS SELECT * FROM n3pt;
SET enable_partitionwise_aggregate = on;
EXPLAIN (COSTS OFF) SELECT id % 2, sum(d) FROM n3pt GROUP BY id % 2;
EXPLAIN (COSTS OFF) SELECT id, sum(d) FROM n3pt GROUP BY id;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT id, sum(d) FROM n3pt GROUP BY id',
  'SELECT id % 2, sum(d) FROM n3pt GROUP BY id % 2',
  'SELECT sum(d), count(*) FROM n3pt'
]) q, diff_check(q, 'n3pt', '(Sort)') c;
SELECT id % 2, sum(d) FROM n3pt GROUP BY id % 2 ORDER BY 1;
RESET enable_partitionwise_aggregate;
DROP TABLE n3pt, n3pt_l;
-- over a join (sent as a join): on 18.16 a sum in limbs is computed by PostgreSQL
-- over the joined rows, and so the grouping (26.5: all sent)
EXPLAIN (VERBOSE, COSTS OFF) SELECT b.id % 3, sum(a.d), sum(b.d) FROM n3a a JOIN n3b b ON a.id = b.id GROUP BY b.id % 3;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT b.id % 3, sum(a.d), sum(b.d) FROM n3a a JOIN n3b b ON a.id = b.id GROUP BY b.id % 3',
  'SELECT sum(a.d), count(*) FROM n3a a JOIN n3b b ON a.id = b.id'
]) q, diff_check(q, 'n3a|n3b', '(Aggregate|Sort)') c;
-- equal sums of groups of different counts (2 over 1, 2 and 2 rows, 2e35
-- - 0.02 over 2 and 1: their limbs' texts differ): DISTINCT over them and
-- a window over the groups (PostgreSQL's), a condition on a subquery's
-- sum (PostgreSQL's Filter), UNION ALL and INTERSECT of grouped queries
SELECT clickhouse_exec('ch_n3', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.n3e');
SELECT clickhouse_exec('ch_n3', 'CREATE TABLE ' || :'ch_db' || '.n3e (id Int32, g Int32, d Decimal(38, 2)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3e VALUES (1, 1, 2), (2, 2, 1), (3, 2, 1), (4, 3, 3), (5, 3, -1), (6, 4, 99999999999999999999999999999999999.99), (7, 4, 99999999999999999999999999999999999.99), (8, 5, 199999999999999999999999999999999999.98)');
CREATE FOREIGN TABLE n3e (id int, g int, d numeric) SERVER ch_n3 OPTIONS (table 'n3e');
CREATE TABLE n3e_l AS SELECT * FROM n3e;
EXPLAIN (VERBOSE, COSTS OFF) SELECT DISTINCT sum(d) FROM n3e GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT DISTINCT sum(d) FROM n3e GROUP BY g',
  'SELECT count(DISTINCT s) FROM (SELECT sum(d) s FROM n3e GROUP BY g) x',
  'SELECT g, sum(d), rank() OVER (ORDER BY sum(d)) FROM n3e GROUP BY g',
  'SELECT * FROM (SELECT g, sum(d) s FROM n3e GROUP BY g) x WHERE s = 2',
  'SELECT g, sum(d) FROM n3e GROUP BY g UNION ALL SELECT g, sum(d) FROM n3e WHERE id > 3 GROUP BY g',
  'SELECT sum(d) FROM n3e GROUP BY g INTERSECT SELECT sum(d) FROM n3e WHERE g > 3 GROUP BY g'
]) q, diff_check(q, 'n3e', '(Aggregate|Sort|WindowAgg)') c;
SELECT DISTINCT sum(d) FROM n3e GROUP BY g ORDER BY 1;
-- numeric NaN and infinities: no Decimal holds them; a Float64 column
-- declared numeric (which reads them) is summed by PostgreSQL (numagg)
SELECT clickhouse_exec('ch_n3', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.n3f');
SELECT clickhouse_exec('ch_n3', 'CREATE TABLE ' || :'ch_db' || '.n3f (id Int32, g Int32, f Float64) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3f VALUES (1, 1, 1.5), (2, 1, nan), (3, 2, inf), (4, 2, 2.25), (5, 3, -inf), (6, 3, inf), (7, 4, 1e30)');
CREATE FOREIGN TABLE n3f (id int, g int, f numeric) SERVER ch_n3 OPTIONS (table 'n3f');
CREATE TABLE n3f_l AS SELECT * FROM n3f;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(f) FROM n3f GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(f) FROM n3f GROUP BY g',
  'SELECT sum(f) FROM n3f'
]) q, diff_check(q, 'n3f', '(Aggregate|Sort)') c;
SELECT g, sum(f) FROM n3f GROUP BY g ORDER BY g;

-- ==== about 100 groups of seeded random extreme values (cityHash64 of
-- the row number: up to 38 digits of either sign at scales 0, 10 and
-- 38, a tenth NULL) and 60 seeded random queries
SELECT clickhouse_exec('ch_n3', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.n3r');
SELECT clickhouse_exec('ch_n3', 'CREATE TABLE ' || :'ch_db' || '.n3r (id UInt32, g UInt32, d0 Nullable(Decimal(38, 0)), d10 Nullable(Decimal(38, 10)), d38 Nullable(Decimal(38, 38))) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_n3', 'INSERT INTO ' || :'ch_db' || '.n3r SELECT number, cityHash64(number, 1) % 103,
  if(cityHash64(number, 2) % 10 = 0, NULL, toDecimal128(concat(if(cityHash64(number, 3) % 2 = 0, ''-'', ''''), substring(concat(''9'', toString(cityHash64(number, 4)), toString(cityHash64(number, 5)), toString(cityHash64(number, 6))), 1, 30 + cityHash64(number, 7) % 9)), 0)),
  if(cityHash64(number, 8) % 10 = 0, NULL, toDecimal128(concat(if(cityHash64(number, 9) % 2 = 0, ''-'', ''''), substring(concat(''9'', toString(cityHash64(number, 10)), toString(cityHash64(number, 11))), 1, 20 + cityHash64(number, 12) % 9), ''.'', toString(cityHash64(number, 13) % 10000000000)), 10)),
  if(cityHash64(number, 14) % 10 = 0, NULL, toDecimal128(concat(if(cityHash64(number, 15) % 2 = 0, ''-0.'', ''0.''), substring(concat(''9'', toString(cityHash64(number, 16)), toString(cityHash64(number, 17))), 1, 38)), 38))
  FROM system.numbers LIMIT 3000');
CREATE FOREIGN TABLE n3r (id int, g int, d0 numeric, d10 numeric, d38 numeric) SERVER ch_n3 OPTIONS (table 'n3r');
CREATE TABLE n3r_l AS SELECT * FROM n3r;
SELECT count(*), count(DISTINCT g), count(d0), count(d10), count(d38),
  max(abs(d0)) > 1e37 AS big_d0, min(d0) < 0 AS negative, max(abs(d38)) > 0.9 AS big_d38
  FROM n3r_l;
SELECT setseed(0.54);
CREATE TEMP TABLE n3_runs AS
  SELECT n, format('SELECT %s%s(%s)%s, %s FROM n3r%s',
    CASE WHEN random() < 0.8 THEN 'g, ' ELSE '' END,
    (ARRAY['sum', 'sum', 'sum', 'avg'])[1 + floor(random() * 4)::int],
    (ARRAY['d0', 'd10', 'd38'])[1 + floor(random() * 3)::int],
    CASE WHEN random() < 0.3 THEN ' FILTER (WHERE id % ' || 2 + floor(random() * 5)::int || ' = 0)'
         ELSE '' END,
    (ARRAY['count(*)', 'sum(d38)', 'sum(d0) FILTER (WHERE id % 2 = 1)', 'stddev(d10)'])[1 + floor(random() * 4)::int],
    CASE WHEN random() < 0.2 THEN ' WHERE id > 2500' WHEN random() < 0.1 THEN ' WHERE id > 9000'
         ELSE '' END) AS q
  FROM generate_series(1, 60) n;
UPDATE n3_runs SET q = q || ' GROUP BY g' WHERE q LIKE 'SELECT g, %';
-- every query's answer equal, every one sent
SELECT count(*) AS queries, count(*) FILTER (WHERE c.same) AS same,
       count(*) FILTER (WHERE c.pushed) AS pushed
FROM n3_runs r, LATERAL diff_check(r.q, 'n3r', '(Aggregate|Sort|Group)') c;
SELECT r.n, r.q FROM n3_runs r, LATERAL diff_check(r.q, 'n3r', '(Aggregate|Sort|Group)') c
  WHERE NOT c.same OR NOT c.pushed ORDER BY r.n;
-- the random groups themselves, all sent at once, and as EXCEPT ALL both ways
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(d0), sum(d10), sum(d38), count(*) FROM n3r GROUP BY g',
  'SELECT g, sum(d0) FILTER (WHERE id % 7 < 3), sum(d38) FILTER (WHERE d0 > 0) FROM n3r GROUP BY g'
]) q, diff_check(q, 'n3r', '(Aggregate|Sort|Group)') c;
-- only the groups travel: 103 rows of 3000 (the query id masked)
CREATE FUNCTION n3_analyze(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    RETURN NEXT regexp_replace(line, '(Query ID: ).*', '\1<id>');
  END LOOP;
END $$;
SELECT n3_analyze('SELECT g, sum(d0), sum(d10), sum(d38) FROM n3r GROUP BY g');
-- what a sum computed here reads (before numagg3 on 18.16): every row
SELECT n3_analyze('SELECT g, d0 FROM n3r');
DROP FUNCTION n3_analyze(text);
SELECT count(*) AS groups, count(s0) AS with_d0, max(abs(s0)) > 2::numeric ^ 127 AS past_2_127 FROM
  (SELECT g, sum(d0) AS s0 FROM n3r GROUP BY g) s;
(SELECT g, sum(d0), sum(d10), sum(d38) FROM n3r GROUP BY g EXCEPT ALL
 SELECT g, sum(d0), sum(d10), sum(d38) FROM n3r_l GROUP BY g)
UNION ALL
(SELECT g, sum(d0), sum(d10), sum(d38) FROM n3r_l GROUP BY g EXCEPT ALL
 SELECT g, sum(d0), sum(d10), sum(d38) FROM n3r GROUP BY g);
DROP TABLE n3_runs;
DROP TABLE n3r_l, n3a_l, n3b_l, n3f_l, n3e_l;
DROP FOREIGN TABLE n3r, n3a, n3b, n3f, n3e;
