-- ====================================================================
-- Body of strfn.sql (ClickHouse 18.16) and modern_strfn.sql (the 26.5
-- engine behind test/chdb/front.py, a test harness, not a server): strfn's
-- part of the pushdown table (src/fdw/pushdown_map.c) and ClickHouse's own
-- functions in a plain scan's SELECT list (src/fdw/chfuncs.c). Each
-- construct is checked sent (no local Filter in EXPLAIN VERBOSE) or kept
-- local, its value on every row compared with PostgreSQL's own on a local
-- copy (NULL, '', multibyte characters, a 2,000-character string, edge
-- counts), errors compared by SQLSTATE and message; then seeded random
-- calls. The caller has created server ch_sf and set :ch_db.
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_sf', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.sf');
SELECT clickhouse_exec('ch_sf', 'CREATE TABLE ' || :'ch_db' || '.sf (id Int32, s Nullable(String), n Nullable(Int32)) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE sf (id int, s text, n int) SERVER ch_sf OPTIONS (table 'sf');
INSERT INTO sf VALUES
  (1, NULL, NULL), (2, '', 0), (3, 'abc', 3), (4, 'héllo wörld', -1), (5, 'ÉCOLE école', 5),
  (6, E'a\nb', 1), (7, 'x.y.z', 2), (8, '123-456', 7), (9, 'aaab', 4), (10, repeat('x', 2000), 8),
  (11, 'hELLO wORLD o''neil-smith a1B2 c_d', 9), (12, 'ab12cd34', 10), (13, '日本語テキスト', 11),
  (14, 'a', 12), (15, '  x  ', 13);
CREATE TABLE sf_l AS SELECT * FROM sf;
SELECT count(*) FROM sf_l;

-- sf_one(e): e as the scan's one condition, twice: "e = CASE WHEN id = 1
-- THEN <its local value> ... END" (the rows whose value is not NULL) and
-- "e IS NULL", each query's rows compared with the local copy's; shipped
-- when neither EXPLAIN shows a local Filter. When PostgreSQL raises an
-- error for the table, the foreign table must raise the same: SQLSTATE
-- and message. (diff_expr's form 'case': sql/include/diff_expr.sql)
\i sql/include/diff_expr.sql
CREATE FUNCTION sf_one(e text) RETURNS TABLE (expr text, shipped boolean, same boolean, error text)
LANGUAGE sql AS $$ SELECT e, d.* FROM diff_expr(e, 'sf', 'case') d $$;

-- ==== lpad / rpad: characters, a longer string cut to n, an empty fill
-- (no padding), n of 0 and below, a fill cycled, multibyte fills; sent
-- where the server has leftPadUTF8 (caps.string_pad: not 18.16)
SELECT c.* FROM unnest(ARRAY[
  'lpad(s, 5)', 'rpad(s, 5)', 'lpad(s, 5, ''*'')', 'rpad(s, 5, ''*'')', 'lpad(s, 2, ''xy'')',
  'rpad(s, 2, ''xy'')', 'lpad(s, 0, ''x'')', 'rpad(s, 0)', 'lpad(s, -3, ''x'')', 'rpad(s, -1, ''x'')',
  'lpad(s, 8, '''')', 'rpad(s, 3, '''')', 'lpad(s, 12, ''éñ'')', 'rpad(s, 12, ''日本'')',
  'lpad(s, 1, ''x'')', 'lpad(s, 2005, ''ab'')', 'rpad(s, 1999, ''-'')', 'lpad(s, 11, ''xyz'')',
  'length(lpad(s, 1000000, ''é''))', 'octet_length(rpad(s, 1000000, ''é''))', 'lpad(s, 3) || ''|'''
]) e, sf_one(e) c;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM sf WHERE lpad(s, 5, '*') = '**abc';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM sf WHERE rpad(s, 3, '') = 'abc';
SELECT id, lpad(s, 7, 'é'), rpad(s, 7, 'é') FROM sf WHERE lpad(s, 7, 'é') LIKE 'é%' ORDER BY id;

-- ==== repeat: n of 0 and below is '', NULL stays NULL; past 1 GB
-- PostgreSQL raises 54000, and so does the guard (in the one condition of
-- a scan reading every row: ShipCtx.may_raise)
SELECT c.* FROM unnest(ARRAY[
  'repeat(s, 3)', 'repeat(s, 1)', 'repeat(s, 0)', 'repeat(s, -2)', 'length(repeat(s, 1000))',
  'length(repeat(s, 1000000))', 'repeat(s, 2) || lpad(s, 2)'
]) e, sf_one(e) c;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM sf WHERE repeat(s, 2) = 'abcabc';
\i sql/include/show_error.sql
SELECT field, left(value, 100) FROM show_error('SELECT id FROM sf WHERE length(repeat(s, 1000000)) > 0');
SELECT field, value FROM show_error('SELECT id FROM sf_l WHERE length(repeat(s, 1000000)) > 0');
-- after another condition (PostgreSQL may skip the call): local
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM sf WHERE id > 3 AND repeat(s, 2) = 'abcabc';

-- ==== initcap under the C ctype (ASCII, byte by byte in both), where the
-- server has initcap (caps.initcap: not 18.16); under C.UTF-8 local
SELECT c.* FROM unnest(ARRAY[
  'initcap(s COLLATE "C")', 'initcap(lower(s COLLATE "C"))', 'initcap(s)'
]) e, sf_one(e) c;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM sf WHERE initcap(s COLLATE "C") = 'Abc';

-- ==== kept local, and why: a count that is no constant or past
-- ClickHouse's 1,000,000 (PostgreSQL pads up to 1 GB), a fill that is no
-- constant (ClickHouse wants one)
SELECT c.* FROM unnest(ARRAY[
  'lpad(s, n)', 'rpad(s, 3, s)', 'lpad(s, 1000001, ''x'')', 'repeat(s, n)', 'repeat(s, 1000001)'
]) e, sf_one(e) c;

-- ==== seeded random calls: 60 of lpad/rpad/repeat with random counts and fills
SELECT setseed(0.57);
CREATE TEMP TABLE sf_rand AS
  SELECT n, CASE WHEN random() < 0.2 THEN format('repeat(s, %s)', floor(random() * 6)::int - 1)
    ELSE format('%s(s, %s%s)', (ARRAY['lpad', 'rpad'])[1 + floor(random() * 2)::int],
      floor(random() * 30)::int - 3,
      (ARRAY['', ', ''''', ', ''*''', ', ''ab''', ', ''é''', ', ''日本語''', ', '' ''', ', ''x.y'''])
        [1 + floor(random() * 8)::int]) END AS e
  FROM generate_series(1, 60) n;
SELECT count(*) AS calls, count(*) FILTER (WHERE c.shipped) AS shipped,
       count(*) FILTER (WHERE c.same) AS same
FROM sf_rand x, LATERAL sf_one(x.e) c;
SELECT x.e FROM sf_rand x, LATERAL sf_one(x.e) c WHERE NOT c.same;
DROP TABLE sf_rand;

-- ==== regexp_match of fixed-length patterns (every match one length:
-- literal characters, ".", bracket expressions, "^" first, "$" last; with
-- capture groups around parts), on both engines: as a condition (IS [NOT]
-- NULL: match()) and subscripted (the match or group k: extract(),
-- replaceRegexpOne(), NULL without a match)
SELECT c.* FROM unnest(ARRAY[
  'CASE WHEN regexp_match(s, ''l.o'') IS NULL THEN 1 ELSE 0 END',
  'CASE WHEN regexp_match(s, ''^a'') IS NOT NULL THEN 1 ELSE 0 END',
  '(regexp_match(s, ''[0-9]-[0-9]''))[1]', '(regexp_match(s, ''b.''))[1]', '(regexp_match(s, ''.$''))[1]',
  '(regexp_match(s, ''([0-9])([0-9])''))[1]', '(regexp_match(s, ''([0-9])([0-9])''))[2]',
  '(regexp_match(s, ''^(.)(.)''))[2]', '(regexp_match(s, ''(.)(x)$''))[1]',
  '(regexp_match(s, ''\.(.)\.''))[1]', '(regexp_match(s, ''(a.)b''))[1]',
  '(regexp_match(s, ''[^a-z]''))[1]', '(regexp_match(s, ''O''))[1]',
  '(regexp_match(s, ''(x)''))[1] || ''!'''
]) e, sf_one(e) c;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM sf WHERE regexp_match(s, 'l.o') IS NOT NULL;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM sf WHERE (regexp_match(s, '([0-9])-([0-9])'))[2] = '4';
SELECT id, (regexp_match(s, '([0-9])-([0-9])'))[2] FROM sf WHERE (regexp_match(s, '([0-9])-([0-9])'))[2] = '4';
-- kept local, and why: quantifiers and alternation (matches of several
-- lengths: leftmost-longest and leftmost-first may differ), nested or
-- empty groups, flags, class escapes, characters that are not printable
-- ASCII (fixed_regex's subset), a subscript past the groups or no
-- constant, the array itself (ClickHouse has no Nullable(Array))
SELECT c.* FROM unnest(ARRAY[
  '(regexp_match(s, ''(é)(.)''))[2]', '(regexp_match(s, ''a(\n)''))[1]', '(regexp_match(s, ''(本語)''))[1]',
  '(regexp_match(s, ''[0-9]+''))[1]', '(regexp_match(s, ''a|ab''))[1]', '(regexp_match(s, ''((a)b)''))[1]',
  '(regexp_match(s, ''a()b''))[1]', '(regexp_match(s, ''a'', ''i''))[1]', '(regexp_match(s, ''\d''))[1]',
  '(regexp_match(s, ''(a)(b)''))[3]', '(regexp_match(s, ''(a)''))[0]', '(regexp_match(s, ''(a)''))[n]',
  '(regexp_match(s, ''(?:a)b''))[1]', 'array_length(regexp_match(s, ''a''), 1)',
  'CASE WHEN regexp_match(s, ''a*'') IS NULL THEN 1 ELSE 0 END'
]) e, sf_one(e) c;
-- 40 seeded random fixed-length patterns with groups, each subscripted
SELECT setseed(0.31);
CREATE TEMP TABLE sf_re AS
  SELECT n, format('(regexp_match(s, %L))[%s]', p, 1 + floor(random() * greatest(g, 1))::int) AS e
  FROM (SELECT n, p, length(p) - length(replace(p, '(', '')) AS g
        FROM (SELECT n, (CASE WHEN random() < 0.2 THEN '^' ELSE '' END) ||
                (SELECT string_agg(CASE WHEN random() < 0.4 THEN '(' || a || ')' ELSE a END, '')
                 FROM (SELECT (ARRAY['a', 'b', '.', '[a-c]', '[^b]', '\.', 'x', '1', '[0-9]', ' ', '[^a-z]', 'e', 'o', 'l'])
                              [1 + floor(random() * 14)::int] AS a, m
                       FROM generate_series(1, 1 + (n % 3)) m) atoms) ||
                (CASE WHEN random() < 0.2 THEN '$' ELSE '' END) AS p
              FROM generate_series(1, 40) n) q) r;
SELECT count(*) AS calls, count(*) FILTER (WHERE c.shipped) AS shipped,
       count(*) FILTER (WHERE c.same) AS same
FROM sf_re x, LATERAL sf_one(x.e) c;
SELECT x.e FROM sf_re x, LATERAL sf_one(x.e) c WHERE NOT c.same OR NOT c.shipped;
DROP TABLE sf_re;

-- ==== ClickHouse's own functions in a plain scan's SELECT list
-- (chfuncs.c, chfdw_chfunc_scan_tlist): ClickHouse computes them, in the
-- scan's SELECT, as entries of the scan's target list; answers compared
-- with the engine's own (clickhouse_raw_query). 18.16 has no
-- toStartOfInterval (caps.start_of_interval): PostgreSQL is asked there and
-- refuses (0A000).
CREATE FUNCTION sf_ch(q text) RETURNS text LANGUAGE sql AS
$$ SELECT rtrim(clickhouse_raw_query('ch_sf', q), E'\n') $$;
SELECT clickhouse_exec('ch_sf', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.sfc');
SELECT clickhouse_exec('ch_sf', 'CREATE TABLE ' || :'ch_db' || '.sfc (id Int32, m Nullable(Int32), ts Nullable(DateTime(''UTC'')), lt DateTime(''Asia/Tokyo''), d Date, s Nullable(String)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_sf', 'INSERT INTO ' || :'ch_db' || '.sfc VALUES
  (1, NULL, NULL, ''2024-01-01 00:00:00'', ''2024-01-01'', NULL),
  (2, 1, ''2024-01-01 10:17:31'', ''2024-03-01 23:30:00'', ''2000-02-29'', ''abc''),
  (3, 3, ''2024-02-29 23:59:59'', ''1999-12-31 23:59:59'', ''2105-12-31'', ''héllo''),
  (4, 7, ''1970-01-01 00:00:00'', ''2038-01-19 12:14:07'', ''1970-01-01'', ''''),
  (5, 2, ''2106-02-07 06:28:15'', ''2000-06-15 09:00:00'', ''2100-03-01'', ''x'')');
CREATE FOREIGN TABLE sfc (id int, m int, ts timestamptz, lt timestamp, d date, s text)
  SERVER ch_sf OPTIONS (table 'sfc');
\set VERBOSITY terse
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, tostartofinterval(ts, interval '15 minutes') FROM sfc;
SELECT id, tostartofinterval(ts, interval '15 minutes') FROM sfc ORDER BY id;
-- (a scan of its own: in a query with aggregates PostgreSQL computes the
-- aggregates' arguments in the Agg node, not in the scan)
WITH t AS MATERIALIZED (
  SELECT id, tostartofinterval(ts, interval '15 minutes') a,
         tostartofinterval(ts, interval '2 hours') b, tostartofinterval(ts, interval '1 month') c,
         tostartofinterval(ts, interval '1 year') e, tostartofinterval(ts, interval '30 seconds') g
  FROM sfc)
SELECT f, f = sf_ch($$SELECT id, toDateTime(toStartOfInterval(ts, INTERVAL 15 minute, 'UTC'), 'UTC'), toDateTime(toStartOfInterval(ts, INTERVAL 2 hour, 'UTC'), 'UTC'), toDateTime(toStartOfInterval(ts, INTERVAL 1 month, 'UTC'), 'UTC'), toDateTime(toStartOfInterval(ts, INTERVAL 1 year, 'UTC'), 'UTC'), toDateTime(toStartOfInterval(ts, INTERVAL 30 second, 'UTC'), 'UTC') FROM $$ || :'ch_db' || $$.sfc ORDER BY id FORMAT TSV$$) AS same
FROM (SELECT string_agg(concat_ws(E'\t', id, coalesce(to_char(a, 'YYYY-MM-DD HH24:MI:SS'), '\N'),
                                  coalesce(to_char(b, 'YYYY-MM-DD HH24:MI:SS'), '\N'),
                                  coalesce(to_char(c, 'YYYY-MM-DD HH24:MI:SS'), '\N'),
                                  coalesce(to_char(e, 'YYYY-MM-DD HH24:MI:SS'), '\N'),
                                  coalesce(to_char(g, 'YYYY-MM-DD HH24:MI:SS'), '\N')), E'\n' ORDER BY id) AS f
      FROM t) x;
-- PostgreSQL's part of an expression over it, a local condition, ORDER BY
-- and LIMIT above the scan, timestamp and date columns beside it (their
-- zones read from the remote catalog for the scan's own columns)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id, lt, d, to_char(tostartofinterval(ts, interval '1 day'), 'YYYY-MM-DD') || '!' AS day
FROM sfc WHERE (id::numeric + 0) > 1 ORDER BY day DESC, id LIMIT 3;
SELECT id, lt, d, to_char(tostartofinterval(ts, interval '1 day'), 'YYYY-MM-DD') || '!' AS day
FROM sfc WHERE (id::numeric + 0) > 1 ORDER BY day DESC, id LIMIT 3;
SELECT id, lt, d FROM sfc ORDER BY id;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id, tostartofinterval(ts, interval '1 hour') + interval '30 minutes' FROM sfc WHERE id > 1;
SELECT id, tostartofinterval(ts, interval '1 hour') + interval '30 minutes' FROM sfc WHERE id > 1 ORDER BY id;
-- kept where it cannot be sent, with the error and its hint: another
-- session zone (CHFN_UTC), an interval of two units, a query of two
-- relations on 18.16 (newer servers send it in a join: chfuncs_join)
SET timezone = 'Asia/Tokyo';
SELECT field, value FROM show_error($$SELECT tostartofinterval(ts, interval '1 day') FROM sfc$$)
WHERE field IN ('sqlstate', 'message');
SET timezone = 'UTC';
SELECT field, value FROM show_error($$SELECT tostartofinterval(ts, interval '1 day 2 hours') FROM sfc$$)
WHERE field IN ('sqlstate', 'message');
SELECT field, value FROM show_error($$SELECT tostartofinterval(a.ts, interval '1 day') FROM sfc a, sf b WHERE a.id = b.id$$)
WHERE field IN ('sqlstate', 'message');
\set VERBOSITY default
SELECT tostartofinterval(ts, interval '1 day 2 hours') FROM sfc;
\set VERBOSITY terse
DROP FOREIGN TABLE sfc;

DROP FUNCTION sf_one(text), sf_ch(text);
DROP TABLE sf_l;
DROP FOREIGN TABLE sf;
