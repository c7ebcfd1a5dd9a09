-- ====================================================================
-- Body of pushdown_exprs.sql (ClickHouse 18.16) and modern_pushdown_exprs.sql
-- (the 26.5 engine behind test/chdb/front.py, a test harness, not a
-- server): expressions in WHERE (functions, CASE, GREATEST/LEAST, casts,
-- IS DISTINCT FROM, ILIKE, regular expressions, date parts in a time zone)
-- and ORDER BY/LIMIT over groups. Every condition runs on the foreign
-- table and on a local copy; pd_check says whether it was shipped and
-- whether both gave the same rows. The caller has created server ch_px and
-- set :ch_db.
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_px', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.px');
SELECT clickhouse_exec('ch_px', 'CREATE TABLE ' || :'ch_db' || '.px (id Int32, i Nullable(Int32), j Nullable(Int64), s Nullable(String), t Nullable(String), f Nullable(Float64), d Nullable(Date), ts Nullable(DateTime(''UTC'')), g Nullable(Int32)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_px', 'INSERT INTO ' || :'ch_db' || '.px VALUES
  (1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1),
  (2, 0, 0, '''', '''', 0, ''1970-01-01'', ''1970-01-01 00:00:00'', 1),
  (3, 7, 7, ''abc'', ''ABC'', 2.5, ''2019-01-02'', ''2019-01-02 03:04:05'', 1),
  (4, -7, -9223372036854775808, ''  Abc  '', ''abc'', -2.5, ''2020-02-29'', ''2020-03-29 00:30:00'', 2),
  (5, 2147483647, 9223372036854775807, ''Üñí'', ''üñí'', 0.5, ''2021-12-31'', ''2021-12-31 23:59:59'', 2),
  (6, -2147483648, 42, ''a_c'', ''a%c'', nan, ''2022-01-03'', ''2022-01-03 23:30:00'', 2),
  (7, 3, NULL, ''line1
line2'', ''x.y'', inf, ''2023-06-18'', ''2023-10-29 00:59:59'', 3),
  (8, NULL, 5, ''hello world'', NULL, -inf, NULL, ''2024-01-01 00:00:00'', 3),
  (9, 100, -1, ''ABC def'', ''abc DEF'', 1.5, ''2024-02-29'', ''2024-02-29 12:00:00'', 3),
  (10, 5, 5, ''12345'', ''x\\\\y'', -0.5, ''2105-12-31'', ''2105-12-31 00:00:00'', NULL)');
CREATE FOREIGN TABLE px (id int, i int, j bigint, s text, t text, f float8, d date,
  ts timestamptz, g int) SERVER ch_px OPTIONS (table 'px');
CREATE TABLE px_local AS SELECT * FROM px;

\i sql/include/pushdown_check.sql

-- ==== IS [NOT] DISTINCT FROM, CASE, GREATEST/LEAST, widening casts
SELECT c.* FROM unnest(ARRAY[
  'i IS DISTINCT FROM 7', 'i IS NOT DISTINCT FROM 7', 'i IS DISTINCT FROM j',
  'i IS NOT DISTINCT FROM j', 'NOT (i IS DISTINCT FROM j) OR id = 1', 's IS DISTINCT FROM t',
  'CASE WHEN i > 5 THEN 1 WHEN i < 0 THEN -1 ELSE 0 END = 0',
  'CASE WHEN i > 5 THEN 1 WHEN i < 0 THEN -1 END IS NULL',
  'CASE WHEN s LIKE ''a%'' THEN t ELSE s END = ''a%c''',
  'CASE WHEN NOT (i > 0) THEN ''neg'' ELSE ''pos'' END = ''pos''',
  'greatest(i, j) > 6', 'least(i, j) < 0', 'greatest(i, j) IS NULL', 'least(i, 3, j) = 3',
  'greatest(d, ''2020-01-01'') = ''2020-01-01''', 'least(ts, ''2020-01-01 00:00:00+00'') < ''2000-01-01 00:00:00+00''',
  'i::bigint > 2147483646', 'i::float8 > 6.5', 'j::float8 < 0', 'i::int8 = j'
]) p, pd_check(p, 'px', 'px_local') c;

-- ==== x op ANY / ALL (ARRAY[columns, ...]): the OR / AND of the comparisons (the same
-- three-valued answer); regexp_like(s, p) as s ~ p. A NULL element stays local.
SELECT c.* FROM unnest(ARRAY[
  'i = ANY(ARRAY[j, 5])', 'j = ANY(ARRAY[i::bigint, g])', 'i <> ALL(ARRAY[j, 3])',
  'NOT (i = ANY(ARRAY[j, g]))', 'NOT (i <> ALL(ARRAY[j, g])) OR id = 8',
  's = ANY(ARRAY[t, ''12345''])', 'd = ANY(ARRAY[''2024-02-29''::date, d])',
  'i < ANY(ARRAY[j, g])', 'i >= ALL(ARRAY[j, g])', 'i = ANY(ARRAY[j])',
  'i = ANY(ARRAY[j, NULL])',
  'regexp_like(s, ''^a.c$'')', 'NOT regexp_like(s, ''b'')', 'regexp_like(s, ''line1.line2'')',
  'regexp_like(t, ''x\.y'') OR regexp_like(s, ''^1'')'
]) p, pd_check(p, 'px', 'px_local') c;

-- ==== string functions: ASCII case mapping under C only, characters in UTF-8
SELECT c.* FROM unnest(ARRAY[
  'lower(s COLLATE "C") = ''abc''', 'upper(t COLLATE "C") = ''ABC''', 'lower(s) = ''abc''',
  'upper(s COLLATE "C") = ''ÜÑÍ''', 'lower(t COLLATE "C") = ''üñí''',
  'length(s) = 3', 'char_length(s) > 7', 'octet_length(s) = 6', 'length(s) = 0',
  'substr(s, 2) = ''bc''', 'substr(s, 2, 1) = ''ñ''', 'substring(s from 1 for 2) = ''ab''',
  'substr(s, 0, 2) = ''a''', 'substr(s, 5, 0) = ''''', 'substr(s, 100) = ''''',
  'strpos(s, ''c'') = 3', 'position(''í'' in s) = 3', 'strpos(s, '''') = 1', 'position(''zz'' in s) = 0',
  'starts_with(s, ''ab'')', 'NOT starts_with(s, ''ab'')', 's || t = ''abcABC''', 's || ''!'' = ''a_c!''',
  'btrim(s) = ''Abc''', 'ltrim(s) = ''Abc  ''', 'rtrim(s) = ''  Abc''', 'btrim(s, '' A'') = ''bc'''
]) p, pd_check(p, 'px', 'px_local') c;

-- concat() skips NULLs (never NULL itself); division by zero or by a column is
-- sent only as a scan's one condition, where ClickHouse raises PostgreSQL's
-- division_by_zero (sql/include/pushdown_functions.sql), not under OR
SELECT c.* FROM unnest(ARRAY[
  'concat(s, t) = ''abcABC''', 'concat(s, ''-'', t) = ''hello world-''', 'concat(t) = ''''',
  'concat(s, t) IS NULL'
]) p, pd_check(p, 'px', 'px_local') c;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM px WHERE concat(s, '-', t) = 'a';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM px WHERE i / 0 = 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM px WHERE i / j = 1 OR i % 0 = 1;

-- numeric constants with fractions or beyond 64 bits: Decimal128 literals; integer
-- to numeric casts as toDecimal128(x, 0)
SELECT c.* FROM unnest(ARRAY[
  'i > 2.5', 'i >= -7.0', 'i < -7.000001', 'i::numeric = 7', 'j > 9223372036854775806.5',
  'j < -9223372036854775807.99', 'j = 42.00', 'j::numeric / 2 = 21', 'i IN (7.0, 5)',
  'i > 1e40', 'i > 12345678901234567890123456789.123456789'
]) p, pd_check(p, 'px', 'px_local') c;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM px WHERE i > 2.5 AND j < -9223372036854775807.99;

-- casts: timestamptz to date in the session's zone, integers to text
SELECT c.* FROM unnest(ARRAY[
  'ts::date = ''2020-03-29''', 'ts::date >= ''2024-01-01''', 'i::text = ''7''', 'j::text LIKE ''-%''',
  'i::text || ''x'' = ''-7x'''
]) p, pd_check(p, 'px', 'px_local') c;

-- ==== LIKE, ILIKE (under C: ASCII case folding), regular expressions
SELECT c.* FROM unnest(ARRAY[
  's ILIKE ''abc%''', 's COLLATE "C" ILIKE ''abc%''', 's COLLATE "C" NOT ILIKE ''%C%''',
  't COLLATE "C" ILIKE ''ÜÑÍ''', 't COLLATE "C" ILIKE ''a\%c''', 'lower(s COLLATE "C") LIKE ''%d%''',
  's ~ ''^a''', 's ~ ''c$''', 's !~ ''^a''', 's ~ ''b.''', 's ~ ''line1.line2''', 's ~ ''^...$''',
  's ~ ''[0-9]+''', 's ~ ''^[^a-z]+$''', 's ~ ''(wor|de)''', 't ~ ''x\.y''', 't ~ ''x.y''',
  's ~ ''\d''', 's COLLATE "C" ~ ''\d{3}''', 's COLLATE "C" ~ ''\w+ \w+''', 's ~* ''abc''',
  's ~ ''^(a|b)?c''', 's ~ ''b*c''', 's ~ ''(?i)abc'''
]) p, pd_check(p, 'px', 'px_local') c;

-- ==== math on double precision: round() is half to even in both
SELECT c.* FROM unnest(ARRAY[
  'abs(f) = 2.5', 'floor(f) = -3', 'ceil(f) = 3', 'ceiling(f) = -2', 'round(f) = 2', 'round(f) = -2',
  'round(f) = 0', 'trunc(f) = -2', 'floor(f) > 1', 'abs(f) < 1', 'round(f) > 1e308'
]) p, pd_check(p, 'px', 'px_local') c;

-- ==== date parts (dates; timestamptz under UTC); date_trunc, timestamptz::date
-- stay local; dow, second, epoch of a timestamptz column are sent (dates suite)
SELECT c.* FROM unnest(ARRAY[
  'extract(year from d) = 2020', 'extract(month from d) = 2', 'extract(day from d) = 29',
  'extract(dow from d) = 0', 'extract(isodow from d) = 7', 'extract(doy from d) = 60',
  'extract(quarter from d) = 4', 'extract(week from d) = 1', 'extract(isoyear from d) = 2021',
  'extract(year from ts) = 2019', 'extract(hour from ts) = 23', 'date_part(''minute'', ts) = 30',
  'extract(dow from ts) = 1', 'extract(second from ts) = 5', 'extract(epoch from ts) > 0',
  'date_trunc(''day'', ts) = ''2022-01-03 00:00:00+00''', 'date_trunc(''month'', ts) = ''2020-03-01 00:00:00+00''',
  'date_trunc(''year'', ts) >= ''2021-01-01 00:00:00+00''', 'date_trunc(''hour'', ts) = ''2023-10-29 00:00:00+00''',
  'date_trunc(''week'', ts) = ''2021-12-27 00:00:00+00''', 'date_trunc(''quarter'', ts) = ''2019-01-01 00:00:00+00'''
]) p, pd_check(p, 'px', 'px_local') c;
-- other zones: computed locally. Near 1970 a DateTime's local time or its
-- truncation falls before the epoch, which ClickHouse cannot represent (id 2 is
-- 1970-01-01 00:00:00 UTC: 1969-12-31 in New York, date_trunc('day') in Berlin is
-- 1969-12-31 23:00 UTC)
SET timezone = 'Europe/Berlin';
SELECT c.* FROM unnest(ARRAY[
  'extract(hour from ts) = 1', 'extract(day from ts) = 1', 'extract(year from ts) = 2022',
  'date_trunc(''day'', ts) = ''2022-01-04 00:00:00+01''', 'date_trunc(''hour'', ts) = ''2023-10-29 02:00:00+01''',
  'date_trunc(''hour'', ts) = ''2023-10-29 02:00:00+02''', 'date_trunc(''month'', ts) = ''2020-03-01 00:00:00+01''',
  'date_trunc(''day'', ts) = ''2020-03-29 00:00:00+01''', 'date_trunc(''month'', ts)::date = ''1970-01-01''',
  'ts::date = ''2020-03-29''', 'ts::date = ''2022-01-04''', 'extract(year from d) = 2020'
]) p, pd_check(p, 'px', 'px_local') c;
SET timezone = 'America/New_York';
SELECT c.* FROM unnest(ARRAY['extract(year from ts) = 1969', 'extract(hour from ts) = 19', 'ts::date = ''1969-12-31''']) p,
  pd_check(p, 'px', 'px_local') c;
-- an alias of UTC is UTC
SET timezone = 'Etc/UTC';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM px WHERE extract(month from ts) = 3
  AND extract(hour from ts) = 0 AND extract(dow from d) = 0;
-- a plan made for one zone does not run under another
SET timezone = 'UTC';
PREPARE px_hour AS SELECT id FROM px WHERE extract(hour from ts) = 23 ORDER BY id;
EXECUTE px_hour;
SET timezone = 'America/New_York';
EXECUTE px_hour;
DISCARD PLANS;
EXECUTE px_hour;
DEALLOCATE px_hour;
SET timezone = 'UTC';

-- ==== run-time values: now(), current_date, parameters, timestamps with
-- microseconds; PostgreSQL computes them when the query starts and writes
-- them into the SQL (EXPLAIN shows $n)
SELECT c.* FROM unnest(ARRAY[
  'ts < now()', 'ts > now() - interval ''30 years''', 'd <= current_date', 'd > current_date - 20000',
  'ts < current_timestamp', 'date_trunc(''day'', ts) < now()',
  'ts > ''2019-01-02 03:04:04.5+00''', 'ts >= ''2019-01-02 03:04:05.000001+00''',
  'ts = ''2019-01-02 03:04:05.5+00''', 'ts <> ''2019-01-02 03:04:05.5+00''',
  'ts < ''1969-12-31 23:59:59.5+00''', 'ts > ''1969-12-31 23:59:59.5+00''',
  'ts <= ''2105-12-31 00:00:00.25+00''', 's = current_user', 'id <= (SELECT 3)'
]) p, pd_check(p, 'px', 'px_local') c;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM px WHERE ts > now() - interval '1 day' AND d >= current_date - 7;
-- a date ClickHouse cannot hold (18.16: before 1970; 26.5: before 1900)
\set VERBOSITY terse
SELECT count(*) FROM px WHERE d > current_date - 100000;
\set VERBOSITY default
PREPARE px_p(int, text) AS SELECT id FROM px WHERE i > $1 AND s <> $2 ORDER BY id;
EXECUTE px_p(0, 'abc'); EXECUTE px_p(1, 'abc'); EXECUTE px_p(2, 'abc');
EXECUTE px_p(3, 'abc'); EXECUTE px_p(4, 'abc'); EXECUTE px_p(5, 'x');
EXECUTE px_p(6, 'x');
EXECUTE px_p(NULL, 'x');
EXPLAIN (VERBOSE, COSTS OFF) EXECUTE px_p(6, 'x');
DEALLOCATE px_p;
-- a correlated subquery: the value changes, the query is sent again
SELECT o.n, (SELECT count(*) FROM px WHERE px.id <= o.n) FROM generate_series(0, 10, 5) o(n);

-- ==== text_sorts_as_bytes: the user declares that the collation sorts text by
-- bytes as ClickHouse does (C.UTF-8 here: code points), so ordering is sent
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM px WHERE s < 'b' ORDER BY s LIMIT 2;
ALTER FOREIGN TABLE px OPTIONS (ADD text_sorts_as_bytes 'on');
SELECT c.* FROM unnest(ARRAY['s < ''b''', 's >= ''a_c''', 'NOT (s > t)', 's < ''Ü''']) p, pd_check(p, 'px', 'px_local') c;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM px WHERE s < 'b' ORDER BY s LIMIT 2;
SELECT id, s FROM px ORDER BY s NULLS FIRST, id LIMIT 4;
SELECT id, s FROM px_local ORDER BY s NULLS FIRST, id LIMIT 4;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, max(s), min(t) FROM px GROUP BY g;
SELECT g, max(s), min(t) FROM px GROUP BY g ORDER BY g;
SELECT g, max(s), min(t) FROM px_local GROUP BY g ORDER BY g;
ALTER FOREIGN TABLE px OPTIONS (DROP text_sorts_as_bytes);

-- EXPLAIN ANALYZE names the ClickHouse query id (system.query_log) and, with
-- VERBOSE, the SQL as sent with its run-time values (ids masked here)
CREATE FUNCTION px_explain_analyze(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    RETURN NEXT regexp_replace(line, 'chfdw-[0-9]+-[0-9]+-[0-9]+', 'chfdw-<pid>-<time>-<n>');
  END LOOP;
END $$;
SELECT px_explain_analyze('SELECT id FROM px WHERE ts > ''2019-01-02 03:04:04.5+00'' AND i > 0');
SELECT px_explain_analyze('SELECT g, count(*) FROM px GROUP BY g');
DROP FUNCTION px_explain_analyze(text);

-- ==== joins with local tables: a parameterized scan per outer row (the outer
-- value written into the remote SQL) when few outer rows are expected (the
-- key join, which would send the keys in one query, is off here: key_join.sql)
SET clickhouse_fdw.enable_key_join = off;
SELECT clickhouse_exec('ch_px', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.pxf');
SELECT clickhouse_exec('ch_px', 'CREATE TABLE ' || :'ch_db' || '.pxf (id UInt32, dim_id Nullable(Int32), tag String, amount Float64) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_px', 'INSERT INTO ' || :'ch_db' || '.pxf SELECT number, if(number % 97 = 0, NULL, toInt32(number % 500)), concat(''t'', toString(number % 7)), number / 4 FROM numbers(50000)');
CREATE FOREIGN TABLE pxf (id int, dim_id int, tag text, amount float8) SERVER ch_px OPTIONS (table 'pxf');
ANALYZE pxf;
CREATE TABLE pxf_local AS SELECT * FROM pxf;
ANALYZE pxf_local;
CREATE TABLE pxd AS SELECT g AS id, 'name' || g AS name, 't' || (g % 7) AS tag FROM generate_series(-5, 599) g;
ANALYZE pxd;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT d.name, count(*), sum(f.amount) FROM pxd d JOIN pxf f ON f.dim_id = d.id
  WHERE d.name IN ('name5', 'name42', 'name-3') GROUP BY d.name;
SELECT d.name, count(*), sum(f.amount) FROM pxd d JOIN pxf f ON f.dim_id = d.id
  WHERE d.name IN ('name5', 'name42', 'name-3') GROUP BY d.name ORDER BY 1;
SELECT d.name, count(*), sum(f.amount) FROM pxd d JOIN pxf_local f ON f.dim_id = d.id
  WHERE d.name IN ('name5', 'name42', 'name-3') GROUP BY d.name ORDER BY 1;
-- a text key, and (floatparam) a float compared with a value of the outer
-- row, sent too (if(isNaN($3), ...): before, a local Filter)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT d.id, f.id FROM pxd d JOIN pxf f ON f.tag = d.tag AND f.dim_id = d.id AND f.amount > d.id
  WHERE d.id IN (3, 10);
SELECT d.id, count(*), min(f.id) FROM pxd d JOIN pxf f ON f.tag = d.tag AND f.dim_id = d.id AND f.amount > d.id
  WHERE d.id IN (3, 10) GROUP BY d.id ORDER BY 1;
SELECT d.id, count(*), min(f.id) FROM pxd d JOIN pxf_local f ON f.tag = d.tag AND f.dim_id = d.id AND f.amount > d.id
  WHERE d.id IN (3, 10) GROUP BY d.id ORDER BY 1;
SELECT d.id, count(f.id), max(f.id) FROM pxd d LEFT JOIN pxf f ON f.dim_id = d.id AND f.amount <= d.id * 2.5e2
  WHERE d.id IN (-2, 7, 40) GROUP BY d.id ORDER BY 1;
SELECT d.id, count(f.id), max(f.id) FROM pxd d LEFT JOIN pxf_local f ON f.dim_id = d.id AND f.amount <= d.id * 2.5e2
  WHERE d.id IN (-2, 7, 40) GROUP BY d.id ORDER BY 1;
-- LEFT JOIN: outer rows without matches (and NULL keys) keep their NULLs
SELECT d.id, count(f.id) FROM pxd d LEFT JOIN pxf f ON f.dim_id = d.id WHERE d.id IN (-2, 7) GROUP BY d.id ORDER BY 1;
SELECT d.id, count(f.id) FROM pxd d LEFT JOIN pxf_local f ON f.dim_id = d.id WHERE d.id IN (-2, 7) GROUP BY d.id ORDER BY 1;
-- many outer rows: one scan and a hash join
EXPLAIN (COSTS OFF) SELECT count(*) FROM pxd d JOIN pxf f ON f.dim_id = d.id;
SELECT count(*) FROM pxd d JOIN pxf f ON f.dim_id = d.id;
SELECT count(*) FROM pxd d JOIN pxf_local f ON f.dim_id = d.id;
RESET clickhouse_fdw.enable_key_join;
DROP TABLE pxd;
DROP TABLE pxf_local;

-- ==== random conditions (fixed seed): each run on the foreign table and on the
-- local copy; any difference in rows (or an error on one side only) is listed
CREATE FUNCTION px_rand_atom() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  ints text[] := ARRAY['i', 'j', 'g', 'id', 'coalesce(i, 3)', 'greatest(i, j)', 'least(i, g)',
    'i % 3', 'j / 2', 'length(s)', 'strpos(s, ''b'')', 'extract(year from ts)', 'extract(dow from d)',
    'nullif(i, 7)', 'CASE WHEN i > 0 THEN j ELSE g END', 'i::bigint', 'octet_length(t)',
    'date_part(''hour'', ts)', 'extract(month from d)'];
  txts text[] := ARRAY['s', 't', 'lower(s COLLATE "C")', 'upper(t COLLATE "C")', 'substr(s, 2)',
    'substr(t, 1, 2)', 's || t', 'concat(s, ''-'', t)', 'btrim(s)', 'coalesce(s, t)', 'i::text',
    'CASE WHEN g = 1 THEN s END', 'nullif(t, '''')'];
  tconsts text[] := ARRAY['''abc''', '''''', '''ABC''', '''a%c''', '''üñí''', '''x.y''', '''bc''', '''7'''];
  r float := random();
BEGIN
  IF r < 0.35 THEN
    RETURN ints[1 + floor(random() * array_length(ints, 1))::int] || ' ' ||
      (ARRAY['=', '<>', '<', '>', '<=', '>='])[1 + floor(random() * 6)::int] || ' ' ||
      (floor(random() * 20) - 8)::int;
  ELSIF r < 0.55 THEN
    RETURN txts[1 + floor(random() * array_length(txts, 1))::int] || ' ' ||
      (ARRAY['=', '<>', 'LIKE', 'NOT LIKE', 'ILIKE', '~', 'IS DISTINCT FROM'])[1 + floor(random() * 7)::int] || ' ' ||
      tconsts[1 + floor(random() * array_length(tconsts, 1))::int];
  ELSIF r < 0.65 THEN
    RETURN (ARRAY['i', 's', 'f', 'd', 'ts', 'j', 'lower(s COLLATE "C")', 'greatest(i, j)'])[1 + floor(random() * 8)::int] ||
      (ARRAY[' IS NULL', ' IS NOT NULL'])[1 + floor(random() * 2)::int];
  ELSIF r < 0.75 THEN
    RETURN (ARRAY['f', 'round(f)', 'abs(f)', 'floor(f)', 'ceil(f)', 'trunc(f)'])[1 + floor(random() * 6)::int] || ' ' ||
      (ARRAY['=', '<', '>', '>=', '<>'])[1 + floor(random() * 5)::int] || ' ' ||
      (ARRAY['0', '2', '-2', '0.5', '-0.5', '2.5', '''NaN''::float8', '''Infinity''::float8'])[1 + floor(random() * 8)::int];
  ELSIF r < 0.85 THEN
    RETURN (ARRAY['d', 'ts::date', 'date_trunc(''month'', ts)::date'])[1 + floor(random() * 3)::int] || ' ' ||
      (ARRAY['=', '<', '>='])[1 + floor(random() * 3)::int] || ' ' ||
      (ARRAY['''2020-02-29''', '''2019-01-02''', '''1970-01-01''', '''2024-02-01''', '''2105-12-31'''])[1 + floor(random() * 5)::int];
  ELSIF r < 0.93 THEN
    RETURN (ARRAY['i', 'j', 'g'])[1 + floor(random() * 3)::int] ||
      (ARRAY[' IN (0, 7, -7, 5)', ' NOT IN (3, 100)', ' IS DISTINCT FROM j', ' IS NOT DISTINCT FROM g'])[1 + floor(random() * 4)::int];
  ELSE
    RETURN (ARRAY['starts_with(s, ''a'')', 'starts_with(t, ''x'')', 'ts > ''2019-01-02 03:04:04.5+00''',
      'ts < now()', 'd <= current_date'])[1 + floor(random() * 5)::int];
  END IF;
END $$;
CREATE FUNCTION px_rand_cond(depth int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  r float := random();
BEGIN
  IF depth <= 0 OR r < 0.4 THEN
    RETURN px_rand_atom();
  ELSIF r < 0.6 THEN
    RETURN 'NOT (' || px_rand_cond(depth - 1) || ')';
  ELSIF r < 0.8 THEN
    RETURN '(' || px_rand_cond(depth - 1) || ' AND ' || px_rand_cond(depth - 1) || ')';
  ELSE
    RETURN '(' || px_rand_cond(depth - 1) || ' OR ' || px_rand_cond(depth - 1) || ')';
  END IF;
END $$;
CREATE FUNCTION px_rand_run(n int, seed float8, OUT conditions int, OUT shipped int, OUT mismatches text[])
LANGUAGE plpgsql AS $$
DECLARE
  cond text;
  r text;
  l text;
  plan text;
  line text;
BEGIN
  conditions := 0; shipped := 0; mismatches := '{}';
  PERFORM setseed(seed);
  FOR k IN 1..n LOOP
    cond := px_rand_cond(3);
    BEGIN
      EXECUTE format('SELECT string_agg(id::text, '','' ORDER BY id) FROM px WHERE %s', cond) INTO r;
    EXCEPTION WHEN OTHERS THEN r := 'ERROR';
    END;
    BEGIN
      EXECUTE format('SELECT string_agg(id::text, '','' ORDER BY id) FROM px_local WHERE %s', cond) INTO l;
    EXCEPTION WHEN OTHERS THEN l := 'ERROR';
    END;
    plan := '';
    FOR line IN EXECUTE format('EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM px WHERE %s', cond) LOOP
      plan := plan || line;
    END LOOP;
    conditions := conditions + 1;
    IF plan LIKE '%WHERE%' THEN shipped := shipped + 1; END IF;
    IF r IS DISTINCT FROM l THEN
      mismatches := mismatches || (cond || ' -> foreign ' || coalesce(r, 'none') || ', local ' || coalesce(l, 'none'));
    END IF;
  END LOOP;
END $$;
SELECT conditions, shipped > conditions / 2 AS most_shipped, mismatches FROM px_rand_run(400, 0.4242);
DROP FUNCTION px_rand_run(int, float8);
DROP FUNCTION px_rand_cond(int);
DROP FUNCTION px_rand_atom();

-- ==== the SQL sent
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM px WHERE i IS DISTINCT FROM j AND
  CASE WHEN i > 5 THEN 'big' ELSE s END = 'abc' AND greatest(i, j) > 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM px WHERE s COLLATE "C" ILIKE 'A%' OR s ~ '^x\.y'
  OR substr(s, 2, 3) = 'bc' OR lower(t COLLATE "C") = 'abc' OR s || t = 'ab';
-- hostile pattern and literal text stays inside its literal
SELECT c.* FROM unnest(ARRAY[
  's ~ ''x''''; DROP TABLE px; --''', 's COLLATE "C" ILIKE ''%\''''%''', 'strpos(t, ''\'') > 0',
  's = E''\x01''', 's = E''1\x012'' OR s = E''\n''', 's = E''line1\nline2'''
]) p, pd_check(p, 'px', 'px_local') c;

-- ==== ORDER BY of aggregates and LIMIT over groups (top-N by ClickHouse)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT d, count(*), sum(j) FROM px GROUP BY d ORDER BY sum(j) DESC NULLS LAST, d LIMIT 3;
SELECT d, count(*), sum(j) FROM px GROUP BY d ORDER BY sum(j) DESC NULLS LAST, d LIMIT 3;
SELECT d, count(*), sum(j) FROM px_local GROUP BY d ORDER BY sum(j) DESC NULLS LAST, d LIMIT 3;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT s COLLATE "C", max(i) FROM px GROUP BY s ORDER BY max(i) NULLS FIRST, 1 LIMIT 4 OFFSET 2;
SELECT s COLLATE "C", max(i) FROM px GROUP BY s ORDER BY max(i) NULLS FIRST, 1 LIMIT 4 OFFSET 2;
SELECT s COLLATE "C", max(i) FROM px_local GROUP BY s ORDER BY max(i) NULLS FIRST, 1 LIMIT 4 OFFSET 2;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT d, count(*) FROM px GROUP BY d HAVING count(*) > 0 ORDER BY count(*) DESC, d LIMIT 2;
SELECT d, count(*) FROM px GROUP BY d HAVING count(*) > 0 ORDER BY count(*) DESC, d LIMIT 2;
SELECT d, count(*) FROM px_local GROUP BY d HAVING count(*) > 0 ORDER BY count(*) DESC, d LIMIT 2;
-- sum of a double: sorted by ClickHouse with NaN above every number (as PostgreSQL)
EXPLAIN (VERBOSE, COSTS OFF) SELECT d, sum(f) FROM px GROUP BY d ORDER BY 2 LIMIT 2;
SELECT g, sum(f) FROM px GROUP BY g ORDER BY 2 DESC, 1 LIMIT 3;
SELECT g, sum(f) FROM px_local GROUP BY g ORDER BY 2 DESC, 1 LIMIT 3;

-- ==== ORDER BY a float column [DESC] [NULLS ...] LIMIT n: top-N by ClickHouse
-- with PostgreSQL's order (NaN above every number, NULLs where asked); each
-- order compared with the local copy, and checked to be sent
CREATE FUNCTION px_float_order(o text) RETURNS TABLE (ord text, sent boolean, same boolean, ids int[])
LANGUAGE plpgsql AS $$
DECLARE
  r int[];
  l int[];
  plan text := '';
  line text;
BEGIN
  EXECUTE format('SELECT array_agg(id) FROM (SELECT id FROM px ORDER BY %s, id LIMIT 5) q', o) INTO r;
  EXECUTE format('SELECT array_agg(id) FROM (SELECT id FROM px_local ORDER BY %s, id LIMIT 5) q', o) INTO l;
  FOR line IN EXECUTE format('EXPLAIN (VERBOSE, COSTS OFF) SELECT id, f FROM px ORDER BY %s LIMIT 5', o) LOOP
    plan := plan || line || E'\n';
  END LOOP;
  RETURN QUERY SELECT o, plan NOT LIKE '%Sort%' AND plan LIKE '%LIMIT 5%', r IS NOT DISTINCT FROM l, r;
END $$;
SELECT c.* FROM unnest(ARRAY['f', 'f DESC', 'f NULLS FIRST', 'f DESC NULLS LAST', 'f ASC NULLS LAST',
  'f DESC NULLS FIRST', 'f::float4', 'f::float4 DESC']) x, px_float_order(x) c;
DROP FUNCTION px_float_order(text);
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, f FROM px ORDER BY f DESC LIMIT 5;
SELECT id, f FROM px ORDER BY f DESC NULLS LAST LIMIT 5;
SELECT id, f FROM px_local ORDER BY f DESC NULLS LAST LIMIT 5;
-- LIMIT over groups without ORDER BY
EXPLAIN (VERBOSE, COSTS OFF) SELECT d FROM px GROUP BY d LIMIT 1;
SELECT count(*) FROM (SELECT d FROM px GROUP BY d LIMIT 3) q;

-- ==== avg, variance families, string_agg; expressions over aggregates
-- avg of integers is numeric in PostgreSQL: ClickHouse sends the exact sum and
-- count, PostgreSQL divides (its result scale)
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT g, avg(i), avg(j), avg(f), avg(i) FILTER (WHERE i > 0) FROM px GROUP BY g;
SELECT g, avg(i), avg(j), avg(f), avg(i) FILTER (WHERE i > 0) FROM px GROUP BY g ORDER BY g;
SELECT g, avg(i), avg(j), avg(f), avg(i) FILTER (WHERE i > 0) FROM px_local GROUP BY g ORDER BY g;
SELECT avg(i), avg(j), avg(id) FROM px WHERE id > 100;
SELECT avg(i), avg(j), avg(id) FROM px;
SELECT avg(i), avg(j), avg(id) FROM px_local;
-- avg of integers is not sent where ClickHouse would compare or sort it: such a
-- HAVING clause filters the groups in PostgreSQL, the others are sent
EXPLAIN (VERBOSE, COSTS OFF) SELECT g FROM px GROUP BY g HAVING avg(i) > 3;
SELECT g FROM px GROUP BY g HAVING avg(i) > 3 ORDER BY g;
SELECT g FROM px_local GROUP BY g HAVING avg(i) > 3 ORDER BY g;
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT g, count(*) FROM px GROUP BY g HAVING count(*) > 1 AND avg(i) < 10 ORDER BY count(*) DESC LIMIT 1;
SELECT g, count(*) FROM px GROUP BY g HAVING count(*) > 1 AND avg(i) < 10 ORDER BY count(*) DESC, g LIMIT 1;
SELECT g, count(*) FROM px_local GROUP BY g HAVING count(*) > 1 AND avg(i) < 10 ORDER BY count(*) DESC, g LIMIT 1;
SELECT g FROM px GROUP BY g HAVING max(s) COLLATE "C" > 'b' OR sum(j) IS NULL ORDER BY g;
SELECT g FROM px_local GROUP BY g HAVING max(s) COLLATE "C" > 'b' OR sum(j) IS NULL ORDER BY g;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, avg(i) FROM px GROUP BY g ORDER BY avg(i) LIMIT 1;
-- float variance: NULL below two rows (samples) or none (population); the
-- summation order may differ in the last bits, as in a parallel plan
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT g, stddev(f), var_pop(f) FROM px WHERE f > -100 AND f < 100 GROUP BY g;
SELECT g, round(stddev(f)::numeric, 12), round(stddev_samp(f)::numeric, 12), round(stddev_pop(f)::numeric, 12),
  round(variance(f)::numeric, 12), round(var_samp(f)::numeric, 12), round(var_pop(f)::numeric, 12)
  FROM px WHERE f > -100 AND f < 100 GROUP BY g ORDER BY g;
SELECT g, round(stddev(f)::numeric, 12), round(stddev_samp(f)::numeric, 12), round(stddev_pop(f)::numeric, 12),
  round(variance(f)::numeric, 12), round(var_samp(f)::numeric, 12), round(var_pop(f)::numeric, 12)
  FROM px_local WHERE f > -100 AND f < 100 GROUP BY g ORDER BY g;
-- variance/stddev of smallint and integer: numeric in PostgreSQL; ClickHouse sends
-- the exact count, sum and sum of squares, PostgreSQL finishes with its own arithmetic
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, variance(i), stddev_pop(i) FILTER (WHERE i > 0) FROM px GROUP BY g;
SELECT g, variance(i), var_pop(i), stddev(i), stddev_pop(i), var_samp(i) FILTER (WHERE i > 0),
  stddev_samp(id) FROM px GROUP BY g ORDER BY g;
SELECT g, variance(i), var_pop(i), stddev(i), stddev_pop(i), var_samp(i) FILTER (WHERE i > 0),
  stddev_samp(id) FROM px_local GROUP BY g ORDER BY g;
SELECT variance(i), stddev(i), stddev_pop(id), variance(id) FROM px;
SELECT variance(i), stddev(i), stddev_pop(id), variance(id) FROM px_local;
SELECT variance(i), stddev_pop(i) FROM px WHERE id > 100;
-- NaN and infinities
SELECT g, stddev(f), var_pop(f), var_samp(f) FILTER (WHERE id <> 6) FROM px GROUP BY g ORDER BY g;
SELECT g, stddev(f), var_pop(f), var_samp(f) FILTER (WHERE id <> 6) FROM px_local GROUP BY g ORDER BY g;
-- string_agg: any order (PostgreSQL gives none without ORDER BY): compared sorted
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, string_agg(t, ',') FROM px GROUP BY g;
SELECT g, (SELECT string_agg(e, ',' ORDER BY e COLLATE "C") FROM unnest(string_to_array(string_agg(t, ','), ',')) e)
  FROM px GROUP BY g ORDER BY g;
SELECT g, (SELECT string_agg(e, ',' ORDER BY e COLLATE "C") FROM unnest(string_to_array(string_agg(t, ','), ',')) e)
  FROM px_local GROUP BY g ORDER BY g;
SELECT string_agg(t, '; ') FILTER (WHERE id = 3), string_agg(t, ',') FILTER (WHERE id > 100) FROM px;
-- with ORDER BY: sorted by ClickHouse (more in sql/include/aggs.sql)
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, string_agg(t, ',' ORDER BY t) FROM px GROUP BY g;
-- percentile_disc / percentile_cont: ClickHouse sorts each group's values,
-- the position arithmetic is PostgreSQL's
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT g, percentile_disc(0.5) WITHIN GROUP (ORDER BY i), percentile_cont(0.25) WITHIN GROUP (ORDER BY f) FROM px GROUP BY g;
SELECT g, percentile_disc(0.5) WITHIN GROUP (ORDER BY i) AS d50, percentile_disc(0) WITHIN GROUP (ORDER BY j) AS d0,
  percentile_disc(1) WITHIN GROUP (ORDER BY d) AS d100, percentile_disc(0.34) WITHIN GROUP (ORDER BY ts) AS t34,
  percentile_cont(0.25) WITHIN GROUP (ORDER BY f) AS c25, percentile_cont(0.5) WITHIN GROUP (ORDER BY f) AS c50,
  percentile_cont(1) WITHIN GROUP (ORDER BY f) AS c100
  FROM px GROUP BY g ORDER BY g;
SELECT g, percentile_disc(0.5) WITHIN GROUP (ORDER BY i) AS d50, percentile_disc(0) WITHIN GROUP (ORDER BY j) AS d0,
  percentile_disc(1) WITHIN GROUP (ORDER BY d) AS d100, percentile_disc(0.34) WITHIN GROUP (ORDER BY ts) AS t34,
  percentile_cont(0.25) WITHIN GROUP (ORDER BY f) AS c25, percentile_cont(0.5) WITHIN GROUP (ORDER BY f) AS c50,
  percentile_cont(1) WITHIN GROUP (ORDER BY f) AS c100
  FROM px_local GROUP BY g ORDER BY g;
SELECT percentile_cont(0.3) WITHIN GROUP (ORDER BY f), percentile_disc(0.9) WITHIN GROUP (ORDER BY i),
  percentile_disc(0.5) WITHIN GROUP (ORDER BY s COLLATE "C") FROM px WHERE f > -100 AND f < 100;
SELECT percentile_cont(0.3) WITHIN GROUP (ORDER BY f), percentile_disc(0.9) WITHIN GROUP (ORDER BY i),
  percentile_disc(0.5) WITHIN GROUP (ORDER BY s COLLATE "C") FROM px_local WHERE f > -100 AND f < 100;
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY i), percentile_cont(0.5) WITHIN GROUP (ORDER BY f) FROM px WHERE id > 100;
-- kept local: descending order, a fraction that is not a constant, text
-- under a non-C collation (arrays of fractions are sent: sql/include/aggs.sql)
EXPLAIN (VERBOSE, COSTS OFF) SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY i DESC) FROM px;
EXPLAIN (VERBOSE, COSTS OFF) SELECT percentile_disc(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY i) FROM px;
EXPLAIN (VERBOSE, COSTS OFF) SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY s) FROM px;
-- array_agg: NULLs kept (the values travel as 1-tuples); no rows give NULL
EXPLAIN (VERBOSE, COSTS OFF) SELECT g, array_agg(i) FROM px GROUP BY g;
SELECT g, (SELECT array_agg(e ORDER BY e NULLS FIRST) FROM unnest(array_agg(i)) e) AS i,
  (SELECT array_agg(e ORDER BY e) FROM unnest(array_agg(f)) e) AS f,
  (SELECT array_agg(e ORDER BY e COLLATE "C" NULLS FIRST) FROM unnest(array_agg(t)) e) AS t,
  (SELECT array_agg(e ORDER BY e NULLS FIRST) FROM unnest(array_agg(d)) e) AS d,
  (SELECT array_agg(e ORDER BY e NULLS FIRST) FROM unnest(array_agg(ts)) e) AS ts
  FROM px GROUP BY g ORDER BY g;
SELECT g, (SELECT array_agg(e ORDER BY e NULLS FIRST) FROM unnest(array_agg(i)) e) AS i,
  (SELECT array_agg(e ORDER BY e) FROM unnest(array_agg(f)) e) AS f,
  (SELECT array_agg(e ORDER BY e COLLATE "C" NULLS FIRST) FROM unnest(array_agg(t)) e) AS t,
  (SELECT array_agg(e ORDER BY e NULLS FIRST) FROM unnest(array_agg(d)) e) AS d,
  (SELECT array_agg(e ORDER BY e NULLS FIRST) FROM unnest(array_agg(ts)) e) AS ts
  FROM px_local GROUP BY g ORDER BY g;
SELECT array_agg(i), array_agg(s) FILTER (WHERE id = 3), array_agg(j) FILTER (WHERE id > 100) FROM px WHERE id IN (1, 3);
SELECT array_agg(i), array_agg(s) FILTER (WHERE id = 3), array_agg(j) FILTER (WHERE id > 100) FROM px_local WHERE id IN (1, 3);
SELECT array_agg(i) FROM px WHERE id > 100;
EXPLAIN (VERBOSE, COSTS OFF) SELECT g FROM px GROUP BY g HAVING array_agg(i) IS NULL;
-- an expression over aggregates: ClickHouse sends the aggregates
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT g, sum(i) / count(*), round(avg(f)::numeric, 3), g * 10 FROM px GROUP BY g;
SELECT g, sum(i) / count(*), round(avg(f)::numeric, 3), g * 10 FROM px GROUP BY g ORDER BY g;
SELECT g, sum(i) / count(*), round(avg(f)::numeric, 3), g * 10 FROM px_local GROUP BY g ORDER BY g;

DROP TABLE px_local;
DROP FUNCTION pd_check(text, text, text);
