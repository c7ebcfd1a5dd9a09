-- ====================================================================
-- Body of casts.sql (ClickHouse 18.16) and modern_casts.sql (the 26.5
-- engine behind test/chdb/front.py, a test harness, not a server): casts
-- of text columns to smallint/integer/bigint, make_date(), date +/-
-- integer (src/fdw/pushdown_casts.c). Each value is put alone in a one-row
-- table (an error stops a query at the first row that raises, and which
-- row comes first differs) and each construct computed on the foreign
-- table and on a local copy: the rows, or the error's SQLSTATE and message,
-- must be the same. Each construct is checked sent (no local Filter or
-- Aggregate in EXPLAIN VERBOSE) or kept local. Then seeded random texts.
-- The caller has set :ch_port, :ch_db, :str_type (the ClickHouse type of
-- column s) and :date_type (of column dt).
-- ====================================================================
CREATE SERVER ch_ca FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_ca;
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SET extra_float_digits = 0;
\i sql/include/show_error.sql
SELECT clickhouse_exec('ch_ca', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.ca1');
SELECT clickhouse_exec('ch_ca', 'CREATE TABLE ' || :'ch_db' || '.ca1 (id Int32, s ' || :'str_type' ||
  ', f Nullable(FixedString(12))) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE ca1 (id int, s text, f text) SERVER ch_ca OPTIONS (table 'ca1');
CREATE TABLE ca1_l (id int, s text, f text);

-- ca_run(q): the query's rows as text, sorted, or its error as
-- "SQLSTATE: message"
CREATE FUNCTION ca_run(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
  EXECUTE format($f$SELECT coalesce(string_agg(t::text, ';' ORDER BY t::text COLLATE "C"), '(none)') FROM (%s) t$f$, q)
    INTO r;
  RETURN r;
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- ca_sent(q): one Foreign Scan, nothing PostgreSQL computes over it (no
-- Filter, no Aggregate), and the guard of a cast or date form in its
-- Remote SQL (a value of the SELECT list PostgreSQL computes shows in
-- Output only)
CREATE FUNCTION ca_sent(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE plan text := ''; line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    plan := plan || line || E'\n';
  END LOOP;
  RETURN plan ~ 'Foreign Scan' AND plan !~ '(Filter:|Aggregate|Sort|Hash|Result)' AND
    plan ~ 'Remote SQL: [^\n]*chfdw-error:(int[248]in|date)';
END $$;

-- ca_load(v): v alone in ca1 (column s; f too when it fits FixedString(12)),
-- and ca1_l the copy PostgreSQL reads of it (f without its zero padding)
CREATE FUNCTION ca_load(v text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM clickhouse_exec('ch_ca', 'TRUNCATE TABLE ' || current_setting('ca.db') || '.ca1');
  INSERT INTO ca1 VALUES (1, v, CASE WHEN octet_length(v) <= 12 THEN v END);
  TRUNCATE ca1_l;
  INSERT INTO ca1_l SELECT * FROM ca1;
END $$;

-- ca_cast(v): v cast to smallint, integer and bigint, from s and f, as a
-- grouping key (s and f) and in the scan's one condition (s): ClickHouse's
-- answers (of s, as a key) and whether every one is PostgreSQL's
CREATE FUNCTION ca_cast(v text, OUT value text, OUT int2 text, OUT int4 text, OUT int8 text,
                        OUT same boolean) LANGUAGE plpgsql AS $$
DECLARE
  ty text;
  col text;
  q text;
  r text;
  l text;
BEGIN
  PERFORM ca_load(v);
  value := coalesce(quote_literal(v), 'NULL');
  same := true;
  FOREACH ty IN ARRAY ARRAY['int2', 'int4', 'int8'] LOOP
    FOREACH col IN ARRAY ARRAY['s', 'f'] LOOP
      FOREACH q IN ARRAY ARRAY[format('SELECT %s::%s AS v FROM ca1 GROUP BY 1', col, ty),
                               format('SELECT id FROM ca1 WHERE %s::%s IS NOT NULL', col, ty)] LOOP
        CONTINUE WHEN col = 'f' AND q LIKE '%WHERE%';
        r := ca_run(q);
        l := ca_run(replace(q, 'ca1', 'ca1_l'));
        IF r IS DISTINCT FROM l THEN
          same := false;
          RAISE NOTICE '%: % / local: %', q, r, l;
        END IF;
        IF col = 's' AND q LIKE '%GROUP BY%' THEN
          IF ty = 'int2' THEN int2 := r; ELSIF ty = 'int4' THEN int4 := r; ELSE int8 := r; END IF;
        END IF;
      END LOOP;
    END LOOP;
  END LOOP;
END $$;
SELECT set_config('ca.db', :'ch_db', false) IS NOT NULL AS set;

-- ==== sent: the cast as the scan's one condition and as a grouping key,
-- from a String (LowCardinality on the 26.5 engine) and a FixedString
SELECT ca_load(' 12 ');
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ca1 WHERE s::int4 > 5;
EXPLAIN (VERBOSE, COSTS OFF) SELECT CAST(f AS bigint) AS v, count(*) FROM ca1 GROUP BY 1;
SELECT q, ca_sent(q) AS sent FROM unnest(ARRAY[
  'SELECT id FROM ca1 WHERE s::int2 = 12', 'SELECT id FROM ca1 WHERE s::int4 = 12',
  'SELECT id FROM ca1 WHERE s::int8 = 12', 'SELECT id FROM ca1 WHERE CAST(s AS integer) = 12',
  'SELECT id FROM ca1 WHERE int4(s) = 12', 'SELECT id FROM ca1 WHERE f::int4 = 12',
  'SELECT id FROM ca1 WHERE s::int4 + 1 = 13', 'SELECT id FROM ca1 WHERE s::int4 <> 13',
  'SELECT s::int8 AS v FROM ca1 GROUP BY 1', 'SELECT f::int2 AS v, count(*) FROM ca1 GROUP BY 1',
  'SELECT sum(id) FROM ca1 GROUP BY s::int4'
]) q;
-- kept local: where PostgreSQL may not compute the cast for a row (a second
-- condition, a CASE branch, under LIMIT), in the SELECT list (ClickHouse
-- would compute it for rows PostgreSQL drops), of an expression (a
-- FixedString's function keeps its padding), to numeric (a Decimal has no
-- display scale of its own, nor NaN) and to date (date_in reads every
-- DateStyle form, month names, 'today'...); IN lists are sent of columns
-- only
SELECT q, ca_sent(q) AS sent FROM unnest(ARRAY[
  'SELECT id FROM ca1 WHERE s::int4 IN (12, 13)',
  'SELECT id FROM ca1 WHERE id > 0 AND s::int4 = 12',
  'SELECT id FROM ca1 WHERE CASE WHEN id > 0 THEN s::int4 END = 12',
  'SELECT id FROM ca1 WHERE s::int4 = 12 LIMIT 1',
  'SELECT s::int4 FROM ca1',
  'SELECT id FROM ca1 WHERE btrim(s)::int4 = 12',
  'SELECT id FROM ca1 WHERE s::numeric = 12',
  'SELECT id FROM ca1 WHERE s::numeric(10,2) = 12',
  'SELECT id FROM ca1 WHERE s::date = ''2020-01-01''',
  'SELECT id FROM ca1 WHERE s::float8 = 12'
]) q;
SELECT id, s::int4 FROM ca1 WHERE id > 0 AND s::int4 = 12;

-- ==== each text alone: pg_strtoint16/32/64 of PostgreSQL 15 (spaces
-- around, one sign, digits; the digits out of range before anything after
-- them; no 0x, _, exponent), NULL, '', the limits and one past them
SELECT c.* FROM unnest(ARRAY[
  NULL, '', ' ', '0', '-0', '+0', '12', ' 12 ', E'\t-5\n', E'\r\x0b\f7\f', E'\x0b12', '+', '-', '+-1', '--1',
  '1 2', '1-', '12abc', 'abc', '0x10', '1_000', '1e3', '1.0', '.5', '00000000000000000000000042',
  '-000000000000000000000009223372036854775808', '32767', '32768', '-32768', '-32769',
  '2147483647', '2147483648', '-2147483648', '-2147483649', ' 2147483648 ',
  '9223372036854775807', '9223372036854775808', '-9223372036854775808', '-9223372036854775809',
  '99999999999999999999999', '99999999999x', '99999x', 'x99999999999', '١٢', 'é1', '1é',
  E'1\u00a0', '12' || repeat(' ', 30), repeat('7', 120), repeat('x', 130), repeat('é', 200)
]) v, ca_cast(v) c;
-- a text of more than 400 bytes: the message quotes its first 100
-- characters (PostgreSQL's quotes all of it; the SQLSTATE is the same)
SELECT ca_load(repeat('y', 401));
SELECT field, value FROM show_error('SELECT id FROM ca1 WHERE s::int4 = 12') WHERE field IN ('sqlstate', 'message', 'detail');
-- a zero byte in a String (PostgreSQL refuses to read it: so does the cast)
SELECT clickhouse_exec('ch_ca', 'TRUNCATE TABLE ' || :'ch_db' || '.ca1');
SELECT clickhouse_exec('ch_ca', 'INSERT INTO ' || :'ch_db' || E'.ca1 VALUES (1, ''12\\0'', NULL)');
SELECT field, value FROM show_error('SELECT id FROM ca1 WHERE s::int4 = 12') WHERE field IN ('sqlstate', 'message');
SELECT field, value FROM show_error('SELECT s FROM ca1') WHERE field IN ('sqlstate', 'message');
-- the whole error of a guard
SELECT ca_load('12x');
SELECT field, regexp_replace(value, '^(.{60}).*', '\1...') AS value FROM show_error('SELECT id FROM ca1 WHERE s::int4 = 12');

-- ==== seeded random texts: 24 alone (errors included), then 300 at once
-- of those PostgreSQL reads, as keys with their row
SELECT setseed(0.31);
CREATE TEMP TABLE ca_rand AS
  SELECT n, string_agg(substr(E' \t+-0123456789999x_.', 1 + floor(random() * 20)::int, 1), '') AS v
  FROM generate_series(1, 340) n, generate_series(1, 1 + (n % 23)) k
  GROUP BY n;
SELECT count(*) AS texts, count(*) FILTER (WHERE c.same) AS same,
       count(*) FILTER (WHERE c.int4 ~ '^[0-9-]') AS int4_values,
       count(*) FILTER (WHERE c.int4 LIKE '22P02%') AS syntax_errors,
       count(*) FILTER (WHERE c.int4 LIKE '22003%') AS range_errors
FROM (SELECT v FROM ca_rand WHERE n <= 24) x, LATERAL ca_cast(x.v) c;
-- ca_ok(v, ty): PostgreSQL reads v as ty
CREATE FUNCTION ca_ok(v text, ty text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('SELECT %L::%s', v, ty);
  RETURN true;
EXCEPTION WHEN OTHERS THEN
  RETURN false;
END $$;
CREATE FUNCTION ca_many(ty text, OUT ty_ text, OUT nrows int, OUT sent boolean, OUT same boolean)
LANGUAGE plpgsql AS $$
DECLARE q text := format('SELECT id, s::%s AS v FROM ca1 GROUP BY id, 2', ty);
BEGIN
  PERFORM clickhouse_exec('ch_ca', 'TRUNCATE TABLE ' || current_setting('ca.db') || '.ca1');
  INSERT INTO ca1 SELECT n, v, CASE WHEN octet_length(v) <= 12 THEN v END FROM ca_rand
    WHERE n > 24 AND ca_ok(v, ty);
  TRUNCATE ca1_l;
  INSERT INTO ca1_l SELECT * FROM ca1;
  ty_ := ty;
  SELECT count(*) INTO nrows FROM ca1_l;
  sent := ca_sent(q);
  same := ca_run(q) = ca_run(replace(q, 'ca1', 'ca1_l')) AND
    ca_run(replace(q, 's::', 'f::')) = ca_run(replace(replace(q, 's::', 'f::'), 'ca1', 'ca1_l'));
END $$;
SELECT c.* FROM unnest(ARRAY['int2', 'int4', 'int8']) t, ca_many(t) c;

-- ==== make_date and date +/- integer, each row alone: PostgreSQL's
-- answer, or its error; where PostgreSQL has a date the server cannot hold
-- (before 1900 or after 2299 in Date32, before 1970 or after 2106-02-07 on
-- 18.16), 22008 "date value out of range for ClickHouse" (not
-- PostgreSQL's), never a wrapped date
SELECT clickhouse_exec('ch_ca', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.cd1');
SELECT clickhouse_exec('ch_ca', 'CREATE TABLE ' || :'ch_db' || '.cd1 (id Int32, dt Nullable(' ||
  :'date_type' || '), n Nullable(Int32), y Nullable(Int32), m Nullable(Int32), d Nullable(Int32)) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE cd1 (id int, dt date, n int, y int, m int, d int) SERVER ch_ca OPTIONS (table 'cd1');
CREATE TABLE cd1_l (id int, dt date, n int, y int, m int, d int);
-- ca_date(dt, n, y, m, d): dt + n, n + dt, dt - n, make_date(y, m, d) as
-- keys and conditions, each compared with PostgreSQL's; ClickHouse's
-- answers as keys
-- (beyond: how many of them PostgreSQL answers with a date the server
-- cannot hold, where ClickHouse raises 22008 instead)
CREATE FUNCTION ca_date(dt date, n int, y int, m int, d int, OUT plus text, OUT minus text,
                        OUT make text, OUT same boolean, OUT beyond int) LANGUAGE plpgsql AS $$
DECLARE
  q text;
  r text;
  l text;
BEGIN
  PERFORM clickhouse_exec('ch_ca', 'TRUNCATE TABLE ' || current_setting('ca.db') || '.cd1');
  INSERT INTO cd1 VALUES (1, dt, n, y, m, d);
  TRUNCATE cd1_l;
  INSERT INTO cd1_l SELECT * FROM cd1;
  same := true;
  beyond := 0;
  FOREACH q IN ARRAY ARRAY['SELECT dt + n AS v FROM cd1 GROUP BY 1', 'SELECT n + dt AS v FROM cd1 GROUP BY 1',
      'SELECT dt - n AS v FROM cd1 GROUP BY 1', 'SELECT make_date(y, m, d) AS v FROM cd1 GROUP BY 1',
      'SELECT id FROM cd1 WHERE dt - n < date ''2000-01-01''',
      'SELECT id FROM cd1 WHERE make_date(y, m, d) > date ''2000-01-01''',
      'SELECT dt - date ''2000-01-01'' AS v FROM cd1 GROUP BY 1'] LOOP
    r := ca_run(q);
    l := ca_run(replace(q, 'cd1', 'cd1_l'));
    IF r = '22008: date value out of range for ClickHouse' AND l !~ '^[0-9A-Z]{5}: ' THEN
      beyond := beyond + 1;
    ELSIF r IS DISTINCT FROM l THEN
      same := false;
      RAISE NOTICE '%: % / local: %', q, r, l;
    END IF;
    IF q LIKE 'SELECT dt + n%' THEN plus := r; END IF;
    IF q LIKE 'SELECT dt - n%' THEN minus := r; END IF;
    IF q LIKE 'SELECT make_date%' THEN make := r; END IF;
  END LOOP;
END $$;
SELECT q, ca_sent(q) AS sent FROM unnest(ARRAY[
  'SELECT dt + n AS v FROM cd1 GROUP BY 1', 'SELECT n + dt AS v FROM cd1 GROUP BY 1',
  'SELECT dt - n AS v FROM cd1 GROUP BY 1', 'SELECT make_date(y, m, d) AS v FROM cd1 GROUP BY 1',
  'SELECT id FROM cd1 WHERE dt + 30 > date ''2000-01-01''', 'SELECT id FROM cd1 WHERE dt - n < date ''2000-01-01''',
  'SELECT id FROM cd1 WHERE make_date(y, m, 1) > date ''2000-01-01''',
  'SELECT id FROM cd1 WHERE make_date(y, m, d) + n - 1 = dt'
]) q;
SELECT q, ca_sent(q) AS sent FROM unnest(ARRAY[
  'SELECT dt + n FROM cd1', 'SELECT id FROM cd1 WHERE id > 0 AND dt + n > date ''2000-01-01''',
  'SELECT make_date(y, m, d) FROM cd1'
]) q;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM cd1 WHERE dt + n > date '2000-01-01';
EXPLAIN (VERBOSE, COSTS OFF) SELECT make_date(y, m, d) AS v FROM cd1 GROUP BY 1;
SELECT c.* FROM (VALUES
  (date '2000-01-01', 0, 2020, 2, 29), ('2000-02-28', 1, 2021, 2, 29), ('1970-01-01', 0, 1900, 2, 29),
  ('1970-01-01', -1, 2000, 2, 29), ('2106-02-07', 1, 0, 1, 1), ('2106-02-06', 1, -1, 2, 30),
  ('2020-02-28', 2, -4, 2, 29), ('2020-03-01', -1, -5, 2, 29), ('2000-01-01', 2147483647, -2147483648, 1, 1),
  ('2000-01-01', -2147483648, 2147483647, 1, 1), ('2000-01-01', NULL, 5874898, 1, 1),
  (NULL, 5, 5874897, 12, 31), ('2000-01-01', 100000, -4714, 11, 24), ('2000-01-01', -11000, -4714, 11, 23),
  ('2000-01-01', 36524, -4714, 10, 1), ('2000-01-01', -36524, -4714, 13, 40), ('2000-01-01', 109572, 2020, 13, 1),
  ('2000-01-01', -25567 - 10957, 2020, -5, 3), ('2000-01-01', 3, 2020, 1, -3), ('2000-01-01', 3, 1970, 1, 1),
  ('2000-01-01', 3, 1969, 12, 31), ('2000-01-01', 3, 2106, 2, 7), ('2000-01-01', 3, 2106, 2, 8),
  ('2000-01-01', 3, 2149, 6, 6), ('2000-01-01', 3, 2299, 12, 31), ('2000-01-01', 3, 2300, 1, 1),
  ('2000-01-01', 3, 1900, 1, 1), ('2000-01-01', 3, 1899, 12, 31), ('2000-01-01', 3, NULL, 1, 1),
  ('2000-01-01', 3, 2020, 4, 31), ('2000-01-01', 3, 2020, 6, 30), ('2000-01-01', 3, 2400, 2, 29),
  ('2000-01-01', 3, 2100, 2, 29), ('2000-01-01', 3, 1, 1, 1)
) v(dt, n, y, m, d), ca_date(v.dt, v.n, v.y, v.m, v.d) c;
-- seeded random: 24 rows of days and fields around the ranges' ends
SELECT setseed(0.47);
SELECT count(*) AS calls, count(*) FILTER (WHERE c.same) AS same, sum(c.beyond) AS beyond,
       count(*) FILTER (WHERE c.make ~ '^\(\d{4}-') AS make_values,
       count(*) FILTER (WHERE c.plus ~ '^\(\d{4}-') AS plus_values
FROM (SELECT date '1970-01-01' + floor(random() * 49000)::int AS dt,
             floor(random() * 30000)::int - 15000 AS n,
             (ARRAY[1969, 1970, 2000, 2024, 2106, 2149, 2299, 2300, -1, 0])[1 + floor(random() * 10)::int] AS y,
             floor(random() * 14)::int AS m, floor(random() * 33)::int AS d
      FROM generate_series(1, 24)) x, LATERAL ca_date(x.dt, x.n, x.y, x.m, x.d) c;

DROP TABLE ca_rand;
DROP FOREIGN TABLE ca1, cd1;
DROP TABLE ca1_l, cd1_l;
DROP FUNCTION ca_run(text), ca_sent(text), ca_load(text), ca_cast(text), ca_ok(text, text),
  ca_many(text), ca_date(date, int, int, int, int);
SELECT clickhouse_exec('ch_ca', 'DROP TABLE ' || :'ch_db' || '.ca1');
SELECT clickhouse_exec('ch_ca', 'DROP TABLE ' || :'ch_db' || '.cd1');
DROP FUNCTION show_error(text);
DROP SERVER ch_ca CASCADE;
