-- ====================================================================
-- Body of chfuncs.sql (ClickHouse 18.16) and modern_chfuncs.sql (the 26.5
-- engine behind test/chdb/front.py, a test harness, not a server):
-- ClickHouse's own aggregates and functions the extension declares
-- (src/fdw/chfuncs.c). Every call is checked sent (EXPLAIN VERBOSE: the
-- remote SQL, no local Agg) and its answer compared with ClickHouse's own
-- answer to the same ClickHouse query (clickhouse_raw_query, its
-- TabSeparated text with arrays written as PostgreSQL writes them); NULLs
-- and groups of NULLs; the error when PostgreSQL is asked to compute one;
-- IMPORT of an AggregatingMergeTree table, its finalized scan and
-- merge_state() as <fn>Merge. The caller has created server ch_cf and set
-- :ch_db and :ch_setup (a server over HTTP for the fixtures' statements).
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
\i sql/include/show_error.sql
-- ClickHouse's answer to q: TabSeparated, arrays as {a,b} (no quotes)
SELECT format($f$CREATE FUNCTION ch(q text) RETURNS text LANGUAGE sql AS
$b$ SELECT translate(rtrim(clickhouse_raw_query(%L, q), E'\n'), '[]''', '{}') $b$$f$, :'ch_setup') \gexec
-- NULL as TabSeparated writes it
CREATE FUNCTION tsv(x anyelement) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT coalesce(x::text, '\N') $$;

SELECT clickhouse_exec(:'ch_setup', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.cf_ev');
SELECT clickhouse_exec(:'ch_setup', 'CREATE TABLE ' || :'ch_db' || '.cf_ev (id Int32, k String, v Nullable(Float64), n Int64, m Nullable(Int32), s Nullable(String), ts DateTime(''UTC'')) ENGINE = MergeTree ORDER BY id');
-- group 'a': some NULLs; 'b': none; 'c': only NULLs in v, m and s
SELECT clickhouse_exec(:'ch_setup', 'INSERT INTO ' || :'ch_db' || '.cf_ev VALUES
  (1, ''a'', 1.5, 10, 7, ''x'', ''2024-01-01 10:07:00''),
  (2, ''a'', NULL, 20, NULL, NULL, ''2024-01-01 10:20:00''),
  (3, ''a'', 2.5, 30, 7, ''y'', ''2024-01-01 10:31:10''),
  (4, ''b'', 3.25, 40, 1, ''x'', ''2024-01-02 00:00:00''),
  (5, ''b'', 4, 5, 2, ''x'', ''2024-02-01 12:00:00''),
  (6, ''b'', -1, 50, 2, ''z'', ''2024-03-31 23:59:59''),
  (7, ''b'', 0, 60, 3, ''x'', ''2024-04-01 00:00:00''),
  (8, ''c'', NULL, 70, NULL, NULL, ''2025-06-15 08:30:00'')');
IMPORT FOREIGN SCHEMA :ch_db LIMIT TO (cf_ev) FROM SERVER ch_cf INTO public;

-- ==== ungrouped: each aggregate against ClickHouse's answer
EXPLAIN (VERBOSE, COSTS OFF)
SELECT argmax(k, n), argmin(s, n), uniq(s), uniqexact(k, m), uniqcombined(v) FROM cf_ev;
SELECT f, f = ch('SELECT argMax(k, n), argMin(s, n), uniq(s), uniqExact(k, m), uniqCombined(v) FROM ' || :'ch_db' || '.cf_ev') AS same
FROM (SELECT concat_ws(E'\t', tsv(argmax(k, n)), tsv(argmin(s, n)), tsv(uniq(s)),
                       tsv(uniqexact(k, m)), tsv(uniqcombined(v))) AS f FROM cf_ev) x;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT quantile(0.5, v), quantile(0.9, n), quantiles(ARRAY[0.1, 0.5, 1], m), quantileexact(0.5, n),
       quantileexact(0.25, v) FROM cf_ev;
SELECT f, f = ch('SELECT toFloat64(quantile(0.5)(v)), toFloat64(quantile(0.9)(n)), quantiles(0.1, 0.5, 1)(m), quantileExact(0.5)(n), quantileExact(0.25)(v) FROM ' || :'ch_db' || '.cf_ev') AS same
FROM (SELECT concat_ws(E'\t', tsv(quantile(0.5, v)), tsv(quantile(0.9, n)),
                       tsv(quantiles(ARRAY[0.1, 0.5, 1], m)), tsv(quantileexact(0.5, n)),
                       tsv(quantileexact(0.25, v))) AS f FROM cf_ev) x;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT topk(2, s), topk(1, k), any_value(k), anylast(id), countif(v > 1), countif(s = 'x') FROM cf_ev;
SELECT f, f = ch('SELECT topK(2)(s), topK(1)(k), any(k), anyLast(id), countIf(v > 1), countIf(s = ''x'') FROM ' || :'ch_db' || '.cf_ev') AS same
FROM (SELECT concat_ws(E'\t', tsv(topk(2, s)), tsv(topk(1, k)), tsv(any_value(k)), tsv(anylast(id)),
                       tsv(countif(v > 1)), tsv(countif(s = 'x'))) AS f FROM cf_ev) x;
-- result types: ClickHouse's, exactly
SELECT pg_typeof(argmax(k, n)) AS argmax, pg_typeof(uniq(s)) AS uniq, pg_typeof(quantile(0.5, m)) AS quantile,
       pg_typeof(quantiles(ARRAY[0.5], m)) AS quantiles, pg_typeof(quantileexact(0.5, n)) AS qexact,
       pg_typeof(topk(2, s)) AS topk, pg_typeof(countif(m > 1)) AS countif FROM cf_ev;

-- ==== grouped, with FILTER as the -If combinator, over a group of NULLs
-- (countif counts the rows where its condition is true: a NULL is not,
-- where 18.16's countIf(m > 1) over only NULLs says NULL)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT k, argmax(id, v), uniq(m), quantile(0.5, m), topk(3, s), countif(m > 1),
       uniqexact(s) FILTER (WHERE n > 10), quantile(0.5, v) FILTER (WHERE id > 1)
FROM cf_ev GROUP BY k;
SELECT f, f = ch('SELECT k, argMax(id, v), uniq(m), toFloat64(quantile(0.5)(m)), topK(3)(s), countIf(ifNull(m > 1, 0)), uniqExactIf(s, n > 10), toFloat64(quantileIf(0.5)(v, id > 1)) FROM ' || :'ch_db' || '.cf_ev GROUP BY k ORDER BY k') AS same
FROM (SELECT string_agg(concat_ws(E'\t', k, tsv(a), tsv(u), tsv(q), tsv(t), tsv(c), tsv(uf), tsv(qf)), E'\n' ORDER BY k) AS f
      FROM (SELECT k, argmax(id, v) a, uniq(m) u, quantile(0.5, m) q, topk(3, s) t, countif(m > 1) c,
                   uniqexact(s) FILTER (WHERE n > 10) uf, quantile(0.5, v) FILTER (WHERE id > 1) qf
            FROM cf_ev GROUP BY k) g) x;
-- a WHERE clause sent with it, and HAVING on one of them
EXPLAIN (VERBOSE, COSTS OFF)
SELECT k, uniq(s) FROM cf_ev WHERE n > 5 GROUP BY k HAVING uniq(s) > 1;
SELECT k, uniq(s) FROM cf_ev WHERE n > 5 GROUP BY k HAVING uniq(s) > 1 ORDER BY k;
SELECT ch('SELECT k, uniq(s) FROM ' || :'ch_db' || '.cf_ev WHERE n > 5 GROUP BY k HAVING uniq(s) > 1 ORDER BY k');
-- an expression argument ClickHouse computes
SELECT f, f = ch('SELECT argMax(k, coalesce(m, id)) FROM ' || :'ch_db' || '.cf_ev') AS same
FROM (SELECT argmax(k, coalesce(m, id)) AS f FROM cf_ev) x;

-- ==== not sent: a clear error, never another answer
-- over a local table
CREATE TEMP TABLE cf_local AS SELECT * FROM (VALUES (1, 'a'), (2, 'b')) t(id, k);
SELECT * FROM show_error('SELECT uniq(k) FROM cf_local');
-- no rows at all: the final function raises too
SELECT * FROM show_error('SELECT argmax(k, id) FROM cf_local WHERE false');
-- a run-time level (not a constant): kept local, so it fails
EXPLAIN (VERBOSE, COSTS OFF) SELECT quantile(random(), v) FROM cf_ev;
SELECT * FROM show_error('SELECT quantile(random(), v) FROM cf_ev');
-- a level outside [0, 1], a topK of 0: not sent either
SELECT * FROM show_error('SELECT quantile(1.5, v) FROM cf_ev');
SELECT * FROM show_error('SELECT topk(0, k) FROM cf_ev');
-- DISTINCT, ORDER BY inside the call: not sent
SELECT * FROM show_error('SELECT uniq(DISTINCT k) FROM cf_ev');
SELECT * FROM show_error('SELECT argmax(k, n ORDER BY id) FROM cf_ev');
-- an argument PostgreSQL computes (a volatile function) keeps the aggregate local
SELECT * FROM show_error('SELECT uniq(random()) FROM cf_ev');
-- a join with a local table: the aggregate stays above it, locally
SELECT * FROM show_error('SELECT uniq(e.k) FROM cf_ev e JOIN cf_local l ON l.id = e.id');
-- the scalar functions, called by PostgreSQL
SELECT * FROM show_error($$SELECT dictget('d', 'a', 1)$$);
SELECT * FROM show_error($$SELECT tostartofinterval(now(), interval '1 hour')$$);

-- ==== AggregateFunction columns: IMPORT reads them finalized
SELECT clickhouse_exec(:'ch_setup', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.cf_agg');
SELECT clickhouse_exec(:'ch_setup', 'CREATE TABLE ' || :'ch_db' || '.cf_agg (k UInt8, u AggregateFunction(uniq, UInt64), s AggregateFunction(sum, Int32), q AggregateFunction(quantiles(0.5, 0.9), Float64), a AggregateFunction(argMax, String, Int64)) ENGINE = AggregatingMergeTree ORDER BY k');
-- two inserts: two parts, so one key has two rows until a merge
SELECT clickhouse_exec(:'ch_setup', 'INSERT INTO ' || :'ch_db' || '.cf_agg SELECT number % 3, uniqState(number), sumState(toInt32(number)), quantilesState(0.5, 0.9)(toFloat64(number)), argMaxState(toString(number), toInt64(number)) FROM numbers(20) GROUP BY number % 3');
SELECT clickhouse_exec(:'ch_setup', 'INSERT INTO ' || :'ch_db' || '.cf_agg SELECT number % 2, uniqState(number), sumState(toInt32(number)), quantilesState(0.5, 0.9)(toFloat64(number)), argMaxState(toString(number), toInt64(number)) FROM numbers(10, 20) GROUP BY number % 2');
IMPORT FOREIGN SCHEMA :ch_db LIMIT TO (cf_agg) FROM SERVER ch_cf INTO public;
\d cf_agg
-- a scan: finalizeAggregation(col)
EXPLAIN (VERBOSE, COSTS OFF) SELECT k, u, s, q, a FROM cf_agg;
SELECT f, f = ch('SELECT k, finalizeAggregation(u), finalizeAggregation(s), finalizeAggregation(q), finalizeAggregation(a) FROM ' || :'ch_db' || '.cf_agg ORDER BY k, finalizeAggregation(s)') AS same
FROM (SELECT string_agg(concat_ws(E'\t', k, u, s, q, a), E'\n' ORDER BY k, s) AS f FROM cf_agg) x;
-- grouped: merge_state(col) is <fn>Merge(col)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT k, merge_state(u), merge_state(s), merge_state(q), merge_state(a) FROM cf_agg GROUP BY k;
SELECT f, f = ch('SELECT k, uniqMerge(u), sumMerge(s), quantilesMerge(0.5, 0.9)(q), argMaxMerge(a) FROM ' || :'ch_db' || '.cf_agg GROUP BY k ORDER BY k') AS same
FROM (SELECT string_agg(concat_ws(E'\t', k, u, s, q, a), E'\n' ORDER BY k) AS f
      FROM (SELECT k, merge_state(u) u, merge_state(s) s, merge_state(q) q, merge_state(a) a
            FROM cf_agg GROUP BY k) g) x;
-- over the whole table
SELECT merge_state(u) AS u, ch('SELECT uniqMerge(u) FROM ' || :'ch_db' || '.cf_agg') AS ch FROM cf_agg;
-- a finalized column in a WHERE clause or a PostgreSQL aggregate: PostgreSQL
-- computes it from the finalized values (the state is never compared remotely)
EXPLAIN (VERBOSE, COSTS OFF) SELECT k, sum(s) FROM cf_agg WHERE u > 6 GROUP BY k;
SELECT k, sum(s) FROM cf_agg WHERE u > 6 GROUP BY k ORDER BY k;
-- a state cannot be written from its finalized value: an error, nothing written
SELECT field, value FROM show_error($$INSERT INTO cf_agg (k, s) VALUES (9, 1)$$)
WHERE field IN ('sqlstate', 'message');
SELECT count(*) FROM cf_agg WHERE k = 9;
-- merge_state of a column without the option: not sent, an error
SELECT * FROM show_error('SELECT merge_state(k) FROM cf_agg');
-- the raw state, read without the option: ClickHouse's states are opaque, an error
ALTER FOREIGN TABLE cf_agg ALTER COLUMN u OPTIONS (DROP aggregate);
ALTER FOREIGN TABLE cf_agg ALTER COLUMN u TYPE text;
SELECT field, regexp_replace(value, ' at byte offset [0-9]+', '') FROM show_error('SELECT u FROM cf_agg') WHERE field IN ('sqlstate', 'message');
-- the option takes a function name with numeric parameters only
SELECT * FROM show_error($$ALTER FOREIGN TABLE cf_agg ALTER COLUMN u OPTIONS (ADD aggregate 'uniq) FROM x; --')$$);
SELECT * FROM show_error($$ALTER FOREIGN TABLE cf_agg ALTER COLUMN u OPTIONS (ADD aggregate 'quantiles(0.5')$$);
ALTER FOREIGN TABLE cf_agg ALTER COLUMN u OPTIONS (ADD aggregate 'uniq');
ALTER FOREIGN TABLE cf_agg ALTER COLUMN u TYPE numeric;
SELECT sum(u) FROM (SELECT k, merge_state(u) u FROM cf_agg GROUP BY k) g;

DROP FOREIGN TABLE cf_ev, cf_agg;
DROP TABLE cf_local;
DROP FUNCTION ch(text), tsv(anyelement), show_error(text);
