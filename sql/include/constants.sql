-- ====================================================================
-- Constants as sent, shared by constants.sql (18.16, HTTP or TCP) and
-- modern_constants.sql (the 26.5 engine behind test/chdb/front.py, a test
-- harness, not a server). Float constants must reach ClickHouse with the
-- very bits PostgreSQL holds (src/fdw/shippable.c, chfdw_deparse_float8):
-- a few thousand seeded random doubles (random bit patterns, subnormals,
-- the smallest and largest exponents, short decimals, the two values
-- ClickHouse's string parser read one bit off) are stored in ClickHouse
-- through the FDW and in a local copy; each is then used as a constant in
-- col = c and col < c, sent in one aggregate per chunk and in WHERE, and
-- the answers compared with the local copy's; the same for float4
-- constants on a Float32 column. The caller has created server ch_cn and
-- set :ch_db.
-- ====================================================================
SET extra_float_digits = 1;
SELECT clickhouse_exec('ch_cn', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.cn');
SELECT clickhouse_exec('ch_cn', 'CREATE TABLE ' || :'ch_db' || '.cn (id Int32, f Float64, r Float32) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE cn (id int, f float8, r real) SERVER ch_cn OPTIONS (table 'cn');

-- cn_bits(m, e, s): the double (-1)^s * (2^52 + m) * 2^(e - 1075) for e in
-- 1 .. 2046, m * 2^-1074 (a subnormal, or zero) for e = 0; every step is
-- exact (products by powers of two that stay representable)
CREATE FUNCTION cn_bits(m float8, e int, s int) RETURNS float8 LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN s = 1 THEN -1::float8 ELSE 1::float8 END *
    CASE WHEN e = 0 THEN m * 2::float8 ^ -537 * 2::float8 ^ -537
      ELSE (2::float8 ^ 52 + m) * 2::float8 ^ ((e - 1075) / 2) * 2::float8 ^ ((e - 1075) - (e - 1075) / 2) END
$$;
SELECT setseed(0.17);
CREATE TABLE cn_local AS
SELECT id,
  CASE id % 5
    WHEN 0 THEN cn_bits(floor(random() * 2 ^ 52), floor(random() * 2047)::int, (random() < 0.5)::int)
    WHEN 1 THEN cn_bits(1 + floor(random() * (2 ^ (1 + floor(random() * 52)) - 1)), 0, (random() < 0.5)::int)
    WHEN 2 THEN cn_bits(floor(random() * 2 ^ 52), CASE WHEN random() < 0.5 THEN 1 + floor(random() * 40)::int ELSE 2006 + floor(random() * 41)::int END, (random() < 0.5)::int)
    WHEN 3 THEN (round(random() * 10 ^ floor(random() * 9)) / 10 ^ floor(random() * 12)::int)::float8 * CASE WHEN random() < 0.5 THEN -1 ELSE 1 END
    ELSE cn_bits(floor(random() * 2 ^ 52), 1023 + floor(random() * 120 - 60)::int, (random() < 0.5)::int)
  END AS f,
  CASE id % 3
    WHEN 0 THEN cn_bits(floor(random() * 2 ^ 52), 1023 - 126 + floor(random() * 253)::int, (random() < 0.5)::int)::real
    WHEN 1 THEN cn_bits(floor(random() * 2 ^ 52), 1023 - 149 + floor(random() * 30)::int, (random() < 0.5)::int)::real
    ELSE (round(random() * 10 ^ floor(random() * 7)) / 10 ^ floor(random() * 8)::int)::real
  END AS r
FROM generate_series(1, 3000) id;
INSERT INTO cn_local VALUES
  (3001, '9.99994433575849e-161', '1e-45'), (3002, '2.2227587494850775e-162', '1.4e-45'),
  (3003, '5e-324', '-1e-45'), (3004, '-5e-324', '3.4028235e+38'),
  (3005, '2.2250738585072014e-308', '1.1754944e-38'), (3006, '2.225073858507201e-308', '1.1754942e-38'),
  (3007, '1.7976931348623157e+308', '-3.4028235e+38'), (3008, '-1.7976931348623157e+308', '0.1'),
  (3009, '0', '0'), (3010, '-0', '-0'), (3011, '4.347', '4.347'), (3012, '0.1', '0.3'),
  (3013, '1e+23', '1e+23'), (3014, '123456789012345', '16777217'), (3015, '0.25', '0.25'),
  (3016, '1.5', '-1.5'), (3017, '-100', '100'), (3018, '0.0625', '0.0625'),
  (3019, 'Infinity', 'Infinity'), (3020, '-Infinity', '-Infinity'), (3021, 'NaN', 'NaN'),
  (3022, '3.4028234663852886e+38', '-0.1'), (3023, '9007199254740993', '9007199254740992'),
  (3024, '0.9', '0.9'), (3025, '1e-05', '1e-05');
SELECT count(*), count(DISTINCT f), count(*) FILTER (WHERE f <> 0 AND abs(f) < 2.2250738585072014e-308) AS subnormal,
  count(*) FILTER (WHERE abs(f) > 1e300) AS huge, count(*) FILTER (WHERE r <> 0 AND abs(r) < 1.1754944e-38) AS r_subnormal
FROM cn_local;
INSERT INTO cn SELECT * FROM cn_local;
-- stored bit for bit (float8send: -0 and NaN too)
SELECT count(*) AS differ FROM (
  (SELECT id, float8send(f), float4send(r) FROM cn EXCEPT ALL SELECT id, float8send(f), float4send(r) FROM cn_local)
  UNION ALL
  (SELECT id, float8send(f), float4send(r) FROM cn_local EXCEPT ALL SELECT id, float8send(f), float4send(r) FROM cn)) x;

-- what is sent: the decimal where ClickHouse reads it exactly, else the bits
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM cn WHERE f = '9.99994433575849e-161';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM cn WHERE f = '2.2227587494850775e-162' OR f = 5e-324 OR f = '-0' OR f < 1.5 OR f = 4.347;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM cn WHERE r = '0.1'::real OR r < '0.25'::real OR f = 'Infinity' OR f > '-Infinity';
SELECT id, f FROM cn WHERE f = '9.99994433575849e-161' OR f = '2.2227587494850775e-162' OR f = 5e-324 OR f = 4.347 ORDER BY id;

-- cn_chunk(lo, hi, col, ty, op, step): every step-th value of col on rows
-- lo..hi (and the fixed ones) as a constant c in count(*) FILTER (WHERE
-- col op c), one query over the foreign table (checked sent: no local
-- Aggregate) and the same over the local copy; returns the values whose
-- counts differ (a constant one bit off loses its row from =).
CREATE FUNCTION cn_chunk(lo int, hi int, col text, ty text, op text, step int)
RETURNS TABLE (sent boolean, values_checked int, wrong text[]) LANGUAGE plpgsql AS $$
DECLARE
  q text := '';
  vals text[];
  ids int[];
  rr bigint[];
  ll bigint[];
  line text;
  sh boolean := true;
  bad text[] := '{}';
  i int;
BEGIN
  EXECUTE format('SELECT array_agg(%I::text ORDER BY id), array_agg(id ORDER BY id) FROM cn_local WHERE (id %% %s = 0 OR id > 3000) AND id BETWEEN %s AND %s AND %I <> %L',
                 col, step, lo, hi, col, 'NaN') INTO vals, ids;
  FOR i IN 1 .. coalesce(array_length(vals, 1), 0) LOOP
    q := q || format('%scount(*) FILTER (WHERE %I %s %L::%s)', CASE WHEN i > 1 THEN ', ' ELSE '' END, col, op, vals[i], ty);
  END LOOP;
  q := 'SELECT ARRAY[' || q || '] FROM ';
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q || 'cn' LOOP
    IF line ~ '^\s*(Aggregate|Filter)' THEN sh := false; END IF;
  END LOOP;
  EXECUTE q || 'cn' INTO rr;
  EXECUTE q || 'cn_local' INTO ll;
  FOR i IN 1 .. coalesce(array_length(vals, 1), 0) LOOP
    IF rr[i] <> ll[i] THEN
      bad := bad || format('%s %s: %s %s/%s', ids[i], vals[i], op, rr[i], ll[i]);
    END IF;
  END LOOP;
  RETURN QUERY SELECT sh, coalesce(array_length(vals, 1), 0), bad;
END $$;
-- float8 constants against the Float64 column, float4 against Float32:
-- col = c for every value, col < c for every 4th (queries of 60 rows:
-- both engines take time quadratic in the number of expressions)
SELECT col, op, bool_and(c.sent) AS sent, sum(c.values_checked) AS checked,
  (array_agg(c.wrong[1]) FILTER (WHERE cardinality(c.wrong) > 0))[1:3] AS wrong_examples,
  sum(cardinality(c.wrong)) AS wrong
FROM (VALUES ('f', 'float8'), ('r', 'real')) v(col, ty), (VALUES ('=', 1), ('<', 4)) o(op, step),
  generate_series(1, 3025, 60) lo, cn_chunk(lo, lo + 59, col, ty, op, step) c
GROUP BY col, op ORDER BY col, op;

-- ranges in WHERE: an OR of (f < a AND f > b) over consecutive values,
-- rows compared with the local copy's
CREATE FUNCTION cn_where(lo int, hi int) RETURNS TABLE (sent boolean, same boolean) LANGUAGE plpgsql AS $$
DECLARE
  vals text[];
  c text;
  line text;
  sh boolean := true;
  r int[];
  l int[];
BEGIN
  SELECT array_agg(f::text ORDER BY id) INTO vals FROM cn_local
    WHERE id BETWEEN lo AND hi AND f <> 'NaN';
  SELECT string_agg(format('(f < %L::float8 AND f > %L::float8)', greatest(a::float8, b::float8), least(a::float8, b::float8)), ' OR ')
    INTO c FROM unnest(vals[1:array_length(vals, 1) - 1], vals[2:]) x(a, b);
  FOR line IN EXECUTE format('EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM cn WHERE %s', c) LOOP
    IF line ~ 'Filter' THEN sh := false; END IF;
  END LOOP;
  EXECUTE format('SELECT array_agg(id ORDER BY id) FROM cn WHERE %s', c) INTO r;
  EXECUTE format('SELECT array_agg(id ORDER BY id) FROM cn_local WHERE %s', c) INTO l;
  RETURN QUERY SELECT sh, r IS NOT DISTINCT FROM l;
END $$;
SELECT bool_and(c.sent) AS sent, count(*) AS chunks, count(*) FILTER (WHERE NOT c.same) AS differ
FROM generate_series(1, 3025, 1000) lo, cn_where(lo, lo + 40) c;

-- (nanconst) the constant NaN (float8 and real) against the columns: sent
-- (isNaN; 0 for > NaN, 1 for <= NaN), counts and rows as the local copy's
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM cn WHERE f >= 'NaN' OR (r <> 'NaN'::real AND 'NaN' < f);
SELECT a.c = l.c AS same, a.c FROM
  (SELECT ARRAY[count(*) FILTER (WHERE f = 'NaN'), count(*) FILTER (WHERE f <> 'NaN'),
     count(*) FILTER (WHERE f < 'NaN'), count(*) FILTER (WHERE f <= 'NaN'),
     count(*) FILTER (WHERE f > 'NaN'), count(*) FILTER (WHERE f >= 'NaN'),
     count(*) FILTER (WHERE r = 'NaN'::real), count(*) FILTER (WHERE 'NaN'::real > r),
     count(*) FILTER (WHERE r < 'NaN')] AS c FROM cn) a,
  (SELECT ARRAY[count(*) FILTER (WHERE f = 'NaN'), count(*) FILTER (WHERE f <> 'NaN'),
     count(*) FILTER (WHERE f < 'NaN'), count(*) FILTER (WHERE f <= 'NaN'),
     count(*) FILTER (WHERE f > 'NaN'), count(*) FILTER (WHERE f >= 'NaN'),
     count(*) FILTER (WHERE r = 'NaN'::real), count(*) FILTER (WHERE 'NaN'::real > r),
     count(*) FILTER (WHERE r < 'NaN')] AS c FROM cn_local) l;
SELECT (SELECT array_agg(id ORDER BY id) FROM cn WHERE f >= 'NaN' OR (r = 'NaN'::real AND NOT (f < 'NaN')) OR id = 7)
  IS NOT DISTINCT FROM (SELECT array_agg(id ORDER BY id) FROM cn_local WHERE f >= 'NaN' OR (r = 'NaN'::real AND NOT (f < 'NaN')) OR id = 7) AS same_rows;

-- (floatparam) run-time values of float types: sent, written in when the
-- query starts with the bits a constant has, and compared by PostgreSQL's
-- rules also where the value is NaN (NaN = NaN, NaN above every number:
-- if(isNaN(p), ...)). Before, a generic plan's parameter was a local
-- Filter. Each of the six operators for every 25th value of the table and
-- the fixed ones (NaN, -0, infinities, subnormals, the extremes), as a
-- PL/pgSQL variable under generic plans (a parameter), against the Float64
-- and the Float32 column (real and double precision values), counts
-- compared with the local copy's; an initplan's value; NULL
SET plan_cache_mode = force_generic_plan;
PREPARE cn_p(float8) AS SELECT count(*) FROM cn WHERE f = $1;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE cn_p('9.99994433575849e-161');
EXECUTE cn_p('9.99994433575849e-161');
EXECUTE cn_p('NaN');
EXECUTE cn_p(NULL);
DEALLOCATE cn_p;
PREPARE cn_p(real) AS SELECT count(*) FROM cn WHERE r >= $1 AND NOT (f < $1);
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE cn_p('0.1');
DEALLOCATE cn_p;
CREATE FUNCTION cn_param(step int, OUT checked int, OUT differ int) LANGUAGE plpgsql AS $$
DECLARE
  v float8;
  w real;
  a bigint[];
  b bigint[];
BEGIN
  checked := 0;
  differ := 0;
  FOR v, w IN SELECT f, r FROM cn_local WHERE id % step = 0 OR id > 3000 ORDER BY id LOOP
    a := ARRAY[(SELECT count(*) FROM cn WHERE f = v), (SELECT count(*) FROM cn WHERE f <> v),
               (SELECT count(*) FROM cn WHERE f < v), (SELECT count(*) FROM cn WHERE f <= v),
               (SELECT count(*) FROM cn WHERE f > v), (SELECT count(*) FROM cn WHERE v >= f),
               (SELECT count(*) FROM cn WHERE r = w), (SELECT count(*) FROM cn WHERE r > w),
               (SELECT count(*) FROM cn WHERE w <= r), (SELECT count(*) FROM cn WHERE r < v),
               (SELECT count(*) FROM cn WHERE NOT (f >= v) OR r = w)];
    b := ARRAY[(SELECT count(*) FROM cn_local WHERE f = v), (SELECT count(*) FROM cn_local WHERE f <> v),
               (SELECT count(*) FROM cn_local WHERE f < v), (SELECT count(*) FROM cn_local WHERE f <= v),
               (SELECT count(*) FROM cn_local WHERE f > v), (SELECT count(*) FROM cn_local WHERE v >= f),
               (SELECT count(*) FROM cn_local WHERE r = w), (SELECT count(*) FROM cn_local WHERE r > w),
               (SELECT count(*) FROM cn_local WHERE w <= r), (SELECT count(*) FROM cn_local WHERE r < v),
               (SELECT count(*) FROM cn_local WHERE NOT (f >= v) OR r = w)];
    checked := checked + 1;
    IF a IS DISTINCT FROM b THEN
      differ := differ + 1;
      RAISE NOTICE 'differ for % / %: % against %', v, w, a, b;
    END IF;
  END LOOP;
END $$;
SELECT * FROM cn_param(25);
SELECT (SELECT count(*) FROM cn WHERE f > (SELECT min(f) FROM cn_local WHERE id BETWEEN 10 AND 20)) AS foreign,
       (SELECT count(*) FROM cn_local WHERE f > (SELECT min(f) FROM cn_local WHERE id BETWEEN 10 AND 20)) AS local;
EXPLAIN (COSTS OFF) SELECT count(*) FROM cn WHERE f > (SELECT min(f) FROM cn_local WHERE id BETWEEN 10 AND 20);
DROP FUNCTION cn_param(int);
RESET plan_cache_mode;

-- in a grouping key and inside function calls: sent, equal to the local
-- copy's (a float expression in ORDER BY is not sent at all)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT CASE WHEN f < '9.99994433575849e-161' THEN 1 ELSE 0 END AS k, count(*) FROM cn
WHERE abs(f) < '2.2227587494850775e-162' GROUP BY 1;
SELECT CASE WHEN f < '9.99994433575849e-161' THEN 1 ELSE 0 END AS k, count(*) FROM cn
WHERE abs(f) < '2.2227587494850775e-162' GROUP BY 1 ORDER BY 1;
SELECT CASE WHEN f < '9.99994433575849e-161' THEN 1 ELSE 0 END AS k, count(*) FROM cn_local
WHERE abs(f) < '2.2227587494850775e-162' GROUP BY 1 ORDER BY 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM cn WHERE greatest(f, '4.347') = '4.347' AND f > '-5e-324';
SELECT count(*) FROM cn WHERE greatest(f, '4.347') = '4.347' AND f > '-5e-324';
SELECT count(*) FROM cn_local WHERE greatest(f, '4.347') = '4.347' AND f > '-5e-324';

DROP FUNCTION cn_chunk(int, int, text, text, text, int), cn_where(int, int), cn_bits(float8, int, int);
DROP TABLE cn_local;

-- ==== (numconst) numeric columns of each ClickHouse type against numeric
-- constants: a constant off the column's grid (a fraction for an integer,
-- more digits than a Decimal's scale) or past its range was sent as
-- toDecimal128('c', s), which 18.16 refused to compare with a primary key
-- column ("Key expression contains comparison between inconvertible types")
-- and both servers refused in IN lists ("Type mismatch in IN", "Decimal
-- convert overflow"). Now written in the column's own type, rounded to the
-- grid as the comparison allows (src/fdw/numconst.c). Seeded random
-- constants: values of the table, their neighbours +-1 step and +-half a
-- step, the range's ends and past them, huge and tiny values; each of
-- = <> < <= > >= (and IS [NOT] DISTINCT FROM) in WHERE (u and d are the primary key),
-- in FILTERs, and
-- IN / NOT IN lists, every answer compared with a local copy.
\i sql/include/diff_check.sql
SELECT clickhouse_exec('ch_cn', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.cnum');
SELECT clickhouse_exec('ch_cn', 'CREATE TABLE ' || :'ch_db' || '.cnum (id Int32, u UInt64, i8 Nullable(Int8), d Decimal(9, 2), w Nullable(Decimal(38, 4))) ENGINE = MergeTree ORDER BY (u, d)');
CREATE FOREIGN TABLE cnum (id int, u numeric, i8 numeric, d numeric, w numeric) SERVER ch_cn OPTIONS (table 'cnum');
SELECT setseed(0.29);
INSERT INTO cnum
SELECT g,
  CASE g % 6 WHEN 0 THEN 0 WHEN 1 THEN 18446744073709551615 WHEN 2 THEN 9223372036854775808 + g
    ELSE floor(random() * 1000)::numeric END,
  CASE WHEN g % 7 = 0 THEN NULL WHEN g % 7 = 1 THEN -128 WHEN g % 7 = 2 THEN 127 ELSE floor(random() * 256)::numeric - 128 END,
  CASE g % 5 WHEN 0 THEN 9999999.99 WHEN 1 THEN -9999999.99 ELSE round((random() * 200 - 100)::numeric, 2) END,
  CASE WHEN g % 4 = 0 THEN NULL WHEN g % 4 = 1 THEN 9999999999999999999999999999999999.9999 * CASE WHEN random() < 0.5 THEN -1 ELSE 1 END
    ELSE round((random() * 20 - 10)::numeric, 4) END
FROM generate_series(1, 120) g;
CREATE TABLE cnum_l AS SELECT * FROM cnum;
-- the constants of each column: 24 per column
CREATE TABLE cnum_consts AS
SELECT col, c FROM (
  SELECT 'u' AS col, unnest(ARRAY[0, -1, 0.5, -0.5, 18446744073709551615, 18446744073709551616, 18446744073709551614.5,
    9223372036854775808, 9223372036854775807.5, 1e30, -1e30, 1e-30]::numeric[]) AS c
  UNION ALL SELECT 'u', u + s FROM (SELECT u FROM cnum_l ORDER BY random() LIMIT 4) t, unnest(ARRAY[0, 0.5, -1, 1e-9]::numeric[]) s
  UNION ALL SELECT 'i8', unnest(ARRAY[-128, 127, -128.5, 127.5, -129, 128, 0, 0.001, -0.001, 1e30, -1e30, 1e-30]::numeric[])
  UNION ALL SELECT 'i8', i8 + s FROM (SELECT i8 FROM cnum_l WHERE i8 IS NOT NULL ORDER BY random() LIMIT 4) t, unnest(ARRAY[0, 0.5, -1, 1e-9]::numeric[]) s
  UNION ALL SELECT 'd', unnest(ARRAY[9999999.99, -9999999.99, 9999999.995, -9999999.995, 10000000, -10000000, 0, 0.001, -0.001, 0.005, 1e30, -1e-30]::numeric[])
  UNION ALL SELECT 'd', d + s FROM (SELECT d FROM cnum_l ORDER BY random() LIMIT 4) t, unnest(ARRAY[0, 0.005, -0.01, 1e-9]::numeric[]) s
  UNION ALL SELECT 'w', unnest(ARRAY[9999999999999999999999999999999999.9999, -9999999999999999999999999999999999.9999,
    999999999999999999999999999999999.99995, 1e34, -1e34, 0, 0.00001, -0.00001, 1.5, 1e37, -1e37, 1e-30]::numeric[])
  UNION ALL SELECT 'w', w + s FROM (SELECT w FROM cnum_l WHERE w IS NOT NULL ORDER BY random() LIMIT 4) t, unnest(ARRAY[0, 0.00005, -0.0001, 1e-9]::numeric[]) s
) x;
SELECT col, count(*) FROM cnum_consts GROUP BY col ORDER BY col;
-- WHERE: one query per column, operator (also IS [NOT] DISTINCT FROM) and
-- constant (896), each compared
-- with the local copy and checked to be one Foreign Scan with no Filter
CREATE TABLE cnum_runs AS
SELECT q, c.* FROM (
  SELECT format('SELECT id FROM cnum WHERE %s %s %s', col, op, c) AS q
  FROM cnum_consts, unnest(ARRAY['=', '<>', '<', '<=', '>', '>=', 'IS DISTINCT FROM', 'IS NOT DISTINCT FROM']) op
) s, diff_check(q, 'cnum', 'Filter') c;
SELECT count(*) AS queries, count(*) FILTER (WHERE pushed) AS sent, count(*) FILTER (WHERE same) AS equal,
  count(*) FILTER (WHERE nrows > 0) AS with_rows FROM cnum_runs;
SELECT q, err FROM cnum_runs WHERE NOT same OR NOT pushed LIMIT 5;
-- FILTERs: one aggregate query per column and operator, 24 counts each
CREATE TABLE cnum_runs2 AS
SELECT q, c.* FROM (
  SELECT format('SELECT %s FROM cnum', string_agg(format('count(*) FILTER (WHERE %s %s %s)', col, op, c), ', ')) AS q
  FROM cnum_consts, unnest(ARRAY['=', '<>', '<', '<=', '>', '>=']) op GROUP BY col, op
) s, diff_check(q, 'cnum', '(Filter|Aggregate\M)') c;
SELECT count(*) AS queries, count(*) FILTER (WHERE pushed) AS sent, count(*) FILTER (WHERE same) AS equal FROM cnum_runs2;
-- IN and NOT IN lists of 1 to 6 of a column's constants (off-grid ones
-- dropped; a list with none left is `col != col`, or `col = col` for NOT IN)
SELECT setseed(0.31);
CREATE TABLE cnum_runs3 AS
SELECT q, c.* FROM (
  SELECT format('SELECT id FROM cnum WHERE %s %s (%s)', col, CASE WHEN n % 2 = 0 THEN 'IN' ELSE 'NOT IN' END,
    (SELECT string_agg(c::text, ', ') FROM (SELECT c FROM cnum_consts k WHERE k.col = cols.col ORDER BY random() + n * 0 LIMIT 1 + n % 6) t)) AS q
  FROM unnest(ARRAY['u', 'i8', 'd', 'w']) cols(col), generate_series(1, 12) n
) s, diff_check(q, 'cnum', 'Filter') c;
SELECT count(*) AS queries, count(*) FILTER (WHERE pushed) AS sent, count(*) FILTER (WHERE same) AS equal,
  count(*) FILTER (WHERE nrows > 0) AS with_rows FROM cnum_runs3;
SELECT q, err FROM cnum_runs3 WHERE NOT same OR NOT pushed LIMIT 5;
-- what is sent: the grid's literal, a bound rounded to it, a constant answer
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM cnum WHERE u < 2.5 AND d >= -0.001 AND i8 <> 127.5 AND w IN (1.5, 1.00001, 1e37);
-- (numparam) numeric run-time values (a generic plan's $1) against the
-- integer columns u and i8 are sent, the value written when the query
-- starts by the same rules (ceil/floor, -0.5 for an equality no integer
-- meets, +-2^64 past the range, NaN above every number); against the
-- Decimals d and w they stay local. Every constant of each column as the
-- value, on either side, compared with the local copy
SET plan_cache_mode = force_generic_plan;
CREATE FUNCTION cnum_params(OUT col text, OUT op text, OUT sent boolean, OUT queries int, OUT equal int)
RETURNS SETOF record LANGUAGE plpgsql AS $$
DECLARE
  k record;
  r text;
  l text;
  line text;
  plan text;
BEGIN
  FOR col, op IN SELECT c, o FROM unnest(ARRAY['u', 'i8', 'd', 'w']) c,
      unnest(ARRAY['=', '<>', '<', '<=', '>', '>=', '=:', '<:', '>=:']) o LOOP
    EXECUTE format('PREPARE cnp(numeric) AS SELECT array_agg(id ORDER BY id) FROM cnum WHERE %s',
      CASE WHEN op LIKE '%:' THEN format('$1 %s %s', rtrim(op, ':'), col) ELSE format('%s %s $1', col, op) END);
    plan := '';
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) EXECUTE cnp(1)' LOOP
      plan := plan || line || E'\n';
    END LOOP;
    sent := plan !~ 'Filter';
    queries := 0;
    equal := 0;
    FOR k IN SELECT c FROM cnum_consts WHERE cnum_consts.col = cnum_params.col
             UNION ALL SELECT unnest(ARRAY['NaN', 'Infinity', '-Infinity']::numeric[]) LOOP
      EXECUTE format('EXECUTE cnp(%L)', k.c) INTO r;
      EXECUTE format('SELECT array_agg(id ORDER BY id) FROM cnum_l WHERE %s',
        CASE WHEN op LIKE '%:' THEN format('%L::numeric %s %s', k.c, rtrim(op, ':'), col)
             ELSE format('%s %s %L::numeric', col, op, k.c) END) INTO l;
      queries := queries + 1;
      IF r IS NOT DISTINCT FROM l THEN
        equal := equal + 1;
      END IF;
    END LOOP;
    DEALLOCATE cnp;
    RETURN NEXT;
  END LOOP;
END $$;
SELECT col, sent, count(*) AS operators, sum(queries) AS queries, sum(equal) AS equal
  FROM cnum_params() GROUP BY col, sent ORDER BY col, sent;
PREPARE cnp2(numeric, numeric) AS SELECT id FROM cnum WHERE u < $1 AND i8 <> $2;
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE cnp2(2.5, 3);
DEALLOCATE cnp2;
RESET plan_cache_mode;
-- (numparam) a key join of a local table's numeric keys with the UInt64
-- column (IMPORT's numeric): the integers go in the IN lists, the others
-- (2.5, -1, 2^64, NaN) match nothing and are not sent
CREATE TABLE cnum_keys AS SELECT u FROM cnum_l WHERE id % 10 = 3
  UNION ALL SELECT unnest(ARRAY[2.5, -1, 18446744073709551616, 'NaN', NULL, 18446744073709551615.000]::numeric[]);
ANALYZE cnum_keys;
EXPLAIN (COSTS OFF) SELECT c.id FROM cnum_keys k JOIN cnum c ON c.u = k.u;
SELECT (SELECT array_agg(c.id ORDER BY c.id) FROM cnum_keys k JOIN cnum c ON c.u = k.u) =
       (SELECT array_agg(c.id ORDER BY c.id) FROM cnum_keys k JOIN cnum_l c ON c.u = k.u) AS same,
       (SELECT count(*) FROM cnum_keys k JOIN cnum c ON c.u = k.u) AS rows;
DROP TABLE cnum_keys;
DROP FUNCTION cnum_params();
DROP TABLE cnum_runs, cnum_runs2, cnum_runs3, cnum_consts, cnum_l;
DROP FOREIGN TABLE cnum;
DROP FUNCTION diff_check(text, text, text, boolean, boolean), diff_rows(text, boolean);
