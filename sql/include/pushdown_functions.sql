-- ====================================================================
-- Body of pushdown_functions.sql (ClickHouse 18.16) and
-- modern_pushdown_functions.sql (the 26.5 engine behind test/chdb/front.py,
-- a test harness, not a server): the functions and value operators of the
-- pushdown table (src/fdw/pushdown_map.c). Each is checked pushed (no local
-- Filter in EXPLAIN VERBOSE) and its value on every row of the foreign table
-- compared with PostgreSQL's own on a local copy (NULLs, NaN, +-Inf, empty
-- strings, multibyte UTF-8, the integers' extremes, dates at the ends of
-- Date's and DateTime's ranges); the errors of those that raise compared by
-- SQLSTATE; what is not sent checked to stay local; and a seeded random
-- differential test of calls. The caller has created server ch_pf and set
-- :ch_db.
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_pf', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.pf');
SELECT clickhouse_exec('ch_pf', 'CREATE TABLE ' || :'ch_db' || '.pf (id Int32, i Nullable(Int32), j Nullable(Int64), k Nullable(Int16), s Nullable(String), t Nullable(String), f Nullable(Float64), g Nullable(Float64), d Nullable(Date), ts Nullable(DateTime(''UTC''))) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_pf', 'INSERT INTO ' || :'ch_db' || '.pf VALUES
  (1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (2, 0, 0, 0, '''', '''', 0, 0, ''1970-01-01'', ''1970-01-01 00:00:00''),
  (3, 2147483647, 9223372036854775807, 32767, ''abc'', ''a,b,,c'', 1.5, -2.5, ''2149-06-06'', ''2106-02-07 06:28:15''),
  (4, -2147483648, -9223372036854775808, -32768, ''Üñí,x'', ''  xyx  '', nan, inf, ''2000-02-29'', ''2000-02-29 12:34:56''),
  (5, -1, -1, -1, ''  a,b,,c  '', ''xxhixx'', -inf, 1e308, ''1999-12-31'', ''1999-12-31 23:59:59''),
  (6, 7, 3, 5, ''héllo wörld'', ''ab]c-^'', -0., 5e-324, ''2024-02-29'', ''2024-02-29 00:00:00''),
  (7, 100, 1000000000000, 100, ''x.y.z'', ''日本語,テキスト'', 1e308, 2, ''1970-01-02'', ''2038-01-19 03:14:08''),
  (8, -7, 3037000500, 181, ''ab\''c\\'', ''a
b'', 709, -745, ''2100-03-01'', ''2100-03-01 00:00:00'')');
-- moderate values: the arithmetic that raises on pf's extremes, compared by value
SELECT clickhouse_exec('ch_pf', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.pfs');
SELECT clickhouse_exec('ch_pf', 'CREATE TABLE ' || :'ch_db' || '.pfs (id Int32, i Nullable(Int32), j Nullable(Int64), k Nullable(Int16), s Nullable(String), t Nullable(String), f Nullable(Float64), g Nullable(Float64), d Nullable(Date), ts Nullable(DateTime(''UTC''))) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_pf', 'INSERT INTO ' || :'ch_db' || '.pfs VALUES
  (1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (2, 0, 5, 1, '''', ''x'', 0, 1, ''1970-01-01'', ''1970-01-01 00:00:00''),
  (3, 5, 7, 3, ''abc'', ''a,b,,c'', 2.5, -1.5, ''2019-01-02'', ''2019-01-02 03:04:05''),
  (4, -7, -3, -2, ''Üñí,x'', ''  xyx  '', nan, 1, ''2000-02-29'', ''2000-02-29 12:34:56''),
  (5, 100, 1000000, 100, ''  a,b,,c  '', '''', inf, -inf, ''1999-12-31'', ''1999-12-31 23:59:59''),
  (6, -1, -1, -1, ''héllo wörld'', ''ab]c-^'', -0., 1e-10, ''2024-02-29'', ''2024-02-29 00:00:00''),
  (7, 3, 2, 7, ''日本語'', NULL, 1e300, 1e-300, ''2149-06-06'', ''2106-02-07 06:28:15'')');
CREATE FOREIGN TABLE pf (id int, i int, j bigint, k smallint, s text, t text, f float8,
  g float8, d date, ts timestamptz) SERVER ch_pf OPTIONS (table 'pf');
CREATE FOREIGN TABLE pfs (id int, i int, j bigint, k smallint, s text, t text, f float8,
  g float8, d date, ts timestamptz) SERVER ch_pf OPTIONS (table 'pfs');
CREATE TABLE pf_l AS SELECT * FROM pf;
CREATE TABLE pfs_l AS SELECT * FROM pfs;
SELECT count(*) FROM pf_l;
SELECT count(*) FROM pfs_l;

-- diff_match (a condition true exactly where an expression has a value)
-- and diff_expr, the check behind pf_one
\i sql/include/diff_expr.sql

-- pf_val(e): e's value on every row, as one OR of "(id = n AND e = its
-- local value)" (e after AND: values that may raise stay local there).
-- shipped: no local Filter; same: the foreign table returned every row, as
-- the local copy does; bad: the rows whose values differ.
CREATE FUNCTION pf_val(e text, tab text DEFAULT 'pf')
RETURNS TABLE (expr text, shipped boolean, same boolean, bad int[]) LANGUAGE plpgsql AS $$
DECLARE
  loc text := tab || '_l';
  cond text;
  r int[];
  l int[];
  plan text := '';
  line text;
  lerr text;
  rerr text;
BEGIN
  BEGIN
    EXECUTE format('SELECT string_agg(format(''(id = %%s AND %%s)'', id, diff_match(%L, v, ty)), '' OR '') '
                   'FROM (SELECT id, (%s)::text AS v, pg_typeof(%s)::text AS ty FROM %s) s', e, e, e, loc)
      INTO cond;
  EXCEPTION WHEN OTHERS THEN
    lerr := SQLSTATE;
  END;
  IF lerr IS NOT NULL THEN
    -- PostgreSQL raises for this table: so must the foreign table
    BEGIN
      EXECUTE format('SELECT count(*) FROM %s WHERE id > 0 AND (%s) IS NULL', tab, e);
    EXCEPTION WHEN OTHERS THEN
      rerr := SQLSTATE;
    END;
    RETURN QUERY SELECT e, NULL::boolean, rerr IS NOT DISTINCT FROM lerr, NULL::int[];
    RETURN;
  END IF;
  EXECUTE format('SELECT array_agg(id ORDER BY id) FROM %s WHERE %s', loc, cond) INTO l;
  EXECUTE format('SELECT array_agg(id ORDER BY id) FROM %s WHERE %s', tab, cond) INTO r;
  FOR line IN EXECUTE format('EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM %s WHERE %s', tab, cond) LOOP
    plan := plan || line || E'\n';
  END LOOP;
  RETURN QUERY SELECT e, plan NOT LIKE '%Filter:%', r IS NOT DISTINCT FROM l,
    ARRAY(SELECT unnest(l) EXCEPT SELECT unnest(coalesce(r, '{}')) ORDER BY 1);
END $$;

-- pf_one(e[, tab]): e alone as the scan's one condition ("e = v" for each
-- of its local values), where values that raise are sent; each query's rows
-- compared with the local copy's (tab_l). When PostgreSQL raises an error
-- for the table, the foreign table must raise one with the same SQLSTATE
-- (err_state: PostgreSQL's). (diff_expr's form 'values', without messages:
-- sql/include/diff_expr.sql)
CREATE FUNCTION pf_one(e text, tab text DEFAULT 'pfs')
RETURNS TABLE (expr text, shipped boolean, same boolean, err_state text) LANGUAGE sql AS
$$ SELECT e, d.* FROM diff_expr(e, tab, 'values', false) d $$;

-- ==== strings
SELECT c.* FROM unnest(ARRAY[
  'split_part(t, '','', 2)', 'split_part(t, '','', -1)', 'split_part(t, '','', 5)',
  'split_part(t, '','', -4)', 'split_part(s, ''ñ'', 1)', 'split_part(t, ''テ'', 2)',
  'split_part(s, ''abc'', 1)', 'replace(t, '','', ''--'')', 'replace(s, ''b'', '''')',
  'replace(t, ''x'', ''Ü'')', 'replace(s, ''ö'', ''oe'')',
  'left(s, 2)', 'left(s, -2)', 'left(s, 0)', 'left(s, -100)', 'left(t, 100)',
  'right(s, 3)', 'right(s, -1)', 'right(s, 0)', 'right(t, 100)', 'right(t, -100)',
  'reverse(s)', 'reverse(t)', 'md5(s)', 'md5(t)',
  'btrim(t, ''x'')', 'ltrim(t, '' x'')', 'rtrim(t, ''x '')', 'btrim(t, '']^-'')',
  'btrim(s, ''a\'')', 'ltrim(s, ''abc'')', 'rtrim(t, ''c-^'')',
  'concat_ws('','', s, t)', 'concat_ws(''-'', s, ''lit'', t)', 'concat_ws('''', t, s)',
  'concat_ws('' | '', t)', 'starts_with(s, ''ab'')', 'strpos(t, '','')'
]) e, pf_val(e) c;

-- ==== double precision: sign, NaN order in GREATEST/LEAST, negation
SELECT c.* FROM unnest(ARRAY[
  'sign(f)', 'sign(g)', '-f', 'greatest(f, g)', 'least(f, g)', 'greatest(g, f)', 'least(g, f)',
  'greatest(f, 1.5)', 'least(f, g, 0)', 'greatest(f, g, 0, -1)', 'least(f::float8, i)',
  'abs(f)', 'ceil(g)', 'floor(f)', 'round(g)', 'trunc(f)'
]) e, pf_val(e) c;

-- ==== dates: days between dates, more fields
SELECT c.* FROM unnest(ARRAY[
  'd - ''2000-01-01''::date', 'd - d', '''2150-01-01''::date - d',
  'extract(century from d)', 'extract(decade from d)', 'extract(millennium from d)',
  'extract(epoch from d)', 'extract(julian from d)', 'extract(dow from d)', 'extract(isodow from d)',
  'extract(century from ts)', 'extract(decade from ts)', 'extract(millennium from ts)',
  'extract(year from ts)', 'date_part(''hour'', ts)'
]) e, pf_val(e) c;

-- ==== integers by constants (never raise)
SELECT c.* FROM unnest(ARRAY[
  'i / 7', 'j % 10', 'mod(i, 3)', 'mod(j, -7)', 'k / 2', 'i / -2', 'j / 3'
]) e, pf_val(e) c;

-- ==== arithmetic that raises: sent as a scan's one condition, values compared
SELECT c.* FROM unnest(ARRAY[
  'i + j', 'i - j', 'i * j', 'k + k', 'k * k', 'k - i', 'j * j', 'j + i', 'j - k',
  'i / j', 'i % j', 'j / k', 'k / k', 'mod(i, j)', 'mod(k, k)', 'abs(i)', 'abs(k)', '-j', '-i',
  'f + g', 'f - g', 'f * g', 'f / g', 'g / f', 'exp(g)', 'exp(f)', 'i * 1000 + j * (k - 1)',
  'f * 2 + g', '(i + 1) / (k + 1)', 'j::int', 'i::int2', 'j::int2', '(i * 0.5::float8)::int',
  '(i * 0.5::float8)::int8', '(k * 0.5::float8)::int2', 'g::int'
]) e, pf_one(e) c;

-- ... and their errors, with PostgreSQL's SQLSTATE (22003 out of range,
-- 22012 division by zero), on the extremes
SELECT c.* FROM unnest(ARRAY[
  'i + 1', 'j + 1', 'j - 1', 'i - 1', 'k + 1::int2', 'j * 2', 'i * i', 'k * k', 'j * j',
  '-i', '-j', '-k', 'abs(j)', 'abs(i)', 'i / 0', 'i / (i - i)', 'j % (k - k)', 'mod(i, i - i)',
  'i / -1', 'j / -1', 'k / (-1)::int2', 'f * g', 'g * g', 'f / g', 'f + f', 'g - f', 'exp(f)', 'exp(g)',
  'f / 0', 'g / (f - f)', 'j::int', 'i::int2', 'k::int2::int4', 'f::int', 'g::int8', 'g::int2'
]) e, pf_one(e, 'pf') c;

-- ==== what stays local, and why
-- (the function is missing on 18.16, ClickHouse answers differently, or a
-- PostgreSQL error has no ClickHouse exception error.c maps to its SQLSTATE)
SELECT c.* FROM unnest(ARRAY[
  'split_part(t, '''', 1)', 'split_part(t, s, 1)', 'replace(t, '''', ''x'')',
  'replace(t, s, ''x'')', 'left(s, i)', 'btrim(t, s)', 'btrim(t, ''ñ'')', 'ltrim(t, '''')',
  'lpad(s, 5)', 'rpad(s, 5, ''x'')', 'repeat(s, 2)', 'initcap(s)', 'concat_ws(t, s)',
  'sqrt(abs(f))', 'ln(abs(g))', 'log(abs(g))', 'cbrt(f)', 'sin(i)', 'atan(f)', 'power(abs(g), 0.5)',
  'greatest(f, g, 1, 2, 3)', 'extract(doy from d)', 'extract(second from ts)',
  'extract(dow from ts)', 'date_trunc(''month'', ts)', 'to_char(d, ''YYYY'')',
  'd + 1', 'nullif(s, s)::int',
  -- raising values where PostgreSQL may skip them: after AND (this check's
  -- own form), in CASE branches, after COALESCE's first argument
  'i + 1', 'f * g', 'CASE WHEN i > 0 THEN i + 1 ELSE 0 END', 'coalesce(i, j + 1)'
]) e, pf_val(e, 'pfs') c;
-- two conditions: PostgreSQL may skip the second for a row the first rejects
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pf WHERE i <> 0 AND 10 / i > 1;
SELECT id FROM pf WHERE i <> 0 AND 10 / i > 1 ORDER BY id;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pf WHERE i = 0 OR 10 / i > 1;
-- a query that may stop early (LIMIT, EXISTS, a cursor): PostgreSQL may never
-- reach the row that raises, so the condition stays local
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pf WHERE i + 1 > 0 LIMIT 1;
SELECT id FROM pf WHERE i + 1 > 0 LIMIT 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT 1 WHERE EXISTS (SELECT 1 FROM pf WHERE i + 1 > 0);
-- the one condition: sent, and ClickHouse raises PostgreSQL's error
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pf WHERE 10 / i > 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pfs WHERE j * 3 - i > 2;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pfs WHERE f / g > 2;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pf WHERE split_part(t, ',', -1) = 'c' AND left(s, -1) <> '';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pf WHERE greatest(f, g) > 1 AND least(f, g) < 1;
CREATE FUNCTION pf_plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    -- the plan's nodes and filters, and whether the Remote SQL has a
    -- run-time value ($1) and a raising guard
    RETURN NEXT CASE WHEN line LIKE '%Remote SQL%' THEN
      '  Remote SQL ' || CASE WHEN line LIKE '%$1%' THEN 'with $1' ELSE 'without $1' END ||
      CASE WHEN line LIKE '%chfdw-error:%' THEN ', guarded' ELSE '' END
      WHEN line LIKE '%Output:%' THEN NULL ELSE line END;
  END LOOP;
END $$;
-- a parameterized scan (one remote query per outer row): its join clause would
-- filter the rows the one condition raises for, so a raising condition is never
-- beside it (the scan is not parameterized then)
SELECT clickhouse_exec('ch_pf', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.pfb');
SELECT clickhouse_exec('ch_pf', 'CREATE TABLE ' || :'ch_db' || '.pfb (id UInt32, dim_id Int32, amount Int32) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_pf', 'INSERT INTO ' || :'ch_db' || '.pfb SELECT number, toInt32(number % 500), toInt32(number % 1000) FROM numbers(50000)');
CREATE FOREIGN TABLE pfb (id int, dim_id int, amount int) SERVER ch_pf OPTIONS (table 'pfb');
ANALYZE pfb;
CREATE TABLE pfb_local AS SELECT * FROM pfb;
ANALYZE pfb_local;
CREATE TABLE pf_dim AS SELECT g AS id, 'name' || g AS name FROM generate_series(1, 600) g;
ANALYZE pf_dim;
-- (the key join would send the keys as a batch instead: here the parameterized scan)
SET clickhouse_fdw.enable_key_join = off;
SELECT l FROM pf_plan('SELECT count(*) FROM pf_dim d JOIN pfb f ON f.dim_id = d.id WHERE d.name IN (''name5'', ''name42'') AND f.amount > 3') l WHERE l IS NOT NULL;
SELECT l FROM pf_plan('SELECT count(*) FROM pf_dim d JOIN pfb f ON f.dim_id = d.id WHERE d.name IN (''name5'', ''name42'') AND f.amount * 2 > 3') l WHERE l IS NOT NULL;
RESET clickhouse_fdw.enable_key_join;
SELECT count(*) FROM pf_dim d JOIN pfb f ON f.dim_id = d.id WHERE d.name IN ('name5', 'name42') AND f.amount * 2 > 3;
SELECT count(*) FROM pf_dim d JOIN pfb_local f ON f.dim_id = d.id WHERE d.name IN ('name5', 'name42') AND f.amount * 2 > 3;
DROP TABLE pfb_local, pf_dim;
-- a side of a pushed join: its one condition is evaluated for each of its rows
SELECT l FROM pf_plan('SELECT a.id FROM pfs a JOIN pfs b ON a.id = b.id WHERE a.i * 2 > 0') l WHERE l IS NOT NULL;
SELECT a.id FROM pfs a JOIN pfs b ON a.id = b.id WHERE a.i * 2 > 0 ORDER BY 1;
SELECT a.id FROM pfs_l a JOIN pfs_l b ON a.id = b.id WHERE a.i * 2 > 0 ORDER BY 1;
-- an aggregate over the one condition
SELECT count(*), sum(j) FROM pfs WHERE i * j > 0;
SELECT count(*), sum(j) FROM pfs_l WHERE i * j > 0;
SELECT l FROM pf_plan('SELECT count(*), sum(j) FROM pfs WHERE i * j > 0') l WHERE l IS NOT NULL;
-- a mutation's condition: not sent (ClickHouse would meet the error in the background)
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM pfs WHERE i * 2 > 1000;
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM pfs WHERE i > 1000;

-- ==== random differential: 200 calls nested up to two deep over pfs (NULLs,
-- NaN, +-Inf, empty strings, multibyte text), each compared with the local
-- copy in both forms (after AND: pf_val; the one condition: count of non-NULL)
CREATE FUNCTION pf_rand(ty text, depth int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  x float8 := random();
BEGIN
  IF depth = 0 OR x < 0.3 THEN
    RETURN CASE ty
      WHEN 'int' THEN (ARRAY['i', 'j', 'k', 'i', '3', '-2', 'length(s)'])[1 + floor(random() * 7)::int]
      WHEN 'float' THEN (ARRAY['f', 'g', 'f', '0.5::float8', '(-2)::float8'])[1 + floor(random() * 5)::int]
      ELSE (ARRAY['s', 't', 's', '''ab,c''', 'concat(t, s)'])[1 + floor(random() * 5)::int] END;
  END IF;
  IF ty = 'int' THEN
    RETURN format((ARRAY['(%1$s + %2$s)', '(%1$s - %2$s)', '(%1$s * %2$s)', '(%1$s / %2$s)',
                         '(%1$s %% %2$s)', 'abs(%1$s)', '(- %1$s)', '(%1$s / 3)', 'mod(%1$s, 4)',
                         'greatest(%1$s, %2$s)', 'strpos(%3$s, '','')', 'length(%3$s)', '%4$s::int',
                         '(%1$s)::int2'])[1 + floor(random() * 14)::int],
                  pf_rand('int', depth - 1), pf_rand('int', depth - 1), pf_rand('text', depth - 1),
                  pf_rand('float', depth - 1));
  ELSIF ty = 'float' THEN
    RETURN format((ARRAY['(%1$s + %2$s)', '(%1$s - %2$s)', '(%1$s * %2$s)', '(%1$s / %2$s)',
                         'sign(%1$s)', 'abs(%1$s)', 'greatest(%1$s, %2$s)', 'least(%1$s, %2$s)',
                         'floor(%1$s)', '(- %1$s)', '%3$s::float8', 'round(%1$s)'])[1 + floor(random() * 12)::int],
                  pf_rand('float', depth - 1), pf_rand('float', depth - 1), pf_rand('int', depth - 1));
  END IF;
  RETURN format((ARRAY['split_part(%1$s, '','', %3$s)', 'replace(%1$s, ''a'', ''Ü'')', 'left(%1$s, %3$s)',
                       'right(%1$s, %3$s)', 'reverse(%1$s)', 'md5(%1$s)', 'btrim(%1$s, '' ,x'')',
                       'concat_ws(''/'', %1$s, %2$s)', 'upper(%1$s COLLATE "C")', 'substr(%1$s, 2)',
                       'concat(%1$s, %2$s)', '(%1$s || %2$s)'])[1 + floor(random() * 12)::int],
                pf_rand('text', depth - 1), pf_rand('text', depth - 1),
                (ARRAY['1', '2', '-1', '3', '-2'])[1 + floor(random() * 5)::int]);
END $$;
SELECT setseed(0.17);
CREATE TEMP TABLE pf_exprs AS
  SELECT n, pf_rand((ARRAY['int', 'float', 'text'])[1 + n % 3], 2) AS e FROM generate_series(1, 200) n;
CREATE FUNCTION pf_count(e text, tab text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  c bigint;
BEGIN
  EXECUTE format('SELECT count(*) FROM %s WHERE (%s) IS NOT NULL', tab, e) INTO c;
  RETURN c::text;
EXCEPTION WHEN OTHERS THEN
  RETURN 'error ' || SQLSTATE;
END $$;
CREATE TEMP TABLE pf_results AS
  SELECT n, x.e, v.shipped AS shipped_and, v.same AS same_and,
         pf_count(x.e, 'pfs') AS remote_one, pf_count(x.e, 'pfs_l') AS local_one
  FROM pf_exprs x, LATERAL pf_val(x.e, 'pfs') v;
-- each form shipped how often, and every answer the same: the same count,
-- or an error from both (when different rows raise different errors, which
-- one comes first depends on the order rows and operands are evaluated in,
-- in PostgreSQL too: listed below)
SELECT count(*) AS calls, count(*) FILTER (WHERE shipped_and) AS shipped_after_and,
       count(*) FILTER (WHERE same_and) AS same_after_and,
       count(*) FILTER (WHERE remote_one = local_one) AS same_alone,
       count(*) FILTER (WHERE local_one !~ '^[0-9]+$') AS errors_alone
FROM pf_results;
SELECT n, e, same_and, remote_one, local_one FROM pf_results
WHERE NOT same_and OR (remote_one IS DISTINCT FROM local_one AND
                       (remote_one ~ '^[0-9]+$' OR local_one ~ '^[0-9]+$')) ORDER BY n;
SELECT n, e, remote_one, local_one FROM pf_results
WHERE remote_one <> local_one AND remote_one !~ '^[0-9]+$' AND local_one !~ '^[0-9]+$' ORDER BY n;
-- the single-condition form is sent for this many of them
CREATE FUNCTION pf_shipped_one(e text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE format('EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pfs WHERE (%s) IS NOT NULL', e) LOOP
    IF line LIKE '%Filter:%' THEN RETURN false; END IF;
  END LOOP;
  RETURN true;
END $$;
SELECT count(*) FILTER (WHERE pf_shipped_one(e)) AS shipped_alone FROM pf_exprs;

DROP TABLE pf_l, pfs_l;
