-- ====================================================================
-- Body of casts2.sql (ClickHouse 18.16) and modern_casts2.sql (the 26.5
-- engine behind test/chdb/front.py, a test harness, not a server):
-- pre-filters of local conditions that cast a text column to date or
-- numeric (src/fdw/prefilter.c). The condition stays local (the scan's
-- Filter) and a weaker one is sent besides it, dropping only rows whose
-- text is in a simple form on which the condition is false. Each text is
-- put alone in a one-row table (an error stops a query at the first row
-- that raises) and each condition computed on the foreign table and on a
-- local copy under several DateStyles: the rows, or the error's SQLSTATE
-- and message, must be the same. Then many texts at once (the rows, EXCEPT
-- ALL both ways, and how many rows travel), the plans, and seeded random
-- texts and comparisons. The caller has set :ch_port, :ch_db, :str_type
-- (the ClickHouse type of column s) and :lo_year / :hi_year (the years of
-- the server's dates).
-- ====================================================================
CREATE SERVER ch_c2 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_c2;
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_c2', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.pf1');
SELECT clickhouse_exec('ch_c2', 'CREATE TABLE ' || :'ch_db' || '.pf1 (id Int32, s ' || :'str_type' ||
  ', f Nullable(FixedString(12))) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE pf1 (id int, s text, f text) SERVER ch_c2 OPTIONS (table 'pf1');
CREATE TABLE pf1_l (id int, s text, f text);
SELECT set_config('c2.db', :'ch_db', false) IS NOT NULL AS set;

-- c2_run(q): the query's rows as text, sorted, or its error as
-- "SQLSTATE: message"
CREATE FUNCTION c2_run(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
  EXECUTE format($f$SELECT coalesce(string_agg(t::text, ';' ORDER BY t::text COLLATE "C"), '(none)') FROM (%s) t$f$, q)
    INTO r;
  RETURN r;
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- c2_plan(q): 'prefilter' when the plan is one Foreign Scan whose Filter
-- casts and whose Remote SQL has the pre-filter's guard (a text not in
-- the simple form travels), 'local' when the condition is the Filter alone
-- and nothing is sent, else the plan
CREATE FUNCTION c2_plan(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE plan text := ''; line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    plan := plan || line || E'\n';
  END LOOP;
  IF plan ~ '^(Limit\n  Output: id\n  ->  )?Foreign Scan' AND plan ~ 'Filter: [^\n]*::(date|numeric)' AND
     plan ~ 'Remote SQL: [^\n]* WHERE [^\n]*isNotNull\(`[sf]`\) AND isNull\(if\(' THEN
    RETURN 'prefilter';
  ELSIF plan ~ '^Foreign Scan' AND plan ~ 'Filter: ' AND plan !~ 'Remote SQL: [^\n]* WHERE ' THEN
    RETURN 'local';
  END IF;
  RETURN plan;
END $$;

-- c2_load(vals): the texts in pf1 (column s; f too when it fits
-- FixedString(12)), ids from 1, and pf1_l the copy PostgreSQL reads
CREATE FUNCTION c2_load(vals text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM clickhouse_exec('ch_c2', 'TRUNCATE TABLE ' || current_setting('c2.db') || '.pf1');
  INSERT INTO pf1 SELECT i, vals[i], CASE WHEN octet_length(vals[i]) <= 12 THEN vals[i] END
    FROM generate_subscripts(vals, 1) i;
  TRUNCATE pf1_l;
  INSERT INTO pf1_l SELECT * FROM pf1;
END $$;

-- (alone: the styles and conditions used for one text at a time)
CREATE TABLE c2_styles (style text, alone boolean);
INSERT INTO c2_styles VALUES ('ISO, YMD', false), ('ISO, DMY', false), ('ISO, MDY', false),
  ('SQL, DMY', true), ('German', false), ('Postgres, MDY', false);
-- the conditions on dates and on numbers (C stands for the column)
CREATE TABLE c2_date_conds (c text, alone boolean DEFAULT false);
INSERT INTO c2_date_conds VALUES ('C::date = ''2020-01-02'''),
  ('C::date BETWEEN ''2020-01-01'' AND ''2020-12-31'''), ('C::date < ''2000-03-01'''),
  ('C::date >= current_date'), ('C::date <> ''2020-01-02'''), ('C::date IS NULL'),
  ('C::date IN (''2020-01-02'', ''2020-02-29'', ''1999-12-31'')'),
  ('C::date NOT IN (''2020-01-02'', ''2020-01-03'')'),
  ('C::date = ''2020-01-02'' OR id = 99'), ('NOT (C::date > ''2020-01-02'')'),
  ('extract(year FROM C::date) = 2020'), ('date ''2020-01-02'' < C::date'),
  ('C::date = (SELECT max(d) FROM (VALUES (date ''2020-01-02'')) v(d))');
UPDATE c2_date_conds SET alone = c IN ('C::date = ''2020-01-02''',
  'C::date IN (''2020-01-02'', ''2020-02-29'', ''1999-12-31'')');
CREATE TABLE c2_num_conds (c text, alone boolean DEFAULT false);
INSERT INTO c2_num_conds VALUES ('C::numeric > 100.5'), ('C::numeric = 1.5'),
  ('C::numeric <= -0.5'), ('C::numeric <> 0'), ('C::numeric = 0'), ('C::numeric >= 1000'),
  ('C::numeric IN (1.5, 1000, -7)'), ('C::numeric NOT IN (0, 5)'), ('0.25 < C::numeric'),
  ('C::numeric < 1234567890123456789012345678901234567890.5'),
  ('C::numeric > -1234567890123456789012345678901234567890'),
  ('C::numeric = 1.5 OR id = 99'), ('C::numeric > 100 AND C::numeric < 200');
UPDATE c2_num_conds SET alone = c IN ('C::numeric > 100.5', 'C::numeric = 1.5');

-- c2_check(vals, kind[, alone]): the conditions of kind ('date',
-- 'numeric') on s and f under each DateStyle (alone: those marked so), on
-- pf1 and pf1_l: how many there were, how many were pre-filtered, and the
-- ones whose answers differ (NOTICE)
CREATE FUNCTION c2_check(vals text[], kind text, alone boolean DEFAULT false, OUT checked int,
                         OUT prefiltered int, OUT differ int) LANGUAGE plpgsql AS $$
DECLARE
  st text; cond text; col text; q text; r text; l text;
BEGIN
  PERFORM c2_load(vals);
  checked := 0; prefiltered := 0; differ := 0;
  FOR st IN SELECT style FROM c2_styles WHERE c2_styles.alone OR NOT c2_check.alone LOOP
    PERFORM set_config('datestyle', st, true);
    FOR cond IN EXECUTE format('SELECT c FROM %I WHERE alone OR NOT %L', CASE kind WHEN 'date' THEN 'c2_date_conds' ELSE 'c2_num_conds' END, alone) LOOP
      FOREACH col IN ARRAY ARRAY['s', 'f'] LOOP
        q := 'SELECT id FROM pf1 WHERE ' || replace(cond, 'C::', col || '::');
        r := c2_run(q);
        l := c2_run(replace(q, 'pf1', 'pf1_l'));
        checked := checked + 1;
        IF c2_plan(q) = 'prefilter' THEN prefiltered := prefiltered + 1; END IF;
        IF r IS DISTINCT FROM l THEN
          differ := differ + 1;
          RAISE NOTICE '% [%]: % / local: %', q, st, r, l;
        END IF;
      END LOOP;
    END LOOP;
  END LOOP;
  PERFORM set_config('datestyle', 'ISO, YMD', true);
END $$;

-- ==== the plans: the condition is the Filter, the pre-filter in the
-- Remote SQL's WHERE
SELECT c2_load(ARRAY['2020-01-02', ' 2020-1-3 ', '1.50']);
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pf1 WHERE s::date = '2020-01-02';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pf1 WHERE f::numeric > 1.5;
SELECT q, c2_plan(q) AS plan FROM unnest(ARRAY[
  'SELECT id FROM pf1 WHERE s::date = ''2020-01-02''',
  'SELECT id FROM pf1 WHERE f::date BETWEEN ''2020-01-01'' AND ''2020-12-31''',
  'SELECT id FROM pf1 WHERE s::date >= current_date',
  'SELECT id FROM pf1 WHERE CAST(s AS date) IN (''2020-01-02'', ''2020-01-03'')',
  'SELECT id FROM pf1 WHERE s::date IS NULL',
  'SELECT id FROM pf1 WHERE s::date = ''2020-01-02'' OR id > 5',
  'SELECT id FROM pf1 WHERE extract(year FROM s::date) = 2020',
  'SELECT id FROM pf1 WHERE id > 0 AND s::date = ''2020-01-02''',
  'SELECT id FROM pf1 WHERE s::date = ''2020-01-02'' LIMIT 1',
  'SELECT id FROM pf1 WHERE s::numeric > 100.5',
  'SELECT id FROM pf1 WHERE 100 <= f::numeric',
  'SELECT id FROM pf1 WHERE s::numeric IN (1.5, 2)',
  'SELECT id FROM pf1 WHERE s::numeric = 1.5 OR s::date = ''2020-01-02''',
  'SELECT id FROM pf1 WHERE s::date = (SELECT max(d) FROM (VALUES (date ''2020-01-02'')) v(d))'
]) q;
-- kept local alone: a numeric cast in arithmetic, against a column or a
-- parameter, against NaN or Infinity, with a typmod; another local term
-- under OR; a cast of an expression; a volatile function; a sub-plan; a
-- date the plan-time SQL cannot write (before 1970)
SELECT q, c2_plan(q) AS plan FROM unnest(ARRAY[
  'SELECT id FROM pf1 WHERE s::numeric * 2 > 3',
  'SELECT id FROM pf1 WHERE s::numeric > id',
  'SELECT id FROM pf1 WHERE s::numeric = ''NaN''',
  'SELECT id FROM pf1 WHERE s::numeric < ''Infinity''',
  'SELECT id FROM pf1 WHERE s::numeric(10,2) > 1',
  'SELECT id FROM pf1 WHERE s::date = ''2020-01-02'' OR s::float8 > 1',
  'SELECT id FROM pf1 WHERE btrim(s)::date = ''2020-01-02''',
  'SELECT id FROM pf1 WHERE s::date > ''2020-01-02'' OR random() > 2',
  'SELECT id FROM pf1 WHERE s::date = ''2020-01-02'' OR EXISTS (SELECT 1 FROM pf1_l WHERE pf1_l.id = pf1.id)',
  'SELECT id FROM pf1 WHERE s::date > ''1960-01-01'''
]) q;
PREPARE c2_p(numeric) AS SELECT id FROM pf1 WHERE s::numeric = $1;
SELECT c2_plan('EXECUTE c2_p(1.5)') AS custom_plan;
SET plan_cache_mode = force_generic_plan;
SELECT c2_plan('EXECUTE c2_p(1.5)') AS generic_plan;
RESET plan_cache_mode;
DEALLOCATE c2_p;
-- a DELETE or UPDATE whose condition PostgreSQL evaluates is refused as
-- before (no direct modification: the scan has a local condition)
DELETE FROM pf1 WHERE s::date = '2020-01-02';
UPDATE pf1 SET id = 1 WHERE f::numeric > 1;

-- ==== each text alone, two conditions on s and f under SQL/DMY (every
-- condition under the six styles ISO/YMD, ISO/DMY, ISO/MDY, SQL/DMY,
-- German, Postgres/MDY with many texts at once below): PostgreSQL's answer
-- or its error
CREATE TABLE c2_date_texts (v text);
INSERT INTO c2_date_texts VALUES (NULL), (''), (' '), ('2020-01-02'), (' 2020-01-02 '),
  (E'\t2020-01-02\n'), ('2020-1-2'), ('2020-01-2'), ('2020-001-02'), ('2020-01-002'),
  ('2020-02-29'), ('2019-02-29'), ('2000-02-29'), ('1900-02-29'), ('2100-02-29'), ('2020-02-30'),
  ('2020-04-31'), ('2020-12-31'), ('2020-13-01'), ('2020-00-10'), ('2020-01-00'), ('0000-00-00'),
  ('0000-01-01'), ('1899-12-31'), ('1900-01-01'), ('1969-12-31'), ('1970-01-01'), ('2106-02-07'),
  ('2106-02-08'), ('2149-06-06'), ('2299-12-31'), ('2300-01-01'), ('9999-12-31'),
  ('10000-01-01'), ('12020-01-02'), ('02020-01-02'), ('Jan 2 2020'), ('January 2, 2020'),
  ('2 Jan 2020'), ('2020-Jan-02'), ('01/02/2020'), ('02.01.2020'), ('01-02-2020'), ('20-01-02'),
  ('2020/01/02'), ('2020.01.02'), ('20200102'), ('2020-01-02 BC'), ('0044-03-15 BC'),
  ('2020-01-02 AD'), ('2020-01-02 10:00'), ('2020-01-02T10:00'), ('2020-01-02+02'),
  ('J2458851'), ('today'), ('tomorrow'), ('yesterday'), ('epoch'), ('infinity'), ('-infinity'),
  ('allballs'), ('2020-01-02x'), ('x2020-01-02'), ('2020--01-02'), ('2020-01--02'),
  ('٢٠٢٠-٠١-٠٢'), ('２０２０-01-02'), (E'2020-01-02\u00a0'), (' 2020 - 01 - 02'),
  ('2020-1-2' || repeat(' ', 200)), (repeat(' ', 300) || '2020-1-2');
SELECT c.* FROM (SELECT array_agg(v) a FROM c2_date_texts) t, LATERAL (
  SELECT sum(x.checked) AS checked, sum(x.prefiltered) AS prefiltered, sum(x.differ) AS differ,
         count(*) AS texts
  FROM unnest(t.a) v, LATERAL c2_check(ARRAY[v], 'date', true) x) c;
-- what PostgreSQL reads them as (ISO, YMD), for the record
SELECT coalesce(quote_literal(v), 'NULL') AS v, c2_run(format('SELECT %L::date', v)) AS date
FROM c2_date_texts LIMIT 12;
CREATE TABLE c2_num_texts (v text);
INSERT INTO c2_num_texts VALUES (NULL), (''), (' '), ('0'), ('-0'), ('+0'), (' -0 '), ('0.00'),
  ('1.50'), ('1.5'), (' 1.5 '), (E'\t1.5\n'), ('+1.5'), ('-1.5'), ('.5'), ('5.'), ('-.5'), ('+.5'),
  ('.'), ('+'), ('-'), ('+-1'), ('1.2.3'), ('1e3'), ('1E3'), ('1e-3'), ('NaN'), ('nan'), ('Infinity'),
  ('-Infinity'), ('inf'), ('100.5'), ('100.50'), ('100.500000000000000000000000001'),
  ('100.4999999999999999999999999999999999999999'), ('0100.5'), ('1000'), ('999.9999'),
  ('-7'), ('-7.000'), ('0.25'), ('0.250001'), ('0.2499'), ('1234567890123456789012345678901234567890.5'),
  ('1234567890123456789012345678901234567890.49'), ('-1234567890123456789012345678901234567890'),
  ('-1234567890123456789012345678901234567890.0001'), ('99999999999999999999999999999999999999999'),
  (repeat('9', 1000)), (repeat('9', 1001)), ('1 000'), ('1,5'), ('1_000'), ('0x10'), ('١٢'),
  ('１２'), (E'12\u00a0'), ('12abc'), ('abc'), ('5' || repeat(' ', 300)), (repeat(' ', 300) || '5');
SELECT c.* FROM (SELECT array_agg(v) a FROM c2_num_texts) t, LATERAL (
  SELECT sum(x.checked) AS checked, sum(x.prefiltered) AS prefiltered, sum(x.differ) AS differ,
         count(*) AS texts
  FROM unnest(t.a) v, LATERAL c2_check(ARRAY[v], 'numeric', true) x) c;

-- ==== many texts at once: those PostgreSQL reads (under ISO, YMD) and
-- NULL: the rows of each condition (EXCEPT ALL both ways); then one text
-- PostgreSQL rejects among them: the same error
CREATE FUNCTION c2_reads(v text, ty text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('SELECT %L::%s', v, ty);
  RETURN true;
EXCEPTION WHEN OTHERS THEN
  RETURN false;
END $$;
SELECT c.* FROM (SELECT array_agg(v) a FROM c2_date_texts WHERE v IS NULL OR c2_reads(v, 'date')) t,
  LATERAL c2_check(t.a, 'date') c;
SELECT c.* FROM (SELECT array_agg(v) a FROM c2_num_texts WHERE v IS NULL OR c2_reads(v, 'numeric')) t,
  LATERAL c2_check(t.a, 'numeric') c;
SELECT c.* FROM (SELECT array_agg(v) || ARRAY['2020-13-01'] a FROM c2_date_texts
  WHERE v IS NULL OR c2_reads(v, 'date')) t, LATERAL c2_check(t.a, 'date') c;
SELECT c2_run('SELECT id FROM pf1 WHERE s::date = ''2020-01-02''') AS error;
SELECT c.* FROM (SELECT array_agg(v) || ARRAY['1e'] a FROM c2_num_texts
  WHERE v IS NULL OR c2_reads(v, 'numeric')) t, LATERAL c2_check(t.a, 'numeric') c;
SELECT c2_run('SELECT id FROM pf1 WHERE s::numeric > 100.5') AS error;

-- ==== the rows that travel: EXPLAIN ANALYZE's rows and "Rows Removed by
-- Filter" (what PostgreSQL received and dropped), with the pre-filter and
-- without it (the same query on the cast of an expression, never
-- pre-filtered)
CREATE FUNCTION c2_travel(q text, OUT kept int, OUT removed int) LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  removed := 0;
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF line ~ '^Foreign Scan' THEN
      kept := substring(line from 'rows=([0-9]+)')::int;
    ELSIF line ~ 'Rows Removed by Filter' THEN
      removed := substring(line from '([0-9]+)$')::int;
    END IF;
  END LOOP;
END $$;
SELECT c2_load((SELECT array_agg(v) FROM c2_date_texts WHERE v IS NULL OR c2_reads(v, 'date')));
SELECT count(*) AS texts, count(*) FILTER (WHERE s ~ '^\s*\d{4}-\d{1,2}-\d{1,2}\s*$') AS simple
FROM pf1_l;
SELECT q, t.* FROM unnest(ARRAY[
  'SELECT id FROM pf1 WHERE s::date = ''2020-01-02''',
  'SELECT id FROM pf1 WHERE (s || '''')::date = ''2020-01-02''',
  'SELECT id FROM pf1 WHERE s::date BETWEEN ''2020-01-01'' AND ''2020-12-31''',
  'SELECT id FROM pf1 WHERE s::date >= current_date'
]) q, LATERAL c2_travel(q) t;
-- 1,000 ISO dates, 'Jan 5 2000' and 'epoch' (not simple) and ' 2000-1-5 '
-- (simple): only the answer and the two texts that are not simple travel
SELECT c2_load(ARRAY(SELECT (date '2000-01-01' + i)::text FROM generate_series(0, 999) i) ||
  ARRAY['Jan 5 2000', 'epoch', ' 2000-1-5 ']);
SELECT q, t.* FROM unnest(ARRAY[
  'SELECT id FROM pf1 WHERE s::date = ''2000-01-05''',
  'SELECT id FROM pf1 WHERE (s || '''')::date = ''2000-01-05''',
  'SELECT id FROM pf1 WHERE s::date < ''2000-01-05'''
]) q, LATERAL c2_travel(q) t;
-- a parallel scan (its ranges follow a WHERE of recheck conditions only)
-- sends no pre-filter, and answers alike
ALTER FOREIGN TABLE pf1 OPTIONS (ADD parallel_workers '2');
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM pf1 WHERE s::date = '2000-01-05';
SELECT q, c2_run(q) AS rows, c2_run(q) = c2_run(replace(q, 'pf1', 'pf1_l')) AS same FROM unnest(ARRAY[
  'SELECT id FROM pf1 WHERE s::date = ''2000-01-05''',
  'SELECT id FROM pf1 WHERE s::date < ''2000-01-05'' AND id > 2'
]) q;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
ALTER FOREIGN TABLE pf1 OPTIONS (DROP parallel_workers);
SELECT c2_load((SELECT array_agg(v) FROM c2_num_texts WHERE v IS NULL OR c2_reads(v, 'numeric')));
SELECT count(*) AS texts FROM pf1_l;
SELECT q, t.* FROM unnest(ARRAY[
  'SELECT id FROM pf1 WHERE s::numeric > 100.5',
  'SELECT id FROM pf1 WHERE (s || '''')::numeric > 100.5',
  'SELECT id FROM pf1 WHERE s::numeric = 1.5'
]) q, LATERAL c2_travel(q) t;

-- ==== seeded random texts (dates and numbers in and around the simple
-- forms), 300 at once of those PostgreSQL reads under each DateStyle, and
-- 30 alone (errors included), with random comparisons
SELECT setseed(0.42);
CREATE TABLE c2_rand (n int, v text);
INSERT INTO c2_rand
  SELECT n, CASE WHEN n % 2 = 0 THEN
      (ARRAY['', ' ', E'\t'])[1 + floor(random() * 3)::int] ||
      lpad((:lo_year - 3 + floor(random() * (:hi_year - :lo_year + 7)))::int::text,
           (ARRAY[4, 4, 4, 3, 5])[1 + floor(random() * 5)::int], '0') ||
      (ARRAY['-', '-', '-', '/', '.'])[1 + floor(random() * 5)::int] ||
      lpad(floor(random() * 14)::int::text, 1 + floor(random() * 2.2)::int, '0') || '-' ||
      lpad(floor(random() * 33)::int::text, 1 + floor(random() * 2.2)::int, '0') ||
      (ARRAY['', '', ' ', ' BC', 'x'])[1 + floor(random() * 5)::int]
    ELSE
      (ARRAY['', ' ', E'\n'])[1 + floor(random() * 3)::int] ||
      (ARRAY['', '', '-', '+'])[1 + floor(random() * 4)::int] ||
      repeat('0', floor(random() * 2)::int) ||
      CASE WHEN random() < 0.15 THEN '' ELSE floor(random() * 10 ^ (1 + floor(random() * 6)))::bigint::text END ||
      (ARRAY['', '.', '.5', '.25', '.500', '.0001'])[1 + floor(random() * 6)::int] ||
      (ARRAY['', '', '', ' ', 'e2', 'x'])[1 + floor(random() * 6)::int]
    END
  FROM generate_series(1, 660) n;
CREATE TABLE c2_rconds (kind text, c text);
INSERT INTO c2_rconds
  SELECT 'date', format('C::date %s %L', (ARRAY['=', '<>', '<', '<=', '>', '>='])[1 + floor(random() * 6)::int],
                        date '1970-01-01' + floor(random() * (365 * 140))::int)
  FROM generate_series(1, 8);
INSERT INTO c2_rconds
  SELECT 'numeric', format('C::numeric %s %s', (ARRAY['=', '<>', '<', '<=', '>', '>='])[1 + floor(random() * 6)::int],
                           round(((random() - 0.3) * 10 ^ floor(random() * 6))::numeric, floor(random() * 4)::int))
  FROM generate_series(1, 8);
-- the random comparisons replace the fixed ones
TRUNCATE c2_date_conds, c2_num_conds;
INSERT INTO c2_date_conds SELECT c FROM c2_rconds WHERE kind = 'date';
INSERT INTO c2_num_conds SELECT c FROM c2_rconds WHERE kind = 'numeric';
SELECT kind, c FROM c2_rconds ORDER BY kind, c;
SELECT 'date' AS kind, c.* FROM (SELECT array_agg(v) a FROM c2_rand
  WHERE n % 2 = 0 AND n > 60 AND c2_reads(v, 'date')) t, LATERAL c2_check(t.a, 'date') c
UNION ALL
SELECT 'numeric', c.* FROM (SELECT array_agg(v) a FROM c2_rand
  WHERE n % 2 = 1 AND n > 60 AND c2_reads(v, 'numeric')) t, LATERAL c2_check(t.a, 'numeric') c;
SELECT count(*) FILTER (WHERE n % 2 = 0 AND c2_reads(v, 'date')) AS dates_read,
       count(*) FILTER (WHERE n % 2 = 1 AND c2_reads(v, 'numeric')) AS numbers_read
FROM c2_rand WHERE n > 60;
-- alone: 30 of each kind, 2 random comparisons, under SQL/DMY
UPDATE c2_date_conds SET alone = c IN (SELECT c FROM c2_date_conds ORDER BY c LIMIT 2);
UPDATE c2_num_conds SET alone = c IN (SELECT c FROM c2_num_conds ORDER BY c LIMIT 2);
SELECT 'date' AS kind, sum(x.checked) AS checked, sum(x.prefiltered) AS prefiltered,
       sum(x.differ) AS differ
FROM c2_rand, LATERAL c2_check(ARRAY[v], 'date', true) x WHERE n % 2 = 0 AND n <= 60
UNION ALL
SELECT 'numeric', sum(x.checked), sum(x.prefiltered), sum(x.differ)
FROM c2_rand, LATERAL c2_check(ARRAY[v], 'numeric', true) x WHERE n % 2 = 1 AND n <= 60;
