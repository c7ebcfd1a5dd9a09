-- ====================================================================
-- Aggregates over windows, shared by winagg.sql (18.16: no window
-- functions, every query stays local and is compared) and
-- modern_winagg.sql (the 26.5 engine behind test/chdb/front.py, a test
-- harness, not a server: each is sent, its Remote SQL shown, and compared).
-- bool_and / bool_or / every, bit_and / bit_or / bit_xor, the variance
-- family of integers, string_agg / array_agg over ordered windows, min /
-- max of text and running sums of double precision over every frame kind
-- window.c sends (PostgreSQL's
-- default with and without ORDER BY (peers), ROWS with offsets, frames
-- that hold no row, RANGE without offsets), over NULLs, duplicates, a
-- partition of one row, one of only NULLs, the integers' extremes; what
-- stays local checked local; then 100 seeded random window queries. Every
-- query runs on the foreign table and on a local copy; the answers are
-- compared. The caller has created server ch_wa and set :ch_db.
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET extra_float_digits = 0;
SELECT clickhouse_exec('ch_wa', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.wa');
SELECT clickhouse_exec('ch_wa', 'CREATE TABLE ' || :'ch_db' || '.wa (id Int32, p Nullable(Int32), g Nullable(Int32), ok Nullable(UInt8), a Nullable(Int16), b Nullable(Int32), x Nullable(Int64), s Nullable(String), f Nullable(Float64)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_wa', 'INSERT INTO ' || :'ch_db' || '.wa VALUES
  (1, 1, 1, 1, 3, 7, 10, ''a'', 1.5),
  (2, 1, 1, 0, -32768, -2147483648, -9223372036854775808, ''B'', nan),
  (3, 1, 2, NULL, 32767, 2147483647, 9223372036854775807, NULL, -0.0),
  (4, 1, 2, 1, NULL, NULL, NULL, '''', inf),
  (5, 1, 3, 1, 5, 12, 5, ''é'', 2),
  (6, 2, 1, 0, 32767, 2147483647, 9223372036854775807, ''b'', NULL),
  (7, 2, 1, 0, 32767, 2147483647, 9223372036854775807, ''b'', -inf),
  (8, 2, NULL, 1, 32767, 2147483647, 9223372036854775807, ''a'', 0),
  (9, NULL, 5, 1, -1, -1, -1, ''z'', 1e300),
  (10, NULL, 5, NULL, 0, 0, 0, ''Z'', -1e300),
  (11, 3, 1, 1, -32768, -2147483648, -9223372036854775808, ''x'', 3),
  (12, 3, 1, 1, -32768, -2147483648, -9223372036854775808, ''x'', 3),
  (13, 3, 2, 0, 6, 255, 4096, NULL, NULL),
  (14, 3, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (15, 4, 7, 1, 42, 42, 42, ''only'', 42),
  (16, 5, 1, NULL, NULL, NULL, NULL, NULL, NULL),
  (17, 5, 2, NULL, NULL, NULL, NULL, NULL, NULL),
  (18, 1, 3, 0, 5, 12, 5, ''é'', 2)');
CREATE FOREIGN TABLE wa (id int, p int, g int, ok boolean, a smallint, b int, x bigint, s text, f float8)
  SERVER ch_wa OPTIONS (table 'wa');
CREATE TABLE wa_l AS SELECT * FROM wa;
\i sql/include/diff_check.sql
-- wa_check(query): the query on wa and on wa_l, rows compared as sorted
-- multisets; pushed: one Foreign Scan and nothing above it but Limit
CREATE FUNCTION wa_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int, OUT err text)
LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'wa', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|WindowAgg|Unique|Group)') $$;

-- ==== sent on 26.5 (local on 18.16): the Remote SQL of each form
-- bool_and / bool_or / every: min / max of 0 and 1, NULL over only NULLs
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id, bool_and(ok) OVER w, bool_or(ok) OVER w, every(x > 0) OVER w FROM wa
  WINDOW w AS (PARTITION BY p ORDER BY g);
-- bit_and / bit_or / bit_xor: groupBit* of the unsigned bits, back signed
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id, bit_and(a) OVER w, bit_or(b) OVER w, bit_xor(x) FILTER (WHERE id > 2) OVER w FROM wa
  WINDOW w AS (PARTITION BY p ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING);
-- the variance family of integers: exact count, sum and sum of squares of
-- each row's frame, finished by PostgreSQL
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id, variance(a) OVER w, stddev_pop(b) OVER w, var_samp(x) OVER w FROM wa
  WINDOW w AS (PARTITION BY p);
-- string_agg / array_agg over an ordered window, min / max of text
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id, string_agg(s, ',') OVER w, array_agg(x) OVER w, array_agg(f) OVER w, min(s) OVER w, max(s) OVER w FROM wa
  WINDOW w AS (PARTITION BY p ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING);
-- a running sum of double precision: one row added per row, as
-- PostgreSQL's float8pl; 22003 where a sum of finite values overflows
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT id, sum(f) OVER w, sum(f) FILTER (WHERE id > 2) OVER w FROM wa
  WINDOW w AS (PARTITION BY p ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW);
-- over the groups of a grouped query
EXPLAIN (VERBOSE, COSTS OFF)
  SELECT p, count(*), bit_or(p) OVER (ORDER BY p), variance(p) OVER (), bool_and(p > 1) OVER (ORDER BY count(*), p) FROM wa GROUP BY p;
-- kept local: string_agg / array_agg over a window without ORDER BY (the
-- frame's order is not defined), the variance family, sums and averages of
-- floats but a running sum (ClickHouse adds a frame whose start moves, or
-- whose end passes several peers, as a batch in several partial sums: its
-- rounding is not PostgreSQL's one row at a time; avg's float8_accum raises
-- 22003 where its sum of squares overflows, which ClickHouse does not
-- compute), a running sum under LIMIT, in a MATERIALIZED CTE or joined
-- (PostgreSQL may stop before the row that raises), GROUPS frames, EXCLUDE;
-- below also
-- aggregates of aggregates over groups, raising arguments (a * 2), arrays
-- of booleans (as grouped), a delimiter that is not a constant
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, array_agg(x) OVER (PARTITION BY p) FROM wa;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, variance(f) OVER (ORDER BY id) FROM wa;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, sum(f) OVER (ORDER BY id), avg(f) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM wa;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, sum(f) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM wa LIMIT 3;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, bool_or(ok) OVER (ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM wa;

-- text under a collation that does not order by bytes (ICU): min / max local
CREATE COLLATION wa_icu (provider = icu, locale = 'und');
SELECT q, c.* FROM unnest(ARRAY[
  -- every frame kind: PostgreSQL's defaults (no ORDER BY: the partition; ORDER BY: up to the last peer)
  'SELECT id, bool_and(ok) OVER w, bool_or(ok) OVER w, every(ok) OVER w FROM wa WINDOW w AS (PARTITION BY p)',
  'SELECT id, bool_and(ok) OVER w, bool_or(ok) OVER w, every(ok) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY g)',
  'SELECT id, bool_and(ok) OVER w, bool_or(ok) OVER w FROM wa WINDOW w AS (ORDER BY g DESC NULLS FIRST)',
  'SELECT id, bool_and(ok) OVER w, bool_or(ok) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)',
  'SELECT id, bool_and(ok) OVER w, bool_or(ok) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING)',
  'SELECT id, bool_and(ok) OVER w, bool_or(ok) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY g RANGE BETWEEN CURRENT ROW AND CURRENT ROW)',
  'SELECT id, bool_and(x > 0) OVER w, bool_or(s = ''a'') OVER w, every(a IS NOT NULL) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY g RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)',
  'SELECT id, bool_and(ok) FILTER (WHERE id % 2 = 0) OVER w, bool_or(ok) FILTER (WHERE x > 0) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY id)',
  'SELECT id, bit_and(a) OVER w, bit_or(a) OVER w, bit_xor(a) OVER w FROM wa WINDOW w AS (PARTITION BY p)',
  'SELECT id, bit_and(b) OVER w, bit_or(b) OVER w, bit_xor(b) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY g)',
  'SELECT id, bit_and(x) OVER w, bit_or(x) OVER w, bit_xor(x) OVER w FROM wa WINDOW w AS (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)',
  'SELECT id, bit_and(x) OVER w, bit_or(b) OVER w, bit_xor(a) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING)',
  'SELECT id, bit_and(x) OVER w, bit_or(x) OVER w, bit_xor(x) OVER w FROM wa WINDOW w AS (PARTITION BY g ORDER BY p NULLS FIRST, id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)',
  'SELECT id, bit_xor(x) FILTER (WHERE ok) OVER w, bit_or(b % 256) OVER w, bit_and(x / 2) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY g RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)',
  'SELECT id, variance(a) OVER w, var_samp(b) OVER w, var_pop(x) OVER w, stddev(a) OVER w, stddev_samp(b) OVER w, stddev_pop(x) OVER w FROM wa WINDOW w AS (PARTITION BY p)',
  'SELECT id, variance(a) OVER w, var_pop(b) OVER w, stddev(x) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY g)',
  'SELECT id, variance(x) OVER w, var_pop(x) OVER w, stddev_samp(x) OVER w, stddev_pop(x) OVER w FROM wa WINDOW w AS (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)',
  'SELECT id, var_samp(a) OVER w, var_pop(b) OVER w, stddev(x) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY id ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING)',
  'SELECT id, variance(x) OVER w, stddev_pop(a) OVER w FROM wa WINDOW w AS (PARTITION BY ok ORDER BY g NULLS FIRST RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)',
  'SELECT id, variance(x) FILTER (WHERE x <> 0) OVER w, var_pop(a % 5) OVER w, stddev(b / 3) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY id)',
  'SELECT id, string_agg(s, '','') OVER w, array_agg(s) OVER w, array_agg(x) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY id)',
  'SELECT id, string_agg(s, '' | '') OVER w, array_agg(f) OVER w, array_agg(s) OVER w FROM wa WINDOW w AS (ORDER BY id DESC ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)',
  'SELECT id, string_agg(s, '''') OVER w, array_agg(a) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING)',
  'SELECT id, string_agg(s, '','') OVER w, array_agg(b) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY g NULLS FIRST, id RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)',
  'SELECT id, string_agg(s, '','') OVER w, array_agg(x) OVER w FROM wa WINDOW w AS (PARTITION BY g ORDER BY s, id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)',
  'SELECT id, string_agg(s, '','') FILTER (WHERE id > 3) OVER w, array_agg(x) FILTER (WHERE ok) OVER w, array_agg(x % 7) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)',
  'SELECT id, min(s) OVER w, max(s) OVER w FROM wa WINDOW w AS (PARTITION BY p)',
  'SELECT id, min(s) OVER w, max(s) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY g)',
  'SELECT id, min(s) OVER w, max(s) OVER w FROM wa WINDOW w AS (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING)',
  'SELECT id, min(s) OVER w, max(s) FILTER (WHERE s <> ''z'') OVER w FROM wa WINDOW w AS (PARTITION BY ok ORDER BY s DESC, id RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)',
  'SELECT id, bool_and(ok) OVER w, bit_or(x) OVER w, variance(b) OVER w, array_agg(s) OVER w, max(s) OVER w FROM wa WHERE id > 100 WINDOW w AS (ORDER BY id)',
  'SELECT id, bool_or(ok) OVER w, bit_xor(a) OVER w, var_pop(x) OVER w, string_agg(s, ''-'') OVER w FROM wa WHERE p = 4 WINDOW w AS (ORDER BY id)',
  'SELECT id, sum(f) OVER w, sum(f) FILTER (WHERE id % 3 > 0) OVER w FROM wa WINDOW w AS (PARTITION BY p ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)',
  'SELECT id, sum(f) OVER w FROM wa WINDOW w AS (PARTITION BY g ORDER BY f NULLS FIRST, id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)',
  'SELECT id, sum(f) OVER w, sum(x) OVER w FROM wa WINDOW w AS (PARTITION BY id ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)',
  'SELECT id, sum(f) OVER w, sum(x) OVER w FROM wa WINDOW w AS (ORDER BY s DESC NULLS LAST, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)',
  'SELECT * FROM (SELECT id, sum(f) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM wa) s WHERE id > 3',
  -- over the groups of a grouped query
  'SELECT p, count(*), bit_or(p) OVER (ORDER BY p), variance(p) OVER (), bool_and(p > 1) OVER (ORDER BY count(*), p) FROM wa GROUP BY p',
  'SELECT g, max(s), bit_xor(g) OVER (ORDER BY max(s)), array_agg(g) OVER (ORDER BY g DESC NULLS LAST), stddev_pop(g) OVER (ORDER BY g) FROM wa GROUP BY g',
  -- kept local
  'SELECT id, cardinality(array_agg(x) OVER (PARTITION BY p)) FROM wa',
  'SELECT id, length(string_agg(s, '','') OVER ()) FROM wa',
  'SELECT g, variance(count(*)) OVER (ORDER BY g), string_agg(max(s), '','') OVER (ORDER BY g) FROM wa GROUP BY g',
  'SELECT id, var_pop(a * 2) OVER (ORDER BY id), array_agg(ok) OVER (ORDER BY id) FROM wa',
  'SELECT id, variance(f) OVER (ORDER BY id) FROM wa',
  'SELECT id, sum(f) OVER (ORDER BY id), avg(f) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM wa',
  'SELECT id, sum(f) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), sum(f) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 FOLLOWING) FROM wa',
  'SELECT id, sum(f) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM wa ORDER BY id LIMIT 3',
  'WITH c AS MATERIALIZED (SELECT id, sum(f) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM wa) SELECT * FROM c',
  'SELECT * FROM wa_l l JOIN (SELECT id, sum(f) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM wa) s USING (id)',
  'SELECT id, bool_or(ok) OVER (ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM wa',
  'SELECT id, bit_and(x) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) FROM wa',
  'SELECT id, string_agg(s, s) OVER (ORDER BY id) FROM wa',
  'SELECT id, max(s COLLATE wa_icu) OVER (ORDER BY id), min(s COLLATE wa_icu) OVER (PARTITION BY p) FROM wa'
]) q, wa_check(q) c;
DROP COLLATION wa_icu;

-- the overflow of a running float sum: 22003 on both sides (SQLSTATE
-- compared), also with FILTER; an infinite value before it: no error
SELECT clickhouse_exec('ch_wa', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.wo');
SELECT clickhouse_exec('ch_wa', 'CREATE TABLE ' || :'ch_db' || '.wo (id Int32, p Int32, f Nullable(Float64)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_wa', 'INSERT INTO ' || :'ch_db' || '.wo VALUES (1, 1, 1e308), (2, 1, 1e308), (3, 1, -inf), (4, 1, 1), (5, 2, -1e308), (6, 2, NULL), (7, 2, -1e308), (8, 3, inf), (9, 3, 1e308), (10, 3, 1e308)');
CREATE FOREIGN TABLE wo (id int, p int, f float8) SERVER ch_wa OPTIONS (table 'wo');
CREATE TABLE wo_l AS SELECT * FROM wo;
SELECT q, c.pushed, c.same, c.err FROM unnest(ARRAY[
  'SELECT id, sum(f) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM wo',
  'SELECT id, sum(f) OVER (PARTITION BY p ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM wo',
  'SELECT id, sum(f) OVER (PARTITION BY p ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM wo WHERE p = 2',
  'SELECT id, sum(f) FILTER (WHERE id <> 2) OVER (PARTITION BY p ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM wo WHERE p = 1',
  'SELECT id, sum(f) OVER (PARTITION BY p ORDER BY id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM wo WHERE p <> 2',
  'SELECT id, sum(f) OVER (PARTITION BY p ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM wo WHERE p = 3'
]) q, diff_check(q, 'wo', '(Sort|WindowAgg)', false, true) c;
DROP TABLE wo_l;

-- ==== random window queries with these aggregates (fixed seed)
CREATE FUNCTION wa_rand_query() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  fns text[] := ARRAY['bool_and(ok)', 'bool_or(ok)', 'every(ok)', 'bool_and(x > 0)', 'bool_or(s = ''a'')',
                      'bit_and(%i)', 'bit_or(%i)', 'bit_xor(%i)', 'bit_or(%i) FILTER (WHERE ok)',
                      'variance(%i)', 'var_samp(%i)', 'var_pop(%i)', 'stddev(%i)', 'stddev_samp(%i)',
                      'stddev_pop(%i)', 'var_pop(%i) FILTER (WHERE id > 4)',
                      'string_agg(s, '','')', 'array_agg(%c)', 'array_agg(%c) FILTER (WHERE p > 1)',
                      'min(s)', 'max(s)', 'sum(f)'];
  ints text[] := ARRAY['a', 'b', 'x'];
  cols text[] := ARRAY['a', 'b', 'x', 's', 'f'];
  keys text[] := ARRAY['p', 'g', 'ok', 's'];
  filters text[] := ARRAY['', '', ' WHERE id > 3', ' WHERE x IS NOT NULL', ' WHERE p = 1',
                          ' WHERE id > 100', ' WHERE s <> ''a'''];
  frames text[] := ARRAY['', '', 'ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW',
                         'ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING', 'ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING',
                         'ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING', 'ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING',
                         'ROWS BETWEEN 0 PRECEDING AND 0 FOLLOWING',
                         'RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING', 'RANGE BETWEEN CURRENT ROW AND CURRENT ROW',
                         'RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING'];
  q text := 'SELECT id';
  i int;
  fn text;
  w text;
  fr text;
BEGIN
  FOR i IN 1..1 + floor(random() * 3)::int LOOP
    fn := fns[1 + floor(random() * array_length(fns, 1))::int];
    fn := replace(fn, '%i', ints[1 + floor(random() * 3)::int]);
    fn := replace(fn, '%c', cols[1 + floor(random() * 5)::int]);
    w := CASE WHEN random() < 0.6 THEN 'PARTITION BY ' || keys[1 + floor(random() * 4)::int] || ' ' ELSE '' END;
    fr := frames[1 + floor(random() * array_length(frames, 1))::int];
    IF fn = 'sum(f)' THEN
      fr := 'ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW';
    END IF;
    IF fn ~ '^(string_agg|array_agg)' OR fr LIKE 'ROWS%' OR random() < 0.8 THEN
      -- a total order where the frame's rows or their order depend on it
      w := w || 'ORDER BY ' || (ARRAY['g', 'p', 's', 'id'])[1 + floor(random() * 4)::int] ||
        (ARRAY['', ' DESC', ' NULLS FIRST', ' DESC NULLS LAST'])[1 + floor(random() * 4)::int];
      IF fn ~ '^(string_agg|array_agg)' OR fr LIKE 'ROWS%' OR random() < 0.5 THEN
        w := w || ', id';
      END IF;
      w := w || ' ' || fr;
    END IF;
    q := q || format(', %s OVER (%s)', fn, w);
  END LOOP;
  RETURN q || ' FROM wa' || filters[1 + floor(random() * 7)::int];
END $$;
SELECT setseed(0.29);
CREATE TEMP TABLE wa_runs AS
  SELECT g, q, ck.* FROM (SELECT g, wa_rand_query() AS q FROM generate_series(1, 100) g) s,
       LATERAL wa_check(q) ck;
-- queries, pushed, answers that agree, rows compared
SELECT count(*) AS queries, count(*) FILTER (WHERE pushed) AS pushed,
       count(*) FILTER (WHERE same) AS same, sum(nrows) AS rows_compared FROM wa_runs;
-- every difference (none expected)
SELECT g, q, err FROM wa_runs WHERE NOT same ORDER BY g;
-- the first queries kept local
SELECT g, q FROM wa_runs WHERE NOT pushed ORDER BY g LIMIT 5;
DROP FUNCTION wa_rand_query();
DROP FUNCTION wa_check(text);
DROP TABLE wa_l;
