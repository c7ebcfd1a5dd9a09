-- ====================================================================
-- Aggregates (audit of issue 17 item 7), shared by aggs2.sql (18.16) and
-- modern_aggs2.sql (the 26.5 engine behind test/chdb/front.py, a test
-- harness, not a server): aggregates of expressions (a condition in
-- bool_and / bool_or / every, CASE counts, coalesce, length, integer % and
-- / by constants), and the edges of bit_and / bit_or / bit_xor,
-- bool_and / bool_or / every, mode(), count(DISTINCT) of a row and of a
-- column with NULLs, the variance family of smallint / integer / bigint
-- and the HAVING split. Each query's Remote SQL is shown (EXPLAIN
-- VERBOSE) and its answer compared with a local copy; inputs hold NULLs,
-- groups of only NULLs, groups a filter leaves empty and the integers'
-- extremes; what stays local is checked local (README "What is sent");
-- then 80 seeded random aggregates of expressions. The caller has created
-- server ch_a2 and set :ch_db.
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET extra_float_digits = 0;
SELECT clickhouse_exec('ch_a2', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.a2');
SELECT clickhouse_exec('ch_a2', 'CREATE TABLE ' || :'ch_db' || '.a2 (id Int32, g Nullable(Int32), a Nullable(Int16), b Nullable(Int32), x Nullable(Int64), s Nullable(String), f Nullable(Float64), n Nullable(Decimal(12, 2)), ok Nullable(UInt8)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_a2', 'INSERT INTO ' || :'ch_db' || '.a2 VALUES
  (1, 1, 1, 10, 10, ''a'', 1.5, 1.25, 1),
  (2, 1, -32768, NULL, NULL, ''b'', nan, NULL, 0),
  (3, 1, 32767, 2147483647, 9223372036854775807, NULL, -0.0, 1.25, NULL),
  (4, 2, 32767, -2147483648, -9223372036854775808, ''a'', 0.5, -7.5, 1),
  (5, 2, -1, -1, -1, ''ab'', NULL, 0, 1),
  (6, 2, 0, 0, 0, '''', 2, 3, 0),
  (7, 3, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (8, 3, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (9, NULL, 5, 7, 9223372036854775806, ''é'', inf, 2, 1),
  (10, NULL, -32768, -2147483648, -9223372036854775808, ''a'', -inf, 2, 0),
  (11, 4, 3, 3, 3, ''c'', 4.5, NULL, 1),
  (12, 4, 3, 3, 3, ''c'', 4.5, NULL, 1),
  (13, 4, 2, 5, 7, ''ab'', 0.25, 4, NULL),
  (14, 5, 7, 1, 1, ''x'', 1, 1, 0)');
CREATE FOREIGN TABLE a2 (id int, g int, a smallint, b int, x bigint, s text, f float8, n numeric(12, 2), ok boolean)
  SERVER ch_a2 OPTIONS (table 'a2');
CREATE TABLE a2_l AS SELECT * FROM a2;
SELECT count(*) FROM a2_l;

-- a2_check(query): the query on the foreign table and on the local copy
-- (a2 -> a2_l), rows compared as text (sorted multisets: the queries name
-- their groups); pushed: one Foreign Scan and no Aggregate above it
\i sql/include/diff_check.sql
CREATE FUNCTION a2_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'a2', '(Aggregate|Sort|Group)') $$;

-- ==== bool_and / bool_or / every of a condition: its three values (true,
-- false, NULL: NULLs skipped, NULL over a group of only NULLs or no rows)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, bool_and(a > 0), bool_or(s = 'a'), every(b IS NOT NULL) FROM a2 GROUP BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT bool_or(a < 0 OR s LIKE 'a%') FILTER (WHERE id > 3) FROM a2;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, bool_and(a > 0), bool_or(a > 0), every(a > 0) FROM a2 GROUP BY g',
  'SELECT g, bool_and(s = ''a''), bool_or(s IS NULL), every(s <> '''') FROM a2 GROUP BY g',
  'SELECT g, bool_and(NOT ok), bool_or(ok AND a > 2), every(ok OR b < 0) FROM a2 GROUP BY g',
  'SELECT g, bool_or(a < 0 OR s LIKE ''a%'') FILTER (WHERE id > 3), bool_and(x > 0) FILTER (WHERE x IS NULL) FROM a2 GROUP BY g',
  'SELECT bool_and(a > 0), bool_or(a < 0), every(ok) FROM a2 WHERE id > 100',
  'SELECT g, bool_and(x = 9223372036854775807 OR x = -9223372036854775808) FROM a2 GROUP BY g',
  'SELECT g, bool_and(f > 0), bool_or(f < 1) FROM a2 GROUP BY g'
]) q, a2_check(q) c;
-- (nanconst) = NaN: sent as isNaN (ClickHouse's own NaN equals nothing);
-- before, it stayed local
SELECT q, c.* FROM unnest(ARRAY['SELECT bool_or(f = ''NaN''::float8) FROM a2']) q, a2_check(q) c;
SELECT g, bool_and(a > 0), bool_or(s = 'a'), every(b IS NOT NULL) FROM a2 GROUP BY g ORDER BY g;

-- ==== other aggregates of expressions: values sent in WHERE, never a
-- raising form (integer + - *: ClickHouse computes FILTER's left-out rows)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(CASE WHEN a > 0 THEN 1 ELSE 0 END), count(CASE WHEN s = 'a' THEN 1 END) FROM a2 GROUP BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(coalesce(x, 0)), max(length(s)), stddev(b % 7) FROM a2 GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(CASE WHEN a > 0 THEN 1 ELSE 0 END), count(CASE WHEN s = ''a'' THEN 1 END) FROM a2 GROUP BY g',
  'SELECT g, sum(coalesce(x, 0)), sum(coalesce(b, 0)), avg(coalesce(a, 0)) FROM a2 GROUP BY g',
  'SELECT g, sum(length(s)), max(length(s)), min(length(s)), avg(length(s)) FROM a2 GROUP BY g',
  'SELECT g, stddev(b % 7), var_pop(coalesce(x, 1)), variance(a / 2) FROM a2 GROUP BY g',
  'SELECT g, count(DISTINCT a % 3), count(DISTINCT coalesce(s, ''?'')), count(DISTINCT b / 1000) FROM a2 GROUP BY g',
  'SELECT g, bit_or(a % 4), bit_and(coalesce(b, -1)), bit_xor(x % 1000) FROM a2 GROUP BY g',
  'SELECT g, min(coalesce(s, ''zz'')), max(CASE WHEN ok THEN s END) FROM a2 GROUP BY g',
  'SELECT g, sum(abs(f)), avg(coalesce(f, 0)) FROM a2 GROUP BY g',
  'SELECT g, sum(CASE WHEN ok THEN b ELSE 0 END) FILTER (WHERE a > 0), count(coalesce(a, b)) FROM a2 GROUP BY g',
  'SELECT sum(length(s)), max(a % 10), bool_or(a > 0) FROM a2 WHERE id > 100',
  'SELECT g, array_agg(a % 5) FROM a2 WHERE id < 7 GROUP BY g'
]) q, a2_check(q) c;
-- kept local: raising forms (the argument of rows FILTER leaves out would
-- raise in ClickHouse), numeric expressions (a computed Decimal's scale),
-- floats other than summed or collected, volatile arguments
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, sum(a + 1) FROM a2 GROUP BY g',
  'SELECT g, sum(b * 2) FILTER (WHERE b BETWEEN -1000 AND 1000) FROM a2 GROUP BY g',
  'SELECT g, max(coalesce(n, 0)), sum(n * 2) FROM a2 GROUP BY g',
  'SELECT g, max(abs(f)) FROM a2 GROUP BY g',
  'SELECT g, sum(CASE WHEN random() > 2 THEN 1 ELSE 0 END) FROM a2 GROUP BY g'
]) q, a2_check(q) c;
-- integer + raising: not sent, PostgreSQL's error
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(a + 1::int2) FROM a2 GROUP BY g;
SELECT g, sum(a + 1::int2) FROM a2 GROUP BY g ORDER BY g;

-- ==== bit_and / bit_or / bit_xor of columns at the extremes, groups of
-- only NULLs (NULL), no rows (NULL)
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, bit_and(a), bit_or(a), bit_xor(a) FROM a2 GROUP BY g',
  'SELECT g, bit_and(b), bit_or(b), bit_xor(b) FROM a2 GROUP BY g',
  'SELECT g, bit_and(x), bit_or(x), bit_xor(x) FROM a2 GROUP BY g',
  'SELECT bit_and(x), bit_or(b), bit_xor(a) FROM a2 WHERE id > 100',
  'SELECT bit_and(x) FILTER (WHERE x < 0), bit_or(a) FILTER (WHERE g = 3) FROM a2'
]) q, a2_check(q) c;
SELECT g, bit_and(x), bit_or(x), bit_xor(x) FROM a2 GROUP BY g ORDER BY g;

-- ==== bool_and / bool_or / every of a column
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, bool_and(ok), bool_or(ok), every(ok) FROM a2 GROUP BY g',
  'SELECT bool_and(ok), bool_or(ok) FROM a2 WHERE id > 100',
  'SELECT g, bool_or(ok) FILTER (WHERE a < 0) FROM a2 GROUP BY g'
]) q, a2_check(q) c;

-- ==== mode(): NULLs skipped, NULL over only NULLs or no rows, ties to the
-- first in the sort order; floats (-0 and 0, NaN) local
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, mode() WITHIN GROUP (ORDER BY a), mode() WITHIN GROUP (ORDER BY a DESC) FROM a2 GROUP BY g',
  'SELECT g, mode() WITHIN GROUP (ORDER BY s), mode() WITHIN GROUP (ORDER BY x) FROM a2 GROUP BY g',
  'SELECT mode() WITHIN GROUP (ORDER BY b) FROM a2 WHERE id > 100',
  'SELECT mode() WITHIN GROUP (ORDER BY n), mode() WITHIN GROUP (ORDER BY s DESC) FROM a2'
]) q, a2_check(q) c;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT mode() WITHIN GROUP (ORDER BY f) FROM a2',
  'SELECT g, mode() WITHIN GROUP (ORDER BY a % 3) FROM a2 GROUP BY g'
]) q, a2_check(q) c;

-- ==== count(DISTINCT): PostgreSQL 15 has no count(DISTINCT a, b) (count
-- takes one argument): the row form count(DISTINCT (a, b)) is sent, NULL
-- fields equal to each other; count(DISTINCT a) skips NULLs (0 over only
-- NULLs)
SELECT count(DISTINCT a, b) FROM a2_l;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, count(DISTINCT (a, b)), count(DISTINCT (s, x)), count((a, b)) FROM a2 GROUP BY g',
  'SELECT g, count(DISTINCT a), count(DISTINCT s), count(DISTINCT x) FROM a2 GROUP BY g',
  'SELECT count(DISTINCT (a, s)) FROM a2 WHERE id > 100',
  'SELECT g, count(DISTINCT (a, s)) FILTER (WHERE id > 2) FROM a2 GROUP BY g'
]) q, a2_check(q) c;
SELECT g, count(DISTINCT a), count(DISTINCT (a, b)) FROM a2 GROUP BY g ORDER BY g;
-- floats: local (ClickHouse tells -0 from 0)
SELECT q, c.* FROM unnest(ARRAY['SELECT count(DISTINCT f), count(DISTINCT (a, f)) FROM a2']) q, a2_check(q) c;

-- ==== the variance family of smallint / integer / bigint: numeric,
-- exact (PostgreSQL computes in numeric), at the extremes; NULL below two
-- rows for samples
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, stddev(a), var_pop(b) FROM a2 GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, stddev(a), stddev_pop(a), variance(a), var_pop(a) FROM a2 GROUP BY g',
  'SELECT g, stddev(b), stddev_pop(b), var_samp(b), var_pop(b) FROM a2 GROUP BY g',
  'SELECT g, stddev(x), stddev_samp(x), variance(x), var_pop(x) FROM a2 GROUP BY g',
  'SELECT stddev(x), var_pop(b), variance(a) FROM a2',
  'SELECT stddev(x), var_pop(x) FROM a2 WHERE id > 100',
  'SELECT stddev(x) FILTER (WHERE x > 0), var_samp(b) FILTER (WHERE id = 1) FROM a2'
]) q, a2_check(q) c;
SELECT g, stddev(x), var_pop(x) FROM a2 GROUP BY g ORDER BY g;
-- numeric: numeric(12, 2) over Decimal(12, 2), sent where the remote type sums exactly (numagg)
SELECT q, c.* FROM unnest(ARRAY['SELECT g, stddev(n), sum(n), avg(n) FROM a2 GROUP BY g']) q, a2_check(q) c;

-- ==== the HAVING split: the clauses ClickHouse evaluates are sent, the
-- others filter the returned groups here (the Foreign Scan's Filter), and
-- the aggregates only they use are returned too
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, count(*) FROM a2 GROUP BY g HAVING count(*) > 1 AND avg(a) > 0;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(b) FROM a2 GROUP BY g HAVING bool_or(a > 0) AND stddev(x) IS NOT NULL AND avg(b) * 2 > 0;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, count(*) FROM a2 GROUP BY g HAVING count(*) > 1 AND avg(a) > 0',
  'SELECT g, sum(b) FROM a2 GROUP BY g HAVING bool_or(a > 0) AND stddev(x) IS NOT NULL AND avg(b) * 2 > 0',
  'SELECT g, max(s) FROM a2 GROUP BY g HAVING (avg(a) > 100 OR count(*) = 2) AND min(s) IS NOT NULL',
  'SELECT g FROM a2 WHERE id > 100 GROUP BY g HAVING avg(a) > 0'
]) q, a2_check(q) c;

-- ==== 80 seeded random aggregates of expressions x group keys x filters
SELECT setseed(0.17);
CREATE TEMP TABLE a2_runs AS
  SELECT n, format('SELECT %s%s%s FROM a2%s%s',
    CASE WHEN random() < 0.7 THEN 'g, ' ELSE '' END,
    CASE WHEN random() < 0.4
      THEN format('%s(%s)', (ARRAY['bool_and', 'bool_or', 'every'])[1 + floor(random() * 3)::int],
        (ARRAY['a > 0', 's = ''a''', 'ok', 'NOT ok', 'b IS NULL', 'x < 0 OR s IS NULL', 'a > 2 AND ok',
               'coalesce(a, 0) > 1', 's LIKE ''a%'''])[1 + floor(random() * 9)::int])
      ELSE format('%s(%s)', (ARRAY['sum', 'count', 'min', 'max', 'avg', 'stddev', 'var_pop', 'bit_or', 'bit_and'])[1 + floor(random() * 9)::int],
        (ARRAY['CASE WHEN a > 0 THEN 1 ELSE 0 END', 'coalesce(b, 0)', 'length(s)', 'a % 3', 'x / 1000',
               'CASE WHEN ok THEN b END', 'coalesce(x, a)', 'b / 7'])[1 + floor(random() * 8)::int]) END,
    CASE WHEN random() < 0.3 THEN ' FILTER (WHERE id > ' || floor(random() * 10)::int || ')' ELSE '' END,
    CASE WHEN random() < 0.2 THEN ' WHERE id > 12' WHEN random() < 0.1 THEN ' WHERE id > 100' ELSE '' END,
    '') AS q
  FROM generate_series(1, 80) n;
UPDATE a2_runs SET q = q || ' GROUP BY g' WHERE q LIKE 'SELECT g, %';
SELECT count(*) AS queries, count(*) FILTER (WHERE c.pushed) AS pushed,
       count(*) FILTER (WHERE c.same) AS same
FROM a2_runs r, LATERAL a2_check(r.q) c;
-- every difference (none expected), every query kept local (none expected)
SELECT r.n, r.q FROM a2_runs r, LATERAL a2_check(r.q) c WHERE NOT c.same OR NOT c.pushed ORDER BY r.n;
DROP TABLE a2_runs;
DROP FUNCTION a2_check(text);
DROP TABLE a2_l;
