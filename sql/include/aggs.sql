-- ====================================================================
-- Aggregates, shared by aggs.sql (18.16) and modern_aggs.sql (the 26.5
-- engine): string_agg / array_agg with ORDER BY and DISTINCT, count of a
-- row (DISTINCT), bit_and / bit_or / bit_xor, mode(), percentile_disc /
-- percentile_cont of arrays of fractions, the variance family of bigint
-- (exact), and corr, covar_*, regr_* (local on 18.16: see the README).
-- Each query's Remote SQL is shown (EXPLAIN VERBOSE) and its answer is
-- compared with a local copy of the data; then random aggregates x group
-- keys x filters (fixed seed). The table holds NULLs, ties, NaN, -0,
-- infinities, the integer extremes and groups that filters leave empty.
-- The caller has created server ch_ag and set :ch_db.
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET extra_float_digits = 0;
SELECT clickhouse_exec('ch_ag', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.ag');
SELECT clickhouse_exec('ch_ag', 'CREATE TABLE ' || :'ch_db' || '.ag (id Int32, g Nullable(Int32), a Nullable(Int16), b Nullable(Int32), x Nullable(Int64), s Nullable(String), f Nullable(Float64), d Nullable(Date), n Nullable(Decimal(12, 2))) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_ag', 'INSERT INTO ' || :'ch_db' || '.ag VALUES
  (1, 1, 1, 10, 10, ''a'', 1.5, ''2020-01-01'', 1.25),
  (2, 1, -32768, NULL, NULL, ''b'', nan, ''2020-01-02'', NULL),
  (3, 1, 1, 10, 10, NULL, -0.0, ''2020-01-01'', 1.25),
  (4, 2, 32767, 5, 5, ''a'', 0.5, ''2020-01-03'', -7.5),
  (5, NULL, 7, 2147483647, 7, ''b'', NULL, ''2020-01-03'', 0),
  (6, NULL, NULL, -2147483648, NULL, ''a'', 2, NULL, 3),
  (7, 2, 5, 5, -9223372036854775808, '''', inf, ''2020-01-02'', 9999999999.99),
  (8, 3, 0, 9, 9223372036854775807, ''c'', -inf, ''2020-01-04'', -9999999999.99),
  (9, 3, 0, 9, 9223372036854775807, ''c'', nan, ''2020-01-04'', 2),
  (10, 1, -3, -3, -3, ''a'', 1.5, ''2020-01-02'', 2),
  (11, 4, 4, 0, 0, ''é'', 4.5, ''2020-01-05'', NULL),
  (12, 2, 5, 5, 5, ''b'', 0.25, ''2020-01-01'', 2),
  (13, 5, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (14, 2, 6, 5, 9223372036854775806, ''a,b'', 3.25, ''2020-01-06'', 4),
  (15, 4, 2, 7, 1, ''A'', 1.5, ''2020-01-05'', 1.25)');
CREATE FOREIGN TABLE ag (id int, g int, a smallint, b int, x bigint, s text, f float8, d date, n numeric(12, 2))
  SERVER ch_ag OPTIONS (table 'ag');
CREATE TABLE ag_l AS SELECT * FROM ag;

-- ag_check(query): the query on the foreign table and on the local copy
-- (ag -> ag_l), rows compared as text (sorted multisets: the queries name
-- their groups); pushed: one Foreign Scan and no Aggregate above it
\i sql/include/diff_check.sql
CREATE FUNCTION ag_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'ag', '(Aggregate|Sort|Group)') $$;

-- ==== string_agg / array_agg with ORDER BY and DISTINCT
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, string_agg(s, ',' ORDER BY id) FROM ag GROUP BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, array_agg(x ORDER BY id DESC) FILTER (WHERE id > 2) FROM ag GROUP BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT array_agg(f ORDER BY f, id) FROM ag;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, string_agg(DISTINCT s, '|' ORDER BY s DESC) FROM ag GROUP BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT array_agg(DISTINCT a) FROM ag;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, string_agg(s, '','' ORDER BY id) FROM ag GROUP BY g',
  'SELECT g, string_agg(s, '','' ORDER BY id DESC) FROM ag GROUP BY g',
  'SELECT g, string_agg(s, '''' ORDER BY s, id) FROM ag GROUP BY g',
  'SELECT g, string_agg(s, '','' ORDER BY b NULLS FIRST, id) FROM ag GROUP BY g',
  'SELECT g, string_agg(s, '','' ORDER BY d DESC NULLS LAST, id DESC) FROM ag GROUP BY g',
  'SELECT g, string_agg(s, '','' ORDER BY id) FILTER (WHERE a > 0) FROM ag GROUP BY g',
  'SELECT g, string_agg(s, '','' ORDER BY id) FILTER (WHERE id < 0) FROM ag GROUP BY g',
  'SELECT string_agg(s, '','' ORDER BY id) FROM ag WHERE id > 100',
  'SELECT g, array_agg(x ORDER BY id DESC) FILTER (WHERE id > 2) FROM ag GROUP BY g',
  'SELECT g, array_agg(s ORDER BY id) FROM ag GROUP BY g',
  'SELECT g, array_agg(id ORDER BY s NULLS FIRST, id) FROM ag GROUP BY g',
  'SELECT g, array_agg(id ORDER BY s DESC, id DESC) FROM ag GROUP BY g',
  'SELECT array_agg(f ORDER BY f, id) FROM ag',
  'SELECT array_agg(f ORDER BY f DESC, id DESC) FROM ag',
  'SELECT array_agg(id ORDER BY f NULLS FIRST, id) FROM ag',
  'SELECT array_agg(d ORDER BY d, id) FROM ag',
  'SELECT array_agg(x ORDER BY x, id) FROM ag',
  'SELECT array_agg(x ORDER BY id) FROM ag WHERE id > 100',
  'SELECT g, array_agg(id ORDER BY n DESC NULLS LAST, id DESC) FROM ag GROUP BY g',
  'SELECT g, string_agg(DISTINCT s, ''|'' ORDER BY s DESC) FROM ag GROUP BY g',
  'SELECT g, string_agg(DISTINCT s, ''|'') FROM ag GROUP BY g',
  'SELECT string_agg(DISTINCT s, ''|'' ORDER BY s) FILTER (WHERE id < 10) FROM ag',
  'SELECT array_agg(DISTINCT a) FROM ag',
  'SELECT array_agg(DISTINCT s ORDER BY s NULLS FIRST) FROM ag',
  'SELECT g, array_agg(DISTINCT x ORDER BY x DESC) FROM ag GROUP BY g',
  'SELECT g, array_agg(DISTINCT d) FILTER (WHERE id > 3) FROM ag GROUP BY g'
]) q, ag_check(q) c;
-- kept local: mixed directions, a key that is a raising expression (id +
-- 1), floats under DISTINCT (-0 and 0 are one value in PostgreSQL), a text
-- key under a nondeterministic collation, DISTINCT of text under it, a
-- delimiter that is a column, array_agg of numeric
CREATE COLLATION ag_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
EXPLAIN (VERBOSE, COSTS OFF) SELECT string_agg(s, ',' ORDER BY g, id DESC) FROM ag;
EXPLAIN (VERBOSE, COSTS OFF) SELECT string_agg(s, ',' ORDER BY id + 1) FROM ag;
EXPLAIN (VERBOSE, COSTS OFF) SELECT array_agg(DISTINCT f) FROM ag;
EXPLAIN (VERBOSE, COSTS OFF) SELECT array_agg(id ORDER BY s COLLATE ag_ci) FROM ag;
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(DISTINCT s COLLATE ag_ci) FROM ag;
EXPLAIN (VERBOSE, COSTS OFF) SELECT string_agg(s, s ORDER BY id) FROM ag;
EXPLAIN (VERBOSE, COSTS OFF) SELECT array_agg(n ORDER BY n, id) FROM ag;
-- count(DISTINCT) of a column declared under a nondeterministic collation
-- ('a' and 'A' are one value): kept local
CREATE FOREIGN TABLE ag_c (id int, s text COLLATE ag_ci) SERVER ch_ag OPTIONS (table 'ag');
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(DISTINCT s) FROM ag_c;
SELECT (SELECT count(DISTINCT s) FROM ag_c) AS foreign, (SELECT count(DISTINCT s COLLATE ag_ci) FROM ag_l) AS local;
DROP FOREIGN TABLE ag_c;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT array_agg(n ORDER BY n, id) FROM ag',
  'SELECT string_agg(s, '','' ORDER BY g, id DESC) FROM ag',
  'SELECT array_agg(DISTINCT f) FROM ag',
  'SELECT array_agg(id ORDER BY s COLLATE ag_ci, id) FROM ag',
  'SELECT count(DISTINCT s COLLATE ag_ci) FROM ag'
]) q, ag_check(q) c;
-- (aggs3) values and keys that are expressions an aggregate's argument may
-- be (no raising form, no numeric; keys no float): sent
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, string_agg(DISTINCT id::text, ',') FROM ag GROUP BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT string_agg(s, ',' ORDER BY length(s), id) FROM ag;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, string_agg(DISTINCT id::text, '','') FROM ag GROUP BY g',
  'SELECT g, string_agg(DISTINCT x::text, '','' ORDER BY x::text DESC) FROM ag GROUP BY g',
  'SELECT string_agg(substr(s, 1, 1), '','' ORDER BY id) FROM ag',
  'SELECT g, string_agg(coalesce(s, ''?''), ''|'' ORDER BY id DESC) FROM ag GROUP BY g',
  'SELECT string_agg(s, '','' ORDER BY length(s), id) FROM ag',
  'SELECT string_agg(s || ''!'', '','' ORDER BY coalesce(s, ''zz'') DESC, id DESC) FROM ag',
  'SELECT g, array_agg(coalesce(x, 0) ORDER BY id) FROM ag GROUP BY g',
  'SELECT g, array_agg(DISTINCT a % 3 ORDER BY a % 3 DESC) FROM ag GROUP BY g',
  'SELECT array_agg(id ORDER BY CASE WHEN s IS NULL THEN 0 ELSE 1 END, id) FROM ag',
  'SELECT g, array_agg(f ORDER BY coalesce(b, 0), id) FILTER (WHERE id > 2) FROM ag GROUP BY g',
  'SELECT array_agg(DISTINCT btrim(s || '' '')) FROM ag',
  'SELECT g, array_agg(d - date ''2020-01-01'' ORDER BY id) FROM ag GROUP BY g',
  'SELECT string_agg(DISTINCT s || s, '';'') FILTER (WHERE id < 0) FROM ag'
]) q, ag_check(q) c;
-- string_agg of an expression without ORDER BY (any order, as
-- PostgreSQL's): sent; compared as the sorted list of its pieces
CREATE FUNCTION ag_pieces(t text, delim text) RETURNS text LANGUAGE sql IMMUTABLE AS
  $$ SELECT string_agg(e, delim ORDER BY e COLLATE "C") FROM unnest(string_to_array(t, delim)) e $$;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, string_agg(coalesce(s, '?') || id::text, '|') FROM ag GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, ag_pieces(sa, ''|'') FROM (SELECT g, string_agg(coalesce(s, ''?'') || id::text, ''|'') AS sa FROM ag GROUP BY g) t',
  'SELECT ag_pieces(sa, '';'') FROM (SELECT string_agg(id::text, '';'') AS sa FROM ag) t',
  'SELECT g, ag_pieces(sa, ''|'') FROM (SELECT g, string_agg(s || ''.'', ''|'') FILTER (WHERE id > 3) AS sa FROM ag GROUP BY g) t',
  'SELECT g, ag_pieces(sa, ''|'') FROM (SELECT g, string_agg(substr(s, 1, 1) || ''-'', ''|'') AS sa FROM ag WHERE id > 100 GROUP BY g) t',
  'SELECT g, ag_pieces(sa, ''|'') FROM (SELECT g, string_agg(s || id::text, ''|'') AS sa FROM ag GROUP BY g HAVING count(*) > 1) t'
]) q, ag_check(q) c;
DROP FUNCTION ag_pieces(text, text);
-- (floatin) IN lists of float constants as comparisons (-0 equal to 0):
-- sent, a NaN element too (nanconst); a NULL element keeps the list local
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, count(*) FILTER (WHERE f IN (1.5, 0)), count(*) FILTER (WHERE f NOT IN (-0.0, ''Infinity'')) FROM ag GROUP BY g',
  'SELECT count(*) FILTER (WHERE f IN (2, NULL)), count(*) FILTER (WHERE f NOT IN (2, NULL)), count(*) FILTER (WHERE NOT (f IN (0.25, 3.25))) FROM ag',
  'SELECT count(*) FILTER (WHERE f IN (1.5, ''NaN'')), count(*) FILTER (WHERE f NOT IN (''NaN'', 0)), count(*) FILTER (WHERE NOT (f IN (''NaN''))) FROM ag'
]) q, ag_check(q) c;
-- (nanconst) a float value against the constant NaN, by PostgreSQL's order
-- (NaN equal to itself and above every number; ClickHouse's comparisons
-- with NaN are false): sent as isNaN, the constants 0 and 1 for > and <=,
-- the column's NULLs kept NULL; each operator, either side, negated, on an
-- expression, a real NaN, IS [NOT] DISTINCT FROM NaN (NULL distinct)
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FILTER (WHERE f = 'NaN'), count(*) FILTER (WHERE f > 'NaN'), count(*) FILTER (WHERE 'NaN' >= f) FROM ag;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, count(*) FILTER (WHERE f = ''NaN''), count(*) FILTER (WHERE f <> ''NaN''), count(*) FILTER (WHERE f < ''NaN''), count(*) FILTER (WHERE f <= ''NaN''), count(*) FILTER (WHERE f > ''NaN''), count(*) FILTER (WHERE f >= ''NaN'') FROM ag GROUP BY g',
  'SELECT g, count(*) FILTER (WHERE ''NaN'' = f), count(*) FILTER (WHERE ''NaN'' <> f), count(*) FILTER (WHERE ''NaN'' < f), count(*) FILTER (WHERE ''NaN'' <= f), count(*) FILTER (WHERE ''NaN'' > f), count(*) FILTER (WHERE ''NaN'' >= f) FROM ag GROUP BY g',
  'SELECT count(*) FILTER (WHERE NOT (f > ''NaN'')), count(*) FILTER (WHERE NOT (f <= ''NaN'')), count(*) FILTER (WHERE NOT (f = ''NaN'')), count(*) FILTER (WHERE f = ''NaN''::real), count(*) FILTER (WHERE abs(f) >= ''NaN'') FROM ag',
  'SELECT g, bool_or(f = ''NaN''), bool_and(f < ''NaN''), bool_and(f <= ''NaN'') FROM ag GROUP BY g',
  'SELECT g, count(*) FILTER (WHERE f IS DISTINCT FROM ''NaN''), count(*) FILTER (WHERE f IS NOT DISTINCT FROM ''NaN''), count(*) FILTER (WHERE ''NaN'' IS DISTINCT FROM f) FROM ag GROUP BY g'
]) q, ag_check(q) c;
-- kept local: a raising value or key (integer + with its overflow check:
-- ClickHouse computes it also for the rows FILTER leaves out), a float key
-- that is an expression, a numeric value that is an expression
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT array_agg(a + 1 ORDER BY id) FROM ag',
  'SELECT array_agg(id ORDER BY g * 2, id) FROM ag',
  'SELECT array_agg(id ORDER BY coalesce(f, 0), id) FROM ag',
  'SELECT array_agg(n + 1 ORDER BY id) FROM ag'
]) q, ag_check(q) c;

-- ==== count of a row, DISTINCT: NULL fields equal each other
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(DISTINCT (a, s)), count((a, s)) FROM ag;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT count(DISTINCT (a, s)), count((a, s)) FROM ag',
  'SELECT g, count(DISTINCT (b, d)) FROM ag GROUP BY g',
  'SELECT g, count(DISTINCT (a, b, s)) FILTER (WHERE id > 4) FROM ag GROUP BY g',
  'SELECT count(DISTINCT (g, x)) FROM ag WHERE id > 100'
]) q, ag_check(q) c;
-- kept local: a float field
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(DISTINCT (a, f)) FROM ag;

-- ==== bit_and / bit_or / bit_xor, with the extremes and negative values
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, bit_and(a), bit_or(b), bit_xor(x) FROM ag GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, bit_and(a), bit_or(a), bit_xor(a) FROM ag GROUP BY g',
  'SELECT g, bit_and(b), bit_or(b), bit_xor(b) FROM ag GROUP BY g',
  'SELECT g, bit_and(x), bit_or(x), bit_xor(x) FROM ag GROUP BY g',
  'SELECT bit_and(x) FILTER (WHERE x > 0), bit_or(b) FILTER (WHERE b < 0) FROM ag',
  'SELECT bit_and(a), bit_or(b), bit_xor(x) FROM ag WHERE id > 100'
]) q, ag_check(q) c;

-- ==== mode(): the most frequent, the first in the sort order among ties
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, mode() WITHIN GROUP (ORDER BY s) FROM ag GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, mode() WITHIN GROUP (ORDER BY s) FROM ag GROUP BY g',
  'SELECT g, mode() WITHIN GROUP (ORDER BY s DESC) FROM ag GROUP BY g',
  'SELECT mode() WITHIN GROUP (ORDER BY a), mode() WITHIN GROUP (ORDER BY a DESC) FROM ag',
  'SELECT mode() WITHIN GROUP (ORDER BY b), mode() WITHIN GROUP (ORDER BY x DESC) FROM ag',
  'SELECT mode() WITHIN GROUP (ORDER BY d), mode() WITHIN GROUP (ORDER BY n) FROM ag',
  'SELECT g, mode() WITHIN GROUP (ORDER BY x) FROM ag GROUP BY g',
  'SELECT mode() WITHIN GROUP (ORDER BY s) FROM ag WHERE id > 100'
]) q, ag_check(q) c;
-- kept local: floats (-0 and 0 are one value in PostgreSQL)
EXPLAIN (VERBOSE, COSTS OFF) SELECT mode() WITHIN GROUP (ORDER BY f) FROM ag;

-- ==== sum of floats over a group of only -0: PostgreSQL's sum starts from
-- the first value (-0), ClickHouse's from 0 (0 + -0 is 0)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(f) FROM ag GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT sum(f) FROM ag WHERE f = 0',
  'SELECT g, sum(f) FROM ag WHERE id IN (3, 4, 11) GROUP BY g',
  'SELECT g, sum(f) FILTER (WHERE id = 3), sum(f) FILTER (WHERE id IN (3, 1)) FROM ag GROUP BY g',
  'SELECT sum(f) FROM ag WHERE id > 100',
  'SELECT g, sum(f) FROM ag GROUP BY g'
]) q, ag_check(q) c;
-- kept local: sum of real (PostgreSQL adds in float4, ClickHouse in Float64);
-- avg and the variance family of real accumulate in float8 in both: sent
CREATE FOREIGN TABLE ag4 (id int, g int, f real) SERVER ch_ag OPTIONS (table 'ag');
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(f) FROM ag4 GROUP BY g;
DROP FOREIGN TABLE ag4;

-- ==== percentile_disc / percentile_cont of arrays of fractions
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, percentile_disc(ARRAY[0.5, 0, 1, 0.25]) WITHIN GROUP (ORDER BY b) FROM ag GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, percentile_disc(ARRAY[0.5, 0, 1, 0.25]) WITHIN GROUP (ORDER BY b) FROM ag GROUP BY g',
  'SELECT percentile_disc(ARRAY[0.1, 0.9, 0.5]) WITHIN GROUP (ORDER BY s) FROM ag',
  'SELECT percentile_disc(ARRAY[0.3, 0.7]) WITHIN GROUP (ORDER BY d) FROM ag',
  'SELECT g, percentile_disc(ARRAY[0.5]) WITHIN GROUP (ORDER BY x) FROM ag GROUP BY g',
  'SELECT percentile_disc(ARRAY[0.2, 0.6, 0.8, 0.95]) WITHIN GROUP (ORDER BY f) FROM ag',
  'SELECT g, percentile_cont(ARRAY[0.5, 0.25, 1, 0]) WITHIN GROUP (ORDER BY f) FROM ag GROUP BY g',
  'SELECT percentile_cont(ARRAY[0.1, 0.9]) WITHIN GROUP (ORDER BY f) FROM ag WHERE f > -1 AND f < 10',
  'SELECT percentile_cont(ARRAY[0.5, 0.5]) WITHIN GROUP (ORDER BY f) FROM ag WHERE id > 100'
]) q, ag_check(q) c;
-- kept local: a NULL fraction (PostgreSQL answers NULL there), a fraction
-- out of range (PostgreSQL's error), a two-dimensional array
EXPLAIN (VERBOSE, COSTS OFF) SELECT percentile_disc(ARRAY[0.5, NULL]) WITHIN GROUP (ORDER BY b) FROM ag;
SELECT percentile_disc(ARRAY[0.5, NULL]) WITHIN GROUP (ORDER BY b) FROM ag;
EXPLAIN (VERBOSE, COSTS OFF) SELECT percentile_disc(ARRAY[0.5, 2]) WITHIN GROUP (ORDER BY b) FROM ag;
SELECT percentile_disc(ARRAY[0.5, 2]) WITHIN GROUP (ORDER BY b) FROM ag;
EXPLAIN (VERBOSE, COSTS OFF) SELECT percentile_disc(ARRAY[[0.5], [0.2]]) WITHIN GROUP (ORDER BY b) FROM ag;
-- 1: fractions a subquery computes (not a constant): local; 2: 32 constant
-- fractions are sent; 3: 33 are not (each is an expression of its own)
SELECT n, c.* FROM unnest(ARRAY[
  'SELECT percentile_disc((SELECT array_agg(i / 32.0)::float8[] FROM generate_series(1, 32) i)) WITHIN GROUP (ORDER BY x) FROM ag',
  'SELECT percentile_disc(' || quote_literal((SELECT array_agg(i / 32.0)::float8[] FROM generate_series(1, 32) i)) || '::float8[]) WITHIN GROUP (ORDER BY x) FROM ag',
  'SELECT percentile_cont(' || quote_literal((SELECT array_agg(i / 33.0)::float8[] FROM generate_series(1, 33) i)) || '::float8[]) WITHIN GROUP (ORDER BY f) FROM ag'
]) WITH ORDINALITY u(q, n), ag_check(q) c;

-- ==== the variance family of bigint: numeric, exact (also at the extremes)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, stddev(x) FROM ag GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, stddev(x), stddev_pop(x), variance(x), var_pop(x) FROM ag GROUP BY g',
  'SELECT stddev(x), stddev_pop(x), var_samp(x), var_pop(x) FROM ag',
  'SELECT stddev_samp(x) FILTER (WHERE x < 100), var_pop(x) FILTER (WHERE x > 100) FROM ag',
  'SELECT stddev(x), var_pop(x) FROM ag WHERE id > 100',
  'SELECT stddev(x), variance(x) FROM ag WHERE id = 1'
]) q, ag_check(q) c;
SELECT stddev(x), var_pop(x) FROM ag;

-- ==== regr_count, regr_avgx, regr_avgy: over the rows where both are not
-- NULL, a count and a plain sum / N (NaN and infinities as a float sum)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, regr_count(b, a), regr_avgx(b, a), regr_avgy(f, x) FILTER (WHERE id > 2) FROM ag GROUP BY g;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, regr_count(b, a), regr_avgx(b, a), regr_avgy(f, x) FILTER (WHERE id > 2), regr_avgy(b, f) FROM ag GROUP BY g',
  'SELECT regr_count(f, f), regr_avgx(a, f), regr_avgy(a, f) FROM ag',
  'SELECT regr_count(b, a), regr_avgx(b, a), regr_avgy(b, a) FROM ag WHERE id > 100'
]) q, ag_check(q) c;
-- ==== corr, covar_pop, covar_samp and the other regr_*: PostgreSQL's
-- float8 Youngs-Cramer sums round at every row, in the order of the rows;
-- (regr) kept local on 18.16, sent on servers with arrayFold, which
-- replays them (src/fdw/agg_regr.c; compared bit for bit in the suites
-- regr / modern_regr)
EXPLAIN (VERBOSE, COSTS OFF) SELECT corr(b, a), covar_pop(b, a), regr_slope(b, a) FROM ag;

-- ==== 20,000 rows over the whole bigint range, 37 groups (one left empty by
-- the filters): every aggregate equal to the local copy's, EXCEPT ALL both ways
SELECT clickhouse_exec('ch_ag', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.ag_big');
SELECT clickhouse_exec('ch_ag', 'CREATE TABLE ' || :'ch_db' || '.ag_big (id Int32, g Int32, x Nullable(Int64), s Nullable(String)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_ag', 'INSERT INTO ' || :'ch_db' || '.ag_big SELECT toInt32(number), toInt32(number % 37), if(number % 11 = 0, NULL, toInt64(intHash64(number))), if(number % 13 = 0, NULL, toString(number % 101)) FROM system.numbers LIMIT 20000');
-- sums of 10^21 (18.16's toString of such a Decimal128 writes NUL bytes: the
-- sums travel as the hex of their bytes)
SELECT clickhouse_exec('ch_ag', 'INSERT INTO ' || :'ch_db' || '.ag_big SELECT toInt32(20000 + number), 99, 1000000000000000000, NULL FROM system.numbers LIMIT 1000');
SELECT clickhouse_exec('ch_ag', 'INSERT INTO ' || :'ch_db' || '.ag_big SELECT toInt32(21000 + number), 98, -9223372036854775807 - number % 2, NULL FROM system.numbers LIMIT 1000');
CREATE FOREIGN TABLE ag_big (id int, g int, x bigint, s text) SERVER ch_ag OPTIONS (table 'ag_big');
CREATE TABLE ag_big_l AS SELECT * FROM ag_big;
CREATE FUNCTION ag_big_check(q text, OUT pushed boolean, OUT rows bigint, OUT missing bigint, OUT extra bigint)
LANGUAGE plpgsql AS $$
DECLARE
  plan text := '';
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
    plan := plan || line || E'\n';
  END LOOP;
  pushed := plan !~ '(Aggregate|Sort|Group)';
  EXECUTE format('SELECT count(*) FROM (%s) t', q) INTO rows;
  EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) t', regexp_replace(q, '\mag_big\M', 'ag_big_l', 'g'), q) INTO missing;
  EXECUTE format('SELECT count(*) FROM ((%s) EXCEPT ALL (%s)) t', q, regexp_replace(q, '\mag_big\M', 'ag_big_l', 'g')) INTO extra;
END $$;
SELECT q, c.* FROM unnest(ARRAY[
  'SELECT g, stddev(x)::text, var_pop(x)::text, variance(x)::text, stddev_pop(x)::text FROM ag_big GROUP BY g',
  'SELECT g, avg(x)::text, avg(g)::text, variance(id)::text, stddev_pop(id)::text FROM ag_big GROUP BY g',
  'SELECT avg(x)::text, stddev(x)::text, variance(id)::text FROM ag_big WHERE g = 99',
  'SELECT g, md5(string_agg(s, '','' ORDER BY id DESC)), md5(array_agg(x ORDER BY x NULLS FIRST, id)::text) FROM ag_big WHERE id % 37 <> 5 GROUP BY g',
  'SELECT g, md5(string_agg(DISTINCT s, '','' ORDER BY s)), md5(array_agg(DISTINCT s)::text), count(DISTINCT (s, g)) FROM ag_big GROUP BY g',
  'SELECT g, bit_and(x), bit_or(x), bit_xor(x), mode() WITHIN GROUP (ORDER BY s DESC) FROM ag_big GROUP BY g',
  'SELECT g, percentile_disc(ARRAY[0.5, 0.01, 0.99]) WITHIN GROUP (ORDER BY x), percentile_disc(ARRAY[0.3]) WITHIN GROUP (ORDER BY s) FROM ag_big GROUP BY g'
]) q, ag_big_check(q) c;
DROP FUNCTION ag_big_check(text);
DROP TABLE ag_big_l;

-- ==== random aggregates x group keys x filters (fixed seed): any difference is listed
CREATE FUNCTION ag_rand_query() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  aggs text[] := ARRAY[
    'string_agg(s, '','' ORDER BY id)', 'string_agg(s, '''' ORDER BY s DESC, id DESC)',
    'string_agg(s, ''-'' ORDER BY x NULLS FIRST, id)', 'string_agg(DISTINCT s, '','' ORDER BY s)',
    'array_agg(x ORDER BY id DESC)', 'array_agg(f ORDER BY f, id)', 'array_agg(id ORDER BY d DESC NULLS LAST, id DESC)',
    'array_agg(DISTINCT b)', 'array_agg(DISTINCT s ORDER BY s DESC NULLS LAST)', 'array_agg(id ORDER BY n NULLS FIRST, id)',
    'count(DISTINCT (a, s))', 'count(DISTINCT (b, d, g))', 'count((x, s))',
    'bit_and(a)', 'bit_or(b)', 'bit_xor(x)', 'bit_and(x)', 'bit_or(a)',
    'mode() WITHIN GROUP (ORDER BY s)', 'mode() WITHIN GROUP (ORDER BY a DESC)', 'mode() WITHIN GROUP (ORDER BY d)',
    'mode() WITHIN GROUP (ORDER BY b)',
    'percentile_disc(ARRAY[0.5, 0.1, 0.9]) WITHIN GROUP (ORDER BY x)',
    'percentile_disc(ARRAY[0, 1]) WITHIN GROUP (ORDER BY s)',
    'percentile_cont(ARRAY[0.25, 0.75]) WITHIN GROUP (ORDER BY f)',
    'stddev(x)', 'var_pop(x)', 'stddev_pop(x)', 'variance(x)', 'stddev(a)', 'var_samp(b)',
    'regr_count(b, a)', 'regr_avgx(b, a)', 'regr_avgy(a, x)', 'avg(x)',
    'string_agg(DISTINCT id::text, '','')', 'string_agg(substr(s, 2, 3), ''|'' ORDER BY length(s) DESC, id DESC)',
    'array_agg(coalesce(x, 0) ORDER BY coalesce(s, ''~''), id)', 'array_agg(DISTINCT a % 3)'];
  keys text[] := ARRAY['g', 'a', 's', 'd', 'x', NULL];
  filters text[] := ARRAY['', ' WHERE id > 3', ' WHERE g IS NULL', ' WHERE id > 100', ' WHERE x > 0',
                          ' WHERE s IS NOT NULL', ' WHERE a < 5'];
  k text := keys[1 + floor(random() * 6)::int];
  a1 text := aggs[1 + floor(random() * array_length(aggs, 1))::int];
  a2 text := aggs[1 + floor(random() * array_length(aggs, 1))::int];
  fl text := CASE WHEN random() < 0.3 THEN ' FILTER (WHERE id % 2 = 0)' ELSE '' END;
  w text := filters[1 + floor(random() * 7)::int];
BEGIN
  IF a1 LIKE '%WITHIN%' THEN fl := ''; END IF;
  IF k IS NULL THEN
    RETURN format('SELECT %s%s, %s FROM ag%s', a1, fl, a2, w);
  END IF;
  RETURN format('SELECT %s, %s%s, %s FROM ag%s GROUP BY %s', k, a1, fl, a2, w, k);
END $$;
SELECT setseed(0.29);
CREATE TEMP TABLE ag_runs AS
  SELECT g, q, ck.* FROM (SELECT g, ag_rand_query() AS q FROM generate_series(1, 150) g) s,
       LATERAL ag_check(q) ck;
-- queries, pushed, answers that agree, rows compared
SELECT count(*) AS queries, count(*) FILTER (WHERE pushed) AS pushed,
       count(*) FILTER (WHERE same) AS same, sum(nrows) AS rows_compared FROM ag_runs;
-- every difference (none expected)
SELECT g, q, err FROM ag_runs WHERE NOT same ORDER BY g;
-- every query kept local (none expected)
SELECT g, q FROM ag_runs WHERE NOT pushed ORDER BY g;
DROP FUNCTION ag_rand_query();
DROP FUNCTION ag_check(text);
DROP TABLE ag_l;
DROP COLLATION ag_ci;

-- count(DISTINCT) over a group of only NULLs is 0 (18.16's uniqExact said NULL)
SELECT clickhouse_exec('ch_ag', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.ag_cdn');
SELECT clickhouse_exec('ch_ag', 'CREATE TABLE ' || :'ch_db' || '.ag_cdn (g UInt8, s Nullable(String)) ENGINE = MergeTree ORDER BY g');
CREATE FOREIGN TABLE ag_cdn (g int, s text) SERVER ch_ag;
INSERT INTO ag_cdn VALUES (1, 'a'), (1, NULL), (2, NULL), (2, NULL);
CREATE TABLE ag_cdn_l AS SELECT * FROM ag_cdn;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, count(DISTINCT s) FROM ag_cdn GROUP BY g;
SELECT (SELECT array_agg(g || ':' || c ORDER BY g) FROM (SELECT g, count(DISTINCT s) AS c FROM ag_cdn GROUP BY g) x) AS remote,
       (SELECT array_agg(g || ':' || c ORDER BY g) FROM (SELECT g, count(DISTINCT s) AS c FROM ag_cdn_l GROUP BY g) x) AS local;
SELECT (SELECT count(DISTINCT s) FILTER (WHERE g > 0) FROM ag_cdn WHERE g = 2) AS remote,
       (SELECT count(DISTINCT s) FILTER (WHERE g > 0) FROM ag_cdn_l WHERE g = 2) AS local;
DROP FOREIGN TABLE ag_cdn;
DROP TABLE ag_cdn_l;
