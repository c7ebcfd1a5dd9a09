-- ====================================================================
-- HAVING of grouped queries with float sum / avg / variance family sent
-- (src/fdw/agg_float.c, chfdw_deparse_float_having): ClickHouse's HAVING
-- is "guard AND guard ... AND (clauses)", the overflow guards first, so a
-- group the clauses drop still raises 22003 as in PostgreSQL (which
-- computes every group's aggregates before HAVING). Then many float
-- aggregates in one query: above ClickHouse's max_query_size or
-- max_ast_elements the grouping stays local. Shared by floathaving.sql
-- (ClickHouse 18.16) and modern_floathaving.sql (the 26.5 engine behind
-- test/chdb/front.py, a test harness, not a server). The caller has
-- created server ch_fh (settings 'max_threads=1') and set :ch_db.
-- Values are dyadic (sums exact in any order) so answers compare as text;
-- every overflow below happens in every order (1e308 twice, 1e200 with
-- other rows), so the local copy's error is the only valid one.
-- ====================================================================
SET extra_float_digits = 1;
SELECT clickhouse_exec('ch_fh', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.fh');
SELECT clickhouse_exec('ch_fh', 'CREATE TABLE ' || :'ch_db' || '.fh (id Int32, g Nullable(Int32), x Nullable(Float64), r Nullable(Float32)) ENGINE = MergeTree ORDER BY id');
-- groups: 1 ordinary with a NULL; 2 1e200, -1e200 (avg / variance raise
-- in every order, sum 0); 3 1e308, 1e308 (sum and avg raise); 4 NaN, 1;
-- 5 +Infinity, 5; 6 -Infinity, +Infinity (NaN); 7 -0, -0 (sum -0);
-- 8 1..50; 9 only NULLs; 10 one 1e308; 11 three equal 1e200 (no raise);
-- NULL group: 0.25, 0.5
SELECT clickhouse_exec('ch_fh', 'INSERT INTO ' || :'ch_db' || '.fh VALUES
  (1, 1, 1, 1), (2, 1, 2, 2), (3, 1, NULL, NULL), (4, 1, 4.5, 4.5),
  (5, 2, 1e200, 1), (6, 2, -1e200, -1),
  (7, 3, 1e308, 1), (8, 3, 1e308, 2),
  (9, 4, nan, nan), (10, 4, 1, 1),
  (11, 5, inf, inf), (12, 5, 5, 5),
  (13, 6, -inf, -inf), (14, 6, inf, inf),
  (15, 7, -0.0, -0.0), (16, 7, -0.0, -0.0),
  (17, 9, NULL, NULL),
  (18, 10, 1e308, 3e38),
  (19, 11, 1e200, 3), (20, 11, 1e200, 3), (21, 11, 1e200, 3),
  (22, NULL, 0.25, 0.25), (23, NULL, 0.5, 0.5)');
SELECT clickhouse_exec('ch_fh', 'INSERT INTO ' || :'ch_db' || '.fh SELECT 100 + number, 8, number + 1, number + 1 FROM numbers(50)');
SELECT clickhouse_exec('ch_fh', 'OPTIMIZE TABLE ' || :'ch_db' || '.fh FINAL');
CREATE FOREIGN TABLE fh (id int, g int, x float8, r real) SERVER ch_fh OPTIONS (table 'fh');
CREATE TABLE fh_l AS SELECT * FROM fh ORDER BY id;
SELECT count(*) FROM fh_l;

\i sql/include/diff_check.sql
-- fh_check(query): foreign and local, errors' SQLSTATEs compared too;
-- pushed: one Foreign Scan, no Aggregate / Sort / Filter above or in it
CREATE FUNCTION fh_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'fh|fr', '(Aggregate|Sort|Group|Filter)', false, true) $$;
-- fh_plan(query): EXPLAIN VERBOSE with each guard written GUARD and each
-- float aggregate's value V, a regression aggregate's R (the full text is
-- some 1 to 4 KB each)
CREATE FUNCTION fh_plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    line := regexp_replace(line, 'if\(count\(`[a-z0-9_]+?`[^)]*?\) [=<] [0-9], NULL, if\(toInt8\(if\(ifNull\(.*?''chfdw-error:overflow'', ''0''\)\) = 0, .*?, nan\)\)', 'V', 'g');
    line := regexp_replace(line, 'concat\(''h'', .*?, '',''\)\)', 'R', 'g');
    line := regexp_replace(line, 'arrayStringConcat\(arrayMap\(chfdw_t -> toString\(reinterpretAsUInt64.*?, ''/''\)', 'R', 'g');
    line := regexp_replace(line, 'toInt8\(if\(ifNull\(.*?''chfdw-error:overflow'', ''0''\)\) = 0', 'GUARD', 'g');
    RETURN NEXT line;
  END LOOP;
END $$;

-- ==== each HAVING form: the plan (guards first, then the clauses), then
-- the answer compared with the local copy
SELECT * FROM fh_plan('SELECT g, count(*) FROM fh GROUP BY g HAVING avg(x) > 0');
SELECT * FROM fh_plan('SELECT g, sum(x) FROM fh WHERE g IN (1, 7) GROUP BY g HAVING sum(x) <= 0 OR count(*) > 2');
SELECT * FROM fh_plan('SELECT g, count(*), avg(x) FROM fh WHERE g <> 3 GROUP BY g HAVING count(*) > 2 AND var_samp(x) < 1e6 ORDER BY avg(x) DESC LIMIT 2');
SELECT * FROM fh_plan('SELECT avg(x) FROM fh WHERE g = 1 HAVING count(*) > 1');
SELECT q, c.pushed, c.same, c.nrows, c.err FROM unnest(ARRAY[
  -- comparisons of sum / avg / variance (NaN above every number, -0 = 0)
  'SELECT g, count(*) FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING avg(x) > 0',
  'SELECT g, count(*) FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING avg(x) > 1e300',
  'SELECT g, sum(x) FROM fh WHERE g NOT IN (3) GROUP BY g HAVING sum(x) = 0',
  'SELECT g, sum(x) FROM fh WHERE g NOT IN (3) GROUP BY g HAVING sum(x) < 0',
  'SELECT g, sum(x) FROM fh WHERE g NOT IN (3) GROUP BY g HAVING sum(x) = ''NaN''',
  'SELECT g, sum(x) FROM fh WHERE g NOT IN (3) GROUP BY g HAVING sum(x) >= ''Infinity''',
  'SELECT g, sum(x) FROM fh WHERE g NOT IN (3) GROUP BY g HAVING sum(x) <> 7.5',
  'SELECT g FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING var_samp(x) IS NULL',
  'SELECT g FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING var_pop(x) > 2 OR stddev(x) = ''NaN''',
  'SELECT g, count(*) FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING stddev_pop(x) BETWEEN 0.5 AND 100',
  'SELECT g, avg(x) FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING variance(x) < 300 AND stddev_samp(x) >= 0',
  'SELECT g, avg(r) FROM fh WHERE g NOT IN (2, 3, 10) GROUP BY g HAVING avg(r) > 1.5 OR var_samp(r) > 1',
  'SELECT g, count(*) FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING sum(x) IS NOT NULL AND NOT (avg(x) < 2)',
  -- with other aggregates and keys
  'SELECT g, count(*), sum(x) FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING count(*) > 2 AND sum(x) > 1',
  'SELECT g, max(id), avg(x) FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING max(id) < 20 OR avg(x) > 10',
  'SELECT g, min(id) FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING g IS NULL OR sum(x) > count(*)',
  'SELECT g, avg(x) FILTER (WHERE id % 2 = 0) FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING avg(x) FILTER (WHERE id % 2 = 0) > 1',
  'SELECT g FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING sum(x) FILTER (WHERE id > 1000) IS NULL',
  -- ungrouped
  'SELECT avg(x), count(*) FROM fh WHERE g = 1 HAVING count(*) > 1',
  'SELECT avg(x) FROM fh WHERE g = 1 HAVING sum(x) > 100',
  -- a group HAVING drops overflows: 22003 as PostgreSQL
  'SELECT g, count(*) FROM fh GROUP BY g HAVING count(*) > 40 AND avg(x) > 0',
  'SELECT g FROM fh WHERE g IN (1, 3) GROUP BY g HAVING sum(x) < 0',
  'SELECT g, avg(x) FROM fh WHERE g IN (1, 2) GROUP BY g HAVING max(id) < 3',
  'SELECT g, count(*) FROM fh WHERE g IN (1, 2, 8) GROUP BY g HAVING g = 8 AND var_pop(x) > 0',
  'SELECT g, sum(x) FROM fh WHERE g IN (1, 3) GROUP BY g HAVING count(*) > 100',
  'SELECT g FROM fh WHERE g IN (1, 2) GROUP BY g HAVING avg(x) FILTER (WHERE id = 1) > 0',
  'SELECT avg(x) FROM fh WHERE g IN (1, 2) HAVING count(*) > 100',
  'SELECT sum(x) FROM fh WHERE g IN (1, 3) HAVING count(*) < 0',
  -- no overflow among the remaining groups: identical huge values, one 1e308
  'SELECT g, sum(x), avg(x), var_pop(x) FROM fh WHERE g IN (10, 11) GROUP BY g HAVING avg(x) > 1e199',
  'SELECT g, avg(x) FROM fh WHERE g IN (2, 3) GROUP BY g HAVING count(*) > 1'
]) q, fh_check(q) c;
-- with ORDER BY / LIMIT: sent with them, in order
SELECT q, c.pushed, c.same, c.nrows, c.err FROM unnest(ARRAY[
  'SELECT g, count(*), avg(x) FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING count(*) > 1 ORDER BY avg(x) DESC, g LIMIT 3',
  'SELECT g, sum(x) FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING sum(x) > 0 ORDER BY g NULLS FIRST LIMIT 2 OFFSET 1',
  'SELECT g, count(*) FROM fh GROUP BY g HAVING count(*) > 2 ORDER BY count(*) DESC LIMIT 1',
  'SELECT g, count(*) FROM fh GROUP BY g HAVING var_samp(x) > 0 ORDER BY g LIMIT 1'
]) q, diff_check(q, 'fh', '(Aggregate|Sort|Group|Filter)', true, true) c;

-- over a join ClickHouse computes, windows and DISTINCT over the groups
-- (windows sent on 26.5, local on 18.16: window.c)
SELECT * FROM fh_plan('SELECT a.g, count(*) FROM fh a JOIN fh b ON a.id = b.id WHERE a.g IN (1, 8) GROUP BY a.g HAVING avg(b.x) > 2');
SELECT q, c.pushed, c.same, c.nrows, c.err FROM unnest(ARRAY[
  'SELECT a.g, count(*) FROM fh a JOIN fh b ON a.id = b.id WHERE a.g NOT IN (2, 3) GROUP BY a.g HAVING avg(b.x) > 2',
  'SELECT a.g, count(*) FROM fh a JOIN fh b ON a.id = b.id GROUP BY a.g HAVING count(*) > 40 AND sum(a.x) > 0',
  'SELECT a.g, avg(b.x) FROM fh a JOIN fh b ON a.id = b.id WHERE a.g IN (1, 2) GROUP BY a.g HAVING max(a.id) < 3',
  'SELECT g, avg(x), rank() OVER (ORDER BY avg(x), g) FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING count(*) > 1',
  'SELECT g, avg(x), rank() OVER (ORDER BY count(*)) FROM fh GROUP BY g HAVING count(*) > 40',
  'SELECT DISTINCT count(*) FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING sum(x) >= 0',
  'SELECT DISTINCT count(*) FROM fh GROUP BY g HAVING count(*) > 40 AND sum(x) >= 0'
]) q, diff_check(q, 'fh', '(Aggregate|Sort|Group|Filter)', false, true) c;

-- ==== what stays local, and why
-- regression aggregates: PostgreSQL finishes them (and raises their
-- overflow in the finish), so HAVING is a Filter here
SELECT * FROM fh_plan('SELECT g, regr_avgx(x, id) FROM fh WHERE g = 1 GROUP BY g HAVING sum(x) > 0');
SELECT q, c.same, c.err FROM unnest(ARRAY[
  'SELECT g, regr_avgx(x, id) FROM fh WHERE g = 1 GROUP BY g HAVING sum(x) > 0',
  'SELECT g, regr_avgy(x, id) FROM fh WHERE g IN (1, 2) GROUP BY g HAVING count(*) > 2'
]) q, fh_check(q) c;
-- a clause ClickHouse cannot evaluate (avg of integers, which PostgreSQL
-- finishes) filters here; the others and the guards are sent
SELECT * FROM fh_plan('SELECT g, count(*) FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING avg(id) > 3 AND avg(x) > 1');
SELECT q, c.same, c.nrows, c.err FROM unnest(ARRAY[
  'SELECT g, count(*) FROM fh WHERE g NOT IN (2, 3) GROUP BY g HAVING avg(id) > 3 AND avg(x) > 1',
  'SELECT g, count(*) FROM fh WHERE g IN (1, 2) GROUP BY g HAVING avg(id) > 100 AND avg(x) > 1'
]) q, fh_check(q) c;
-- grouping sets: HAVING stays here (guards2: the guards are sent)
SELECT * FROM fh_plan('SELECT g, count(*) FROM fh WHERE g IN (1, 8) GROUP BY ROLLUP (g) HAVING avg(x) > 2');
SELECT q, c.same, c.nrows, c.err FROM unnest(ARRAY[
  'SELECT g, count(*) FROM fh WHERE g IN (1, 8) GROUP BY ROLLUP (g) HAVING avg(x) > 2',
  'SELECT g, count(*) FROM fh WHERE g IN (1, 2) GROUP BY ROLLUP (g) HAVING count(*) > 100'
]) q, fh_check(q) c;

-- ==== many float aggregates: each guarded average is some 4 KB of SQL
-- (with FILTER), a sum some 1.3 KB and 277 AST nodes; ClickHouse refuses
-- a query above max_query_size (262144 bytes: 66 averages) or
-- max_ast_elements (50000: some 190 sums), a SYNTAX_ERROR / TOO_BIG_AST
-- the user never sees: such a query's grouping is computed here
CREATE FUNCTION fh_many(agg text, n int, OUT q text) LANGUAGE sql AS $$
  SELECT 'SELECT g' || string_agg(format(', %s(x) FILTER (WHERE id <> %s)', agg, k), '' ORDER BY k) ||
         ' FROM fh WHERE g IN (1, 8) GROUP BY g'
  FROM generate_series(1, n) k $$;
CREATE FUNCTION fh_top(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
    RETURN line;
  END LOOP;
END $$;
SELECT agg, n, fh_top(m.q) AS plan, c.same, c.nrows, c.err
FROM (VALUES ('avg', 40), ('avg', 60), ('avg', 70), ('avg', 100), ('var_samp', 60), ('var_samp', 80),
             ('sum', 100), ('sum', 140), ('sum', 200), ('sum', 300)) v(agg, n),
     fh_many(agg, n) m, diff_check(m.q, 'fh', '^$', false, true) c;
-- grouping sets (18.16: one SELECT per set, the UNION ALL measured whole)
-- and a join
SELECT n, fh_top(q) AS plan, c.same, c.nrows, c.err
FROM (VALUES (20), (30)) v(n),
     LATERAL (SELECT replace(fh_many('avg', n), 'GROUP BY g', 'GROUP BY ROLLUP (g)') AS q) m,
     diff_check(m.q, 'fh', '^$', false, true) c;
SELECT n, fh_top(q) AS plan, c.same, c.nrows, c.err
FROM (VALUES (40), (70)) v(n),
     LATERAL (SELECT replace(replace(replace(replace(replace(fh_many('avg', n), '(x)', '(b.x)'), 'id <>', 'a.id <>'),
                     'FROM fh WHERE g', 'FROM fh a JOIN fh b ON a.id = b.id WHERE a.g'), 'SELECT g', 'SELECT a.g'),
                     'GROUP BY g', 'GROUP BY a.g') AS q) m,
     diff_check(m.q, 'fh', '^$', false, true) c;
-- with HAVING and ORDER BY (the sorted path measured with its ORDER BY)
SELECT n, fh_top(q) AS plan, c.same, c.nrows, c.err
FROM (VALUES (30), (60), (80)) v(n),
     LATERAL (SELECT replace(fh_many('avg', n), 'GROUP BY g', 'GROUP BY g HAVING avg(x) > 1 ORDER BY avg(x) FILTER (WHERE id <> 1), g LIMIT 5') AS q) m,
     diff_check(m.q, 'fh', '^$', true, true) c;

-- ==== seeded random differential: 30 groups of seven kinds (ordinary
-- dyadic values with NULLs and -0; with one NaN / +-Infinity / both; with
-- one 1e308 (avg raises); with two 1e308 (sum raises too); with 1e200 and
-- -1e200 (avg raises); only three equal 1e200 (no raise); only NULLs), and
-- 160 random grouped queries with HAVING (aggregate x comparison x
-- threshold, AND / OR with count(*), max(id) or another aggregate before
-- it, so that groups that raise are often dropped by HAVING, FILTER,
-- WHERE g IN (two groups of the kinds that do not raise, sometimes one
-- of any kind), ORDER BY ... LIMIT), each compared with the local copy
-- by rows or SQLSTATE (also against 'NaN', sent since nanconst;
-- the SELECT list shows sums and averages, exact over these values, not
-- variances, whose last bits are ClickHouse's, README)
SELECT setseed(0.2026);
SELECT clickhouse_exec('ch_fh', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.fr');
SELECT clickhouse_exec('ch_fh', 'CREATE TABLE ' || :'ch_db' || '.fr (id Int32, g Int32, x Nullable(Float64)) ENGINE = MergeTree ORDER BY id');
CREATE TEMP TABLE fr_src AS
WITH grp AS (SELECT k, (k % 7) AS kind FROM generate_series(0, 29) k),
rows AS (
  SELECT k, kind, format('%s', round(((random() - 0.5) * 2000)::numeric * 4) / 4) AS v
  FROM grp, generate_series(1, 2 + (random() * 5)::int) i WHERE kind NOT IN (5, 6)
  UNION ALL SELECT k, kind, 'NULL' FROM grp WHERE random() < 0.5 OR kind = 6
  UNION ALL SELECT k, kind, '-0.0' FROM grp WHERE kind = 0 AND random() < 0.5
  UNION ALL SELECT k, kind, (ARRAY['nan', 'inf', '-inf'])[1 + (random() * 2)::int] FROM grp WHERE kind = 1
  UNION ALL SELECT k, kind, 'inf' FROM grp WHERE kind = 1 AND random() < 0.3
  UNION ALL SELECT k, kind, '1e308' FROM grp WHERE kind IN (2, 3)
  UNION ALL SELECT k, kind, '1e308' FROM grp WHERE kind = 3
  UNION ALL SELECT k, kind, v FROM grp, unnest(ARRAY['1e200', '-1e200']) v WHERE kind = 4
  UNION ALL SELECT k, kind, '1e200' FROM grp, generate_series(1, 3) WHERE kind = 5)
SELECT row_number() OVER (ORDER BY random()) AS id, k AS g, v FROM rows;
SELECT clickhouse_exec('ch_fh', 'INSERT INTO ' || :'ch_db' || '.fr VALUES ' || string_agg(format('(%s, %s, %s)', id, g, v), ', '))
FROM fr_src;
CREATE FOREIGN TABLE fr (id int, g int, x float8) SERVER ch_fh OPTIONS (table 'fr');
CREATE TABLE fr_l AS SELECT * FROM fr ORDER BY id;
SELECT count(*) AS rows, count(DISTINCT g) AS groups FROM fr_l;
CREATE TEMP TABLE fr_q AS
SELECT i, format('SELECT g, count(*)%s FROM fr%s GROUP BY g HAVING %s%s',
         CASE WHEN random() < 0.5 AND s ~ '^(sum|avg)' THEN ', ' || s ELSE '' END,
         CASE WHEN random() < 0.85 THEN format(' WHERE g IN (%s, %s%s)',
                (ARRAY[0, 1, 5, 6])[1 + floor(random() * 4)::int] + 7 * floor(random() * 4)::int,
                (ARRAY[0, 1, 5, 6])[1 + floor(random() * 4)::int] + 7 * floor(random() * 4)::int,
                CASE WHEN random() < 0.6 THEN ', ' || floor(random() * 30)::int ELSE '' END) ELSE '' END,
         h, CASE WHEN random() < 0.3 THEN format(' ORDER BY g LIMIT %s', 1 + (random() * 4)::int) ELSE '' END) AS q
FROM (SELECT i, a1 || f1 AS s,
             CASE (random() * 6)::int
               WHEN 0 THEN format('%s%s %s %s', a1, f1, op, c)
               WHEN 1 THEN format('count(*) > %s AND %s%s %s %s', (random() * 6)::int, a1, f1, op, c)
               WHEN 2 THEN format('count(*) < %s OR %s%s %s %s', (random() * 6)::int, a1, f1, op, c)
               WHEN 3 THEN format('%s%s %s %s AND %s IS NOT NULL', a1, f1, op, c, a2)
               WHEN 4 THEN format('count(*) <= %s AND %s%s %s %s', 2 + (random() * 6)::int, a1, f1, op, c)
               WHEN 5 THEN format('max(id) %s %s AND %s%s %s %s', (ARRAY['<', '>'])[1 + floor(random() * 2)::int], (random() * 216)::int, a1, f1, op, c)
               ELSE format('NOT (%s%s %s %s) OR g < %s', a1, f1, op, c, (random() * 30)::int) END AS h
      FROM (SELECT i,
                   (ARRAY['sum(x)', 'avg(x)', 'var_samp(x)', 'var_pop(x)', 'stddev(x)', 'stddev_pop(x)', 'variance(x)', 'sum(x)', 'avg(x)'])[1 + floor(random() * 9)::int] AS a1,
                   (ARRAY['sum(x)', 'avg(x)', 'var_pop(x)', 'stddev_samp(x)'])[1 + floor(random() * 4)::int] AS a2,
                   CASE WHEN random() < 0.25 THEN ' FILTER (WHERE id % 3 <> 0)' ELSE '' END AS f1,
                   (ARRAY['>', '<', '>=', '<=', '<>', '='])[1 + floor(random() * 6)::int] AS op,
                   (ARRAY['0', '1', '-100', '100', '1e6', '1e300', '2.5', '''Infinity''', '''-Infinity''', '''NaN'''])[1 + floor(random() * 10)::int] AS c
            FROM generate_series(1, 160) i) s0) s1;
CREATE TEMP TABLE fr_res AS SELECT i, q, c.* FROM fr_q, diff_check(q, 'fr', '(Aggregate|Sort|Group|Filter)', q ~ 'LIMIT', true) c;
SELECT count(*) AS queries, count(*) FILTER (WHERE same) AS same, count(*) FILTER (WHERE pushed) AS pushed,
       count(*) FILTER (WHERE err IS NOT NULL) AS errors, count(*) FILTER (WHERE err IS NULL AND nrows > 0) AS with_rows,
       count(*) FILTER (WHERE q ~ 'LIMIT') AS with_limit, count(*) FILTER (WHERE q ~ 'NaN') AS with_nan
FROM fr_res;
SELECT i, q, pushed, err, nrows FROM fr_res WHERE NOT same OR NOT pushed ORDER BY i;
DROP TABLE fh_l, fr_l;
