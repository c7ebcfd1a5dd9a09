-- ====================================================================
-- Grouped sum / avg / the variance family of floats with PostgreSQL's
-- overflow errors (src/fdw/agg_float.c), and regr_avgx / regr_avgy
-- (src/fdw/agg_regr.c with arrayFold, else agg_float.c), shared by floatagg.sql (ClickHouse 18.16) and
-- modern_floatagg.sql (the 26.5 engine behind test/chdb/front.py, a test
-- harness, not a server). The caller has created server ch_fa (settings
-- 'max_threads=1': one thread reads the one MergeTree part in id order)
-- and set :ch_db.
--
-- What is compared: PostgreSQL adds a grouped aggregate's rows in the
-- order they arrive, and any order is one a scan may give, so the FDW's
-- answer must be PostgreSQL's answer for SOME order (last-bit rounding of
-- float sums aside, README "Float sums, averages and variances may
-- differ ..."). Where every order gives the same answer or the same error
-- (most cases below) it is compared with the local copy (diff_check, the
-- SQLSTATE of errors too). Where PostgreSQL's own answer depends on the
-- order (a sum that overflows in one order and not in another), the FDW's
-- answer is checked to be one of the valid ones (fa_valid below).
-- ====================================================================
SET extra_float_digits = 1;
SELECT clickhouse_exec('ch_fa', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.fa');
SELECT clickhouse_exec('ch_fa', 'CREATE TABLE ' || :'ch_db' || '.fa (id Int32, g Nullable(Int32), x Nullable(Float64), r Nullable(Float32)) ENGINE = MergeTree ORDER BY id');
-- groups: 1 ordinary; 2 1e200, -1e200 (avg raises in both orders: tmp =
-- 2e200, its square overflows); 3 1e200, 5 (raises in both orders);
-- 4 1e200, 1e200 (no raise: tmp = 0); 5 1e308, 1e308, -1e308 (sum: raises
-- in id order, 1e308 in another; avg raises in every order); 6 -1e308,
-- -1e308, +Infinity (id order raises, Infinity first gives Infinity:
-- order dependent); 7 NaN, 1e308 (NaN); 8 +Infinity, -Infinity, 5 (NaN);
-- 9 -0, -0 (sum -0, avg 0); 10 one row of 3e200; 11 easy and hard rows
-- without overflow; 12 only NULLs; 13 1e300, -1e300 (README's example);
-- 14 1..100; 15 1.5e308, -1.5e308, 1e308 (sum 1e308 in id order,
-- overflows in another); 16 +Infinity with finite huge values that
-- overflow after it only (Infinity in every order that does not raise
-- first); 17 1e308, 1.5e308 (every order overflows); NULL group:
-- ordinary values
SELECT clickhouse_exec('ch_fa', 'INSERT INTO ' || :'ch_db' || '.fa VALUES
  (1, 1, 1, 1), (2, 1, 2, 2), (3, 1, NULL, NULL), (4, 1, 4.5, 4.5),
  (5, 2, 1e200, 1), (6, 2, -1e200, -1),
  (7, 3, 1e200, 3e38), (8, 3, 5, 3e38),
  (9, 4, 1e200, 2), (10, 4, 1e200, 2),
  (11, 5, 1e308, 1), (12, 5, 1e308, 2), (13, 5, -1e308, 3),
  (14, 6, -1e308, 1), (15, 6, -1e308, 2), (16, 6, inf, inf),
  (17, 7, nan, nan), (18, 7, 1e308, 1),
  (19, 8, inf, inf), (20, 8, -inf, -inf), (21, 8, 5, 5),
  (22, 9, -0.0, -0.0), (23, 9, -0.0, -0.0),
  (24, 10, 3e200, 3),
  (25, 11, 1, 1), (26, 11, 2, 2), (27, 11, 3, 3), (28, 11, 1e150, 4), (29, 11, 2e150, 5), (30, 11, -4e140, 6),
  (31, 12, NULL, NULL),
  (32, 13, 1e300, 1), (33, 13, -1e300, 2),
  (34, 15, 1.5e308, 1), (35, 15, -1.5e308, 2), (36, 15, 1e308, 3),
  (37, 16, inf, inf), (38, 16, 1e308, 1), (39, 16, 1e308, 2),
  (40, NULL, 0.25, 0.25), (41, NULL, 0.5, 0.5),
  (42, 17, 1e308, 1), (43, 17, 1.5e308, 2)');
SELECT clickhouse_exec('ch_fa', 'INSERT INTO ' || :'ch_db' || '.fa SELECT 100 + number, 14, number + 1, number + 1 FROM numbers(100)');
SELECT clickhouse_exec('ch_fa', 'OPTIMIZE TABLE ' || :'ch_db' || '.fa FINAL');
CREATE FOREIGN TABLE fa (id int, g int, x float8, r real) SERVER ch_fa OPTIONS (table 'fa');
CREATE TABLE fa_l AS SELECT * FROM fa ORDER BY id;
SELECT count(*) FROM fa_l;

\i sql/include/diff_check.sql
-- fa_check(query): foreign and local, errors' SQLSTATEs compared too
CREATE FUNCTION fa_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'fa', '(Aggregate|Sort|Group)', false, true) $$;
-- the Remote SQL of a query
CREATE FUNCTION fa_remote(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE line text; r text := '';
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    IF line ~ 'Remote SQL' THEN r := r || line; END IF;
  END LOOP;
  RETURN r;
END $$;

-- ==== ordinary data keeps today's aggregates: every groupArray is the
-- groupArrayIf of the rows above 1e130 (or NULL-free non-finite rows
-- counted by one groupBitOrIf), none collects every row
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(x), avg(x), var_samp(x) FROM fa GROUP BY g;
SELECT (length(s) - length(replace(s, 'groupArray', ''))) / 10 AS group_arrays,
       (length(s) - length(replace(s, 'groupArrayIf(toFloat64(assumeNotNull(`x`)), isNotNull(`x`) AND NOT (abs(toFloat64(assumeNotNull(`x`))) <= 1e130))', ''))) /
         length('groupArrayIf(toFloat64(assumeNotNull(`x`)), isNotNull(`x`) AND NOT (abs(toFloat64(assumeNotNull(`x`))) <= 1e130))') AS of_hard_rows,
       s ~ 'avgIf\(' AND s ~ 'varSampIf\(' AS ordinary_aggregates
FROM fa_remote('SELECT g, avg(x), var_samp(x) FROM fa GROUP BY g') s;

-- ==== every order gives the same answer or raises: compared with the
-- local copy (SQLSTATE of errors compared)
SELECT q, c.pushed, c.same, c.nrows, c.err FROM unnest(ARRAY[
  'SELECT g, sum(x), avg(x) FROM fa WHERE g IN (1, 4, 9, 10, 11, 12, 14) OR g IS NULL GROUP BY g',
  'SELECT g, var_samp(x), var_pop(x), stddev(x), stddev_pop(x), variance(x), stddev_samp(x) FROM fa WHERE g IN (1, 4, 9, 10, 12, 14) OR g IS NULL GROUP BY g',
  'SELECT g, sum(x), avg(x), var_pop(x) FROM fa WHERE g IN (7, 8) GROUP BY g',
  'SELECT g, avg(x) FROM fa WHERE g = 2 GROUP BY g',
  'SELECT g, var_pop(x) FROM fa WHERE g = 2 GROUP BY g',
  'SELECT g, sum(x) FROM fa WHERE g = 2 GROUP BY g',
  'SELECT g, avg(x) FROM fa WHERE g = 3 GROUP BY g',
  'SELECT g, stddev(x) FROM fa WHERE g = 3 GROUP BY g',
  'SELECT g, avg(x) FROM fa WHERE g = 5 GROUP BY g',
  'SELECT g, variance(x) FROM fa WHERE g = 13 GROUP BY g',
  'SELECT g, avg(x) FROM fa GROUP BY g',
  'SELECT g, count(*), avg(x) FROM fa WHERE g IN (1, 13, 14) GROUP BY g',
  'SELECT avg(x) FROM fa WHERE g = 13',
  'SELECT avg(x), var_samp(x) FROM fa WHERE g IN (1, 4, 11)',
  'SELECT sum(x), avg(x), var_samp(x), var_pop(x) FROM fa WHERE id > 1000',
  'SELECT g, sum(x), avg(x), var_samp(x) FROM fa WHERE id > 1000 GROUP BY g',
  'SELECT g, avg(x) FILTER (WHERE id <> 6), var_pop(x) FILTER (WHERE id <> 5) FROM fa WHERE g IN (1, 2) GROUP BY g',
  'SELECT g, avg(x) FILTER (WHERE id <> 8) FROM fa WHERE g = 3 GROUP BY g',
  'SELECT g, avg(x) FILTER (WHERE id > 7) FROM fa WHERE g IN (2, 3) GROUP BY g',
  'SELECT g, sum(x) FILTER (WHERE id < 0), avg(x) FILTER (WHERE id < 0) FROM fa GROUP BY g',
  'SELECT g, avg(coalesce(x, 0)), var_samp(abs(x)) FROM fa WHERE g IN (1, 4, 11, 14) GROUP BY g',
  'SELECT g, avg(r), var_samp(r), stddev_pop(r) FROM fa WHERE g IN (1, 2, 4, 6, 7, 8, 9, 12, 14) GROUP BY g',
  'SELECT g, avg(r), var_pop(r) FROM fa WHERE g = 3 GROUP BY g',
  'SELECT g, avg(x) FROM fa GROUP BY g HAVING count(*) > 50',
  'SELECT g, count(*) FROM fa GROUP BY g HAVING avg(x) > 0',
  'SELECT g, avg(x) FROM fa WHERE g IN (1, 4, 14) GROUP BY g HAVING avg(x) > 2',
  'SELECT g, sum(x) FROM fa WHERE g = 17 GROUP BY g',
  'SELECT g, sum(x) FROM fa WHERE g IN (1, 2, 4, 17) GROUP BY g',
  'SELECT sum(x) FROM fa WHERE g = 17',
  'SELECT g, count(*), sum(x) FROM fa WHERE g IN (1, 2, 13) GROUP BY g ORDER BY count(*) DESC, g LIMIT 1',
  'SELECT g, count(*), sum(x) FROM fa WHERE g IN (1, 17) GROUP BY g ORDER BY count(*) DESC, g LIMIT 1',
  'SELECT g, sum(x) FROM fa WHERE g IN (1, 17) GROUP BY g HAVING g = 1 OR count(*) > 2',
  'SELECT g, count(*), avg(x) FROM fa WHERE g IN (1, 2, 13) GROUP BY g ORDER BY count(*) DESC, g LIMIT 1',
  'SELECT g, regr_avgx(x, id), regr_avgy(x, id), regr_count(x, id) FROM fa WHERE g IN (1, 4, 7, 8, 11, 12, 14) GROUP BY g',
  'SELECT g, regr_avgy(x, id) FROM fa WHERE g = 2 GROUP BY g',
  'SELECT g, regr_avgx(id, x) FROM fa WHERE g = 13 GROUP BY g',
  'SELECT regr_avgx(x, r), regr_avgy(r, x) FROM fa WHERE g IN (1, 14)'
]) q, fa_check(q) c;
-- HAVING with one of them: sent after the overflow guards (floathaving: every
-- group's guards are evaluated first, so a group it drops still raises, before
-- ORDER BY and LIMIT)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, count(*) FROM fa GROUP BY g HAVING avg(x) > 0;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, count(*), sum(x) FROM fa WHERE g IN (1, 2, 13) GROUP BY g ORDER BY count(*) DESC, g LIMIT 1;
-- sum of real stays local (float4pl adds in float4)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, sum(r) FROM fa GROUP BY g;
-- regr_avgx / regr_avgy: sent (arrayFold on 26.5, the easy / hard split
-- on 18.16)
SELECT q, c.pushed, c.same, c.nrows, c.err FROM unnest(ARRAY[
  'SELECT g, regr_avgx(x, id), regr_avgy(x, id) FROM fa GROUP BY g'
]) q, fa_check(q) c;

-- ==== order-dependent answers. fa_valid(query on one group): the FDW's
-- answer (a value or an error), and whether it is a valid one: the local
-- copy's in some order. The orders tried: id order, the reverse, and the
-- non-finite values first then ascending |x| (an order that overflows
-- last), and huge values first
CREATE FUNCTION fa_valid(q text, OUT answer text, OUT valid boolean) LANGUAGE plpgsql AS $$
DECLARE
  lq text;
  o text;
  v text;
  ok boolean := false;
BEGIN
  BEGIN
    EXECUTE q INTO answer;
  EXCEPTION WHEN OTHERS THEN answer := 'ERROR ' || SQLSTATE;
  END;
  FOREACH o IN ARRAY ARRAY['id', 'id DESC', 'isfinite, abs(x), id', 'abs(x) DESC, id'] LOOP
    lq := replace(q, 'FROM fa', format('FROM (SELECT *, x NOT IN (''Infinity'', ''-Infinity'', ''NaN'') AS isfinite FROM fa_l ORDER BY %s) fa', o));
    BEGIN
      PERFORM set_config('enable_sort', 'off', true);
      EXECUTE lq INTO v;
    EXCEPTION WHEN OTHERS THEN v := 'ERROR ' || SQLSTATE;
    END;
    ok := ok OR v IS NOT DISTINCT FROM answer;
  END LOOP;
  valid := ok;
END $$;
-- group 5: 1e308, 1e308, -1e308: id order raises, 1e308 - 1e308 + 1e308
-- gives 1e308; group 6: -Infinity ... (raises in id order, Infinity with
-- the infinity first); group 15; group 16
SELECT q, v.answer, v.valid FROM unnest(ARRAY[
  'SELECT sum(x)::text FROM fa WHERE g = 5 GROUP BY g',
  'SELECT sum(x)::text FROM fa WHERE g = 6 GROUP BY g',
  'SELECT avg(x)::text FROM fa WHERE g = 6 GROUP BY g',
  'SELECT var_samp(x)::text FROM fa WHERE g = 6 GROUP BY g',
  'SELECT sum(x)::text FROM fa WHERE g = 15 GROUP BY g',
  'SELECT sum(x)::text FROM fa WHERE g = 16 GROUP BY g',
  'SELECT avg(x)::text FROM fa WHERE g = 16 GROUP BY g',
  'SELECT avg(r)::text FROM fa WHERE g = 6 GROUP BY g'
]) q, fa_valid(q) v;

-- ==== seeded random differential: 25 groups of random doubles (ordinary,
-- huge from 1e130 to 1.79e308, NaN, +-Infinity, -0, NULL); each group's
-- sum / avg / var_samp / var_pop / stddev / regr_avgy(x, id) /
-- regr_avgx(id, x), with and without FILTER, as a value or an error
-- (SQLSTATE), checked to be PostgreSQL's for some order (any order is a
-- valid one): equal (floats within 1e-12 relative: ClickHouse's sums and
-- variances of the ordinary rows round otherwise) to the local copy's
-- with the aggregate's input in one of these orders (aggregate ORDER BY):
-- - id order: one thread reads the rows in id order (regr_* on 26.5:
--   arrayFold over them in that order);
-- - the FDW's order for avg and the variance family: the non-finite rows
--   first, then the rows up to 1e130, then the others in id order;
-- - the FDW's order for regr_* on 18.16: the pairs with |X|, |Y| up to
--   1e130 first, then the others (huge, infinite, NaN) in id order;
-- or, for sum, whose order is ClickHouse's own: an error where some order
-- overflows (the positive or the negative values alone sum past the
-- largest double, exact numeric sums), or a finite value where no input
-- is infinite or NaN, the exact total is finite and the value is within
-- 1e-12 of the sum of |x|.
SELECT setseed(0.4242);
SELECT clickhouse_exec('ch_fa', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.fr');
SELECT clickhouse_exec('ch_fa', 'CREATE TABLE ' || :'ch_db' || '.fr (id Int32, g Int32, x Nullable(Float64)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_fa', 'INSERT INTO ' || :'ch_db' || '.fr VALUES ' || string_agg(format('(%s, %s, %s)', id, g, x), ', '))
FROM (SELECT id, (random() * 24)::int AS g,
        CASE WHEN p < 0.04 THEN 'NULL' WHEN p < 0.07 THEN 'nan' WHEN p < 0.095 THEN 'inf'
             WHEN p < 0.12 THEN '-inf' WHEN p < 0.15 THEN '-0.0'
             WHEN p < 0.36 THEN format('%s%se%s', CASE WHEN random() < 0.5 THEN '-' ELSE '' END,
                                      round((1 + random() * 0.79)::numeric, 3),
                                      (ARRAY[130, 140, 150, 200, 300, 307, 308, 308])[1 + floor(random() * 8)::int])
             ELSE round(((random() - 0.5) * 1000)::numeric, 3)::text END AS x
      FROM (SELECT id, random() AS p FROM generate_series(1, 160) id) s0) s;
CREATE FOREIGN TABLE fr (id int, g int, x float8) SERVER ch_fa OPTIONS (table 'fr');
CREATE TABLE fr_l AS SELECT * FROM fr ORDER BY id;
CREATE FUNCTION fa_try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE v text;
BEGIN
  EXECUTE q INTO v;
  RETURN coalesce(v, 'NULL');
EXCEPTION WHEN OTHERS THEN RETURN 'ERROR ' || SQLSTATE;
END $$;
-- a and b the same answer: the same text, or finite and within rel
CREATE FUNCTION fa_close(a text, b text, rel float8) RETURNS boolean LANGUAGE sql AS $$
  SELECT a = b OR (a !~ '^(ERROR|NULL|NaN|-?Infinity)' AND b !~ '^(ERROR|NULL|NaN|-?Infinity)'
    AND abs(a::float8 - b::float8) <= rel * greatest(abs(a::float8), abs(b::float8))) $$;
CREATE TEMP TABLE fr_res AS
SELECT k, a, f,
       fa_try(format('SELECT %s::text FROM fr WHERE g = %s GROUP BY g', format(a, '') || f, k)) AS fdw,
       fa_try(format('SELECT %s::text FROM fr_l WHERE g = %s GROUP BY g', format(a, ' ORDER BY x IN (''Infinity'', ''-Infinity'', ''NaN'') DESC, abs(x) > 1e130, id') || f, k)) AS ordered,
       fa_try(format('SELECT %s::text FROM fr_l WHERE g = %s GROUP BY g', format(a, ' ORDER BY id') || f, k)) AS id_order,
       fa_try(format('SELECT %s::text FROM fr_l WHERE g = %s GROUP BY g', format(a, ' ORDER BY abs(x) > 1e130, id') || f, k)) AS split_order
FROM generate_series(0, 24) k,
     unnest(ARRAY['sum(x%s)', 'avg(x%s)', 'var_samp(x%s)', 'var_pop(x%s)', 'stddev(x%s)', 'regr_avgy(x, id%s)', 'regr_avgx(id, x%s)']) a,
     unnest(ARRAY['', ' FILTER (WHERE id % 2 = 0)']) f;
CREATE TEMP TABLE fr_sum AS
SELECT g, f, bool_or(NOT isfinite) AS nonfinite,
       coalesce(sum(xn) FILTER (WHERE xn > 0), 0) > 1.7976931348623157e308::numeric OR
       coalesce(sum(xn) FILTER (WHERE xn < 0), 0) < -1.7976931348623157e308::numeric AS may_overflow,
       abs(coalesce(sum(xn), 0)) <= 1.7976931348623157e308::numeric AS total_finite,
       sum(xn) AS total, sum(abs(xn)) AS total_abs
FROM (SELECT g, x, f, x IN ('Infinity', '-Infinity', 'NaN') IS FALSE AS isfinite,
             CASE WHEN x NOT IN ('Infinity', '-Infinity', 'NaN') THEN x::numeric END AS xn
      FROM fr_l, unnest(ARRAY['', ' FILTER (WHERE id % 2 = 0)']) f
      WHERE x IS NOT NULL AND (f = '' OR id % 2 = 0)) s
GROUP BY g, f;
CREATE TEMP TABLE fr_chk AS
SELECT r.*, fa_close(r.fdw, r.ordered, 1e-12) OR fa_close(r.fdw, r.id_order, 1e-12) OR
       fa_close(r.fdw, r.split_order, 1e-12) OR
       (r.a = 'sum(x%s)' AND NOT coalesce(s.nonfinite, false) AND
        ((r.fdw = 'ERROR 22003' AND s.may_overflow) OR
         (r.fdw !~ '^(ERROR|NULL|NaN|-?Infinity)' AND s.total_finite AND
          abs(r.fdw::numeric - s.total) <= 1e-12 * s.total_abs))) AS valid
FROM fr_res r LEFT JOIN fr_sum s ON s.g = r.k AND s.f = r.f;
SELECT count(*) AS checks, count(*) FILTER (WHERE valid) AS valid,
       count(*) FILTER (WHERE fdw = ordered) AS same_as_ordered,
       count(*) FILTER (WHERE fdw = id_order) AS same_as_id_order,
       count(*) FILTER (WHERE fdw LIKE 'ERROR%') AS fdw_errors,
       count(*) FILTER (WHERE ordered LIKE 'ERROR%') AS ordered_errors,
       count(*) FILTER (WHERE fdw IN ('NaN', 'Infinity', '-Infinity')) AS fdw_nonfinite,
       count(*) FILTER (WHERE fdw ~ '^-?[0-9]') AS fdw_numbers
FROM fr_chk;
SELECT * FROM fr_chk WHERE NOT valid ORDER BY k, a, f;
-- every pushed (one Foreign Scan, no Aggregate)
SELECT (SELECT c.pushed FROM diff_check(format('SELECT g, %s FROM fr GROUP BY g', format(a, '')), 'fr', '(Aggregate|Sort|Group)', false, true) c) AS pushed, a
FROM unnest(ARRAY['sum(x%s)', 'avg(x%s)', 'var_samp(x%s)', 'var_pop(x%s)', 'stddev(x%s)', 'regr_avgy(x, id%s)', 'regr_avgx(id, x%s)']) a;
DROP TABLE fa_l, fr_l;

-- ==== (floatminmax) min/max of floats: PostgreSQL orders NaN above every
-- number (float8larger/float8smaller), ClickHouse's min/max compare with
-- < and > (a NaN's place in the rows decided). Groups: NaN first, last and
-- in the middle (one part read in id order), only NaN, NaN and NULL,
-- infinities with NaN, infinities alone, only NULL, -0 alone, subnormals
-- and the extremes; a real column beside. Before, every one ran in
-- PostgreSQL (an Aggregate over the scan).
SELECT clickhouse_exec('ch_fa', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.fmm');
SELECT clickhouse_exec('ch_fa', 'CREATE TABLE ' || :'ch_db' || '.fmm (id Int32, g Int32, x Nullable(Float64), r Nullable(Float32)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_fa', 'INSERT INTO ' || :'ch_db' || '.fmm VALUES
  (1, 1, nan, nan), (2, 1, 5, 5), (3, 1, -2, -2),
  (4, 2, 5, 5), (5, 2, -2, -2), (6, 2, nan, nan),
  (7, 3, 5, 5), (8, 3, nan, nan), (9, 3, -2, -2),
  (10, 4, nan, nan), (11, 4, nan, nan),
  (12, 5, NULL, NULL), (13, 5, nan, nan), (14, 5, NULL, NULL),
  (15, 6, inf, inf), (16, 6, nan, nan), (17, 6, -inf, -inf),
  (18, 7, -inf, -inf), (19, 7, inf, inf),
  (20, 8, NULL, NULL),
  (21, 9, -0.0, -0.0),
  (22, 10, 5e-324, 1e-45), (23, 10, 1.7976931348623157e308, 3.4028235e38), (24, 10, -1.7976931348623157e308, -3.4028235e38)');
SELECT clickhouse_exec('ch_fa', 'OPTIMIZE TABLE ' || :'ch_db' || '.fmm FINAL');
CREATE FOREIGN TABLE fmm (id int, g int, x float8, r real) SERVER ch_fa OPTIONS (table 'fmm');
CREATE TABLE fmm_l AS SELECT * FROM fmm ORDER BY id;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, min(x), max(x) FROM fmm GROUP BY g;
SELECT q, c.pushed, c.same, c.nrows, c.err FROM unnest(ARRAY[
  'SELECT g, min(x), max(x), min(r), max(r) FROM fmm GROUP BY g',
  'SELECT min(x), max(x), min(r), max(r) FROM fmm',
  'SELECT min(x), max(x) FROM fmm WHERE g IN (1, 7, 10)',
  'SELECT min(x), max(x) FROM fmm WHERE id > 1000',
  'SELECT g, min(x) FILTER (WHERE id % 3 <> 1), max(x) FILTER (WHERE id % 3 <> 0), max(r) FILTER (WHERE id < 0) FROM fmm GROUP BY g',
  'SELECT g, max(x) - min(x), count(*) FROM fmm GROUP BY g',
  'SELECT g, max(x) FROM fmm GROUP BY g HAVING max(x) > 0',
  'SELECT g, min(x) FROM fmm GROUP BY g ORDER BY min(x) DESC, g LIMIT 4',
  'SELECT g, min(abs(x)) FROM fmm GROUP BY g'
]) q, diff_check(q, 'fmm', '(Aggregate|Sort|Group)', false, true) c;
-- ties of -0 and 0: PostgreSQL's answer depends on the rows' order (the
-- later of equal values); the FDW's is one of the two
SELECT clickhouse_exec('ch_fa', 'INSERT INTO ' || :'ch_db' || '.fmm VALUES (25, 11, 0, 0), (26, 11, -0.0, -0.0)');
SELECT max(x)::text IN ('0', '-0') AS max_valid, min(x)::text IN ('0', '-0') AS min_valid,
       max(x) = 0 AND min(x) = 0 AS zero
  FROM fmm WHERE g = 11;
-- stays local: over windows (as sums over moving frames)
SELECT (diff_check('SELECT id, max(x) OVER (PARTITION BY g) FROM fmm', 'fmm', '(WindowAgg|Aggregate|Sort|Group)', false, true)).pushed AS window_pushed;
DROP TABLE fmm_l;
SELECT clickhouse_exec('ch_fa', 'DROP TABLE ' || :'ch_db' || '.fmm');
