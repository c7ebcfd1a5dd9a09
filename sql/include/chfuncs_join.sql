-- ====================================================================
-- Body of chfuncs_join.sql (ClickHouse 18.16) and modern_chfuncs_join.sql
-- (the 26.5 engine behind test/chdb/front.py, a test harness, not a
-- server): ClickHouse's own aggregates and functions (src/fdw/chfuncs.c)
-- in queries of several relations. Over a join of foreign tables of one
-- server that ClickHouse computes: aggregates of the join's columns
-- (grouped, ungrouped, FILTER, HAVING, LEFT and three-table joins), each
-- checked sent (EXPLAIN VERBOSE: one Foreign Scan, "Aggregate on (...
-- JOIN ...)") and its answer compared with ClickHouse's own answer to the
-- same join written in ClickHouse SQL (clickhouse_raw_query), and where a
-- local copy can say it (uniqexact = count(DISTINCT), countif = count(*)
-- FILTER) with PostgreSQL's answer over local copies too. Where such a
-- query cannot be sent (a local table, tables of two servers, a part
-- PostgreSQL computes) the 0A000 error and its hint naming the reason.
-- The caller has created server ch_cf and set :ch_db and :ch_setup (a
-- server over HTTP for the fixtures' statements).
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
\i sql/include/show_error.sql
-- the error's SQLSTATE, message and hint
CREATE FUNCTION show_hint(q text) RETURNS TABLE (field text, value text)
LANGUAGE plpgsql AS $$
DECLARE
  s text; m text; h text;
BEGIN
  EXECUTE q;
EXCEPTION WHEN others THEN
  GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT, h = PG_EXCEPTION_HINT;
  RETURN QUERY VALUES ('sqlstate', s), ('message', m), ('hint', h);
END $$;
-- ClickHouse's answer to q: TabSeparated, arrays as {a,b} (no quotes)
SELECT format($f$CREATE FUNCTION ch(q text) RETURNS text LANGUAGE sql AS
$b$ SELECT translate(rtrim(clickhouse_raw_query(%L, q), E'\n'), '[]''', '{}') $b$$f$, :'ch_setup') \gexec
-- NULL as TabSeparated writes it
CREATE FUNCTION tsv(x anyelement) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT coalesce(x::text, '\N') $$;

SELECT clickhouse_exec(:'ch_setup', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.cj_ev');
SELECT clickhouse_exec(:'ch_setup', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.cj_u');
SELECT clickhouse_exec(:'ch_setup', 'CREATE TABLE ' || :'ch_db' || '.cj_ev (id Int32, k String, v Nullable(Float64), n Int64, m Nullable(Int32), s Nullable(String), uid Int32, ts DateTime(''UTC'')) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec(:'ch_setup', 'CREATE TABLE ' || :'ch_db' || '.cj_u (uid Int32, name String, grp Nullable(String), since DateTime(''UTC'')) ENGINE = MergeTree ORDER BY uid');
-- users: ann has 3 events, bob and cy 2, dee none; uid 9's user is
-- missing; one of ann's events (id 8) and one of bob's (id 2) have only
-- NULLs in v, m and s; cy's grp is NULL
SELECT clickhouse_exec(:'ch_setup', 'INSERT INTO ' || :'ch_db' || '.cj_ev VALUES
  (1, ''a'', 1.5, 10, 7, ''x'', 1, ''2024-01-01 10:07:00''),
  (2, ''a'', NULL, 20, NULL, NULL, 2, ''2024-01-01 10:20:00''),
  (3, ''a'', 2.5, 30, 7, ''y'', 1, ''2024-01-01 10:31:10''),
  (4, ''b'', 3.25, 40, 1, ''x'', 3, ''2024-01-02 00:00:00''),
  (5, ''b'', 4, 5, 2, ''x'', 2, ''2024-02-01 12:00:00''),
  (6, ''b'', -1, 50, 2, ''z'', 9, ''2024-03-31 23:59:59''),
  (7, ''b'', 0, 60, 3, ''x'', 3, ''2024-04-01 00:00:00''),
  (8, ''c'', NULL, 70, NULL, NULL, 1, ''2025-06-15 08:30:00'')');
SELECT clickhouse_exec(:'ch_setup', 'INSERT INTO ' || :'ch_db' || '.cj_u VALUES
  (1, ''ann'', ''g1'', ''2024-01-01 00:00:00''), (2, ''bob'', ''g1'', ''2024-02-01 00:00:00''),
  (3, ''cy'', NULL, ''2024-01-01 00:00:00''), (4, ''dee'', ''g2'', ''2024-01-01 00:00:00'')');
IMPORT FOREIGN SCHEMA :ch_db LIMIT TO (cj_ev, cj_u) FROM SERVER ch_cf INTO public;
-- local copies (the same rows)
CREATE TEMP TABLE cj_ev_l AS SELECT * FROM cj_ev;
CREATE TEMP TABLE cj_u_l AS SELECT * FROM cj_u;
-- the same joins in ClickHouse SQL (USING: the key column once)
SELECT format('FROM %1$s.cj_ev ALL INNER JOIN (SELECT uid, name, grp, since FROM %1$s.cj_u) AS uu USING uid', :'ch_db') AS chj,
       format('FROM %1$s.cj_ev ALL LEFT JOIN (SELECT uid, name, grp, since FROM %1$s.cj_u) AS uu USING uid', :'ch_db') AS chl \gset

-- ==== aggregates over a join ClickHouse computes, grouped
EXPLAIN (VERBOSE, COSTS OFF)
SELECT u.name, argmax(e.k, e.n), argmin(e.s, e.n), uniq(e.s), uniqexact(e.k, e.m), uniqcombined(e.v)
FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.name;
SELECT f, f = ch('SELECT name, argMax(k, n), argMin(s, n), uniq(s), uniqExact(k, m), uniqCombined(v) ' || :'chj' || ' GROUP BY name ORDER BY name') AS same
FROM (SELECT string_agg(concat_ws(E'\t', name, tsv(a), tsv(b), tsv(c), tsv(d), tsv(g)), E'\n' ORDER BY name) AS f
      FROM (SELECT u.name, argmax(e.k, e.n) a, argmin(e.s, e.n) b, uniq(e.s) c, uniqexact(e.k, e.m) d, uniqcombined(e.v) g
            FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.name) x) y;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT u.name, quantile(0.5, e.v), quantiles(ARRAY[0.1, 0.5, 1], e.m), quantileexact(0.5, e.n), topk(1, e.k),
       any_value(u.grp), anylast(u.uid), countif(e.v > 1)
FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.name;
SELECT f, f = ch('SELECT name, toFloat64(quantile(0.5)(v)), quantiles(0.1, 0.5, 1)(m), quantileExact(0.5)(n), topK(1)(k), any(grp), anyLast(uid), countIf(ifNull(v > 1, 0)) ' || :'chj' || ' GROUP BY name ORDER BY name') AS same
FROM (SELECT string_agg(concat_ws(E'\t', name, tsv(a), tsv(b), tsv(c), tsv(d), tsv(g), tsv(h), tsv(i)), E'\n' ORDER BY name) AS f
      FROM (SELECT u.name, quantile(0.5, e.v) a, quantiles(ARRAY[0.1, 0.5, 1], e.m) b, quantileexact(0.5, e.n) c,
                   topk(1, e.k) d, any_value(u.grp) g, anylast(u.uid) h, countif(e.v > 1) i
            FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.name) x) y;
-- the same answers from the local copies, where PostgreSQL has the function:
-- uniqexact is count(DISTINCT), countif count(*) FILTER, any_value of a
-- grouping key the key (uniqexact's multi-column form counts distinct pairs
-- with NULLs: a row of both, as ClickHouse hashes them)
SELECT count(*) AS groups,
       count(*) FILTER (WHERE r.ue = l.ue AND r.ci = l.ci AND r.an = l.an) AS same
FROM (SELECT u.name, uniqexact(e.s) ue, countif(e.m >= 2) ci, any_value(u.name) an
      FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.name) r
JOIN (SELECT u.name, count(DISTINCT e.s) ue, count(*) FILTER (WHERE e.m >= 2) ci, u.name an
      FROM cj_ev_l e JOIN cj_u_l u ON u.uid = e.uid GROUP BY u.name) l USING (name);
-- FILTER as the -If combinator, over a column of the other side; HAVING
EXPLAIN (VERBOSE, COSTS OFF)
SELECT u.grp, uniqexact(e.s) FILTER (WHERE u.name <> 'bob'), quantile(0.5, e.n) FILTER (WHERE e.id > 1)
FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.grp HAVING uniq(e.k) > 1;
SELECT f, f = ch('SELECT grp, uniqExactIf(s, name != ''bob''), toFloat64(quantileIf(0.5)(n, id > 1)) ' || :'chj' || ' GROUP BY grp HAVING uniq(k) > 1 ORDER BY grp') AS same
FROM (SELECT string_agg(concat_ws(E'\t', tsv(grp), tsv(a), tsv(b)), E'\n' ORDER BY grp) AS f
      FROM (SELECT u.grp, uniqexact(e.s) FILTER (WHERE u.name <> 'bob') a, quantile(0.5, e.n) FILTER (WHERE e.id > 1) b
            FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.grp HAVING uniq(e.k) > 1) x) y;
-- ungrouped, with a WHERE over both sides
EXPLAIN (VERBOSE, COSTS OFF)
SELECT uniq(e.s), topk(1, u.name), argmax(u.name, e.n), countif(u.grp = 'g1')
FROM cj_ev e JOIN cj_u u ON u.uid = e.uid WHERE e.n > u.uid AND e.k <> u.name;
SELECT f, f = ch('SELECT uniq(s), topK(1)(name), argMax(name, n), countIf(ifNull(grp = ''g1'', 0)) ' || :'chj' || ' WHERE n > uid AND k != name') AS same
FROM (SELECT concat_ws(E'\t', tsv(uniq(e.s)), tsv(topk(1, u.name)), tsv(argmax(u.name, e.n)), tsv(countif(u.grp = 'g1'))) AS f
      FROM cj_ev e JOIN cj_u u ON u.uid = e.uid WHERE e.n > u.uid AND e.k <> u.name) x;
-- a LEFT JOIN: the missing side's columns are NULL (join_use_nulls)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT e.k, argmax(u.name, e.n), uniq(u.name), countif(u.name IS NULL) FROM cj_ev e LEFT JOIN cj_u u ON u.uid = e.uid GROUP BY e.k;
SELECT f, f = ch('SELECT k, argMax(name, n), uniq(name), countIf(isNull(name)) ' || :'chl' || ' GROUP BY k ORDER BY k SETTINGS join_use_nulls = 1') AS same
FROM (SELECT string_agg(concat_ws(E'\t', k, tsv(a), tsv(b), tsv(c)), E'\n' ORDER BY k) AS f
      FROM (SELECT e.k, argmax(u.name, e.n) a, uniq(u.name) b, countif(u.name IS NULL) c
            FROM cj_ev e LEFT JOIN cj_u u ON u.uid = e.uid GROUP BY e.k) x) y;
-- three tables (on 18.16 one JOIN per SELECT: nested sub-SELECTs)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT u.name, uniqexact(e2.k), argmin(e2.id, e2.n) FROM cj_ev e JOIN cj_u u ON u.uid = e.uid JOIN cj_ev e2 ON e2.id = e.uid GROUP BY u.name;
SELECT f, f = ch(format('SELECT name, uniqExact(k2), argMin(id2, n2) FROM (SELECT name, uid AS id2 %s) AS j1 ALL INNER JOIN (SELECT id AS id2, k AS k2, n AS n2 FROM %s.cj_ev) AS j2 USING id2 GROUP BY name ORDER BY name', :'chj', :'ch_db')) AS same
FROM (SELECT string_agg(concat_ws(E'\t', name, tsv(a), tsv(b)), E'\n' ORDER BY name) AS f
      FROM (SELECT u.name, uniqexact(e2.k) a, argmin(e2.id, e2.n) b
            FROM cj_ev e JOIN cj_u u ON u.uid = e.uid JOIN cj_ev e2 ON e2.id = e.uid GROUP BY u.name) x) y;
-- uniqexact over the three-table join = count(DISTINCT) over the local copies
SELECT (SELECT string_agg(name || '=' || a, ',' ORDER BY name) FROM (SELECT u.name, uniqexact(e2.k) a
          FROM cj_ev e JOIN cj_u u ON u.uid = e.uid JOIN cj_ev e2 ON e2.id = e.uid GROUP BY u.name) x) AS sent,
       (SELECT string_agg(name || '=' || a, ',' ORDER BY name) FROM (SELECT u.name, count(DISTINCT e2.k) a
          FROM cj_ev_l e JOIN cj_u_l u ON u.uid = e.uid JOIN cj_ev_l e2 ON e2.id = e.uid GROUP BY u.name) x) AS local;
-- an expression over both sides as the argument, and over the aggregate
EXPLAIN (VERBOSE, COSTS OFF)
SELECT u.name, argmax(u.name || e.k, coalesce(e.m, u.uid)), uniq(e.k) * 10 FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.name;
SELECT f, f = ch('SELECT name, argMax(concat(name, k), coalesce(m, uid)), uniq(k) * 10 ' || :'chj' || ' GROUP BY name ORDER BY name') AS same
FROM (SELECT string_agg(concat_ws(E'\t', name, a, b), E'\n' ORDER BY name) AS f
      FROM (SELECT u.name, argmax(u.name || e.k, coalesce(e.m, u.uid)) a, uniq(e.k) * 10 b
            FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.name) x) y;
-- SEMI join (EXISTS): the aggregate over the outer side
EXPLAIN (VERBOSE, COSTS OFF)
SELECT uniqexact(u.name), topk(1, u.grp) FROM cj_u u WHERE EXISTS (SELECT 1 FROM cj_ev e WHERE e.uid = u.uid);
SELECT concat_ws(E'\t', uniqexact(u.name), topk(1, u.grp)) AS f,
       (SELECT count(DISTINCT name) FROM cj_u_l u WHERE EXISTS (SELECT 1 FROM cj_ev_l e WHERE e.uid = u.uid)) AS local
FROM cj_u u WHERE EXISTS (SELECT 1 FROM cj_ev e WHERE e.uid = u.uid);

-- ==== not sent: the 0A000 error, its hint naming why, never an answer
-- a join with a local table: the aggregate above it runs in PostgreSQL
EXPLAIN (VERBOSE, COSTS OFF) SELECT l.name, uniq(e.s) FROM cj_ev e JOIN cj_u_l l ON l.uid = e.uid GROUP BY l.name;
SELECT * FROM show_hint('SELECT l.name, uniq(e.s) FROM cj_ev e JOIN cj_u_l l ON l.uid = e.uid GROUP BY l.name');
SELECT * FROM show_hint('SELECT argmax(l.name, e.n) FROM cj_ev e LEFT JOIN cj_u_l l ON l.uid = e.uid');
-- ... and what the hint proposes: the aggregate in a subquery over the
-- foreign table, joined with the local table (sent, equal)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT l.name, x.u FROM (SELECT uid, uniq(s) u FROM cj_ev GROUP BY uid) x JOIN cj_u_l l ON l.uid = x.uid;
SELECT l.name, x.u, (SELECT count(DISTINCT s) FROM cj_ev_l WHERE uid = l.uid) AS local
FROM (SELECT uid, uniq(s) u FROM cj_ev GROUP BY uid) x JOIN cj_u_l l ON l.uid = x.uid ORDER BY l.name;
-- foreign tables of two servers (the same ClickHouse, two servers):
-- PostgreSQL joins them (ch_cf2: ch_cf's options, not shown: its port)
DO $$ BEGIN
EXECUTE (SELECT format('CREATE SERVER ch_cf2 FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (%s)',
                       string_agg(format('%s %L', split_part(o, '=', 1), substr(o, strpos(o, '=') + 1)), ', '))
         FROM pg_foreign_server, unnest(srvoptions) o WHERE srvname = 'ch_cf');
END $$;
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_cf2;
CREATE FOREIGN TABLE cj_u2 (uid int, name text) SERVER ch_cf2 OPTIONS (table 'cj_u');
EXPLAIN (VERBOSE, COSTS OFF) SELECT u.name, uniq(e.s) FROM cj_ev e JOIN cj_u2 u ON u.uid = e.uid GROUP BY u.name;
SELECT * FROM show_hint('SELECT u.name, uniq(e.s) FROM cj_ev e JOIN cj_u2 u ON u.uid = e.uid GROUP BY u.name');
-- one server, but a part PostgreSQL computes: a condition (integer
-- arithmetic stays local: PostgreSQL's overflow error), a volatile
-- argument, an ORDER BY inside the call
EXPLAIN (VERBOSE, COSTS OFF) SELECT uniq(e.s) FROM cj_ev e JOIN cj_u u ON u.uid = e.uid WHERE e.n > u.uid * 10;
SELECT * FROM show_hint('SELECT uniq(e.s) FROM cj_ev e JOIN cj_u u ON u.uid = e.uid WHERE e.n > u.uid * 10');
SELECT * FROM show_hint('SELECT u.name, uniq(e.k || random()::text) FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.name');
SELECT * FROM show_hint('SELECT argmax(e.k, e.n ORDER BY u.name) FROM cj_ev e JOIN cj_u u ON u.uid = e.uid');
-- merge_state needs an AggregateFunction column of a single table's scan
SELECT * FROM show_hint('SELECT merge_state(e.k) FROM cj_ev e JOIN cj_u u ON u.uid = e.uid');
-- no foreign table at all
SELECT * FROM show_hint('SELECT uniq(name) FROM cj_u_l');
-- the scalar functions, over a join with a local table (computed above it)
SELECT * FROM show_hint($$SELECT e.id, dictget('d', 'a', e.id) FROM cj_ev e JOIN cj_u_l l ON l.uid = e.uid$$);
-- a condition per pair of rows in a LEFT JOIN's ON: the join stays local,
-- and the condition with it
EXPLAIN (VERBOSE, COSTS OFF)
SELECT e.id FROM cj_ev e LEFT JOIN cj_u u ON u.uid = e.uid AND dictget('d', 'a', e.id) = u.name;
SELECT * FROM show_hint($$SELECT e.id FROM cj_ev e LEFT JOIN cj_u u ON u.uid = e.uid AND dictget('d', 'a', e.id) = u.name$$);

-- the hint is the running statement's: a PL/pgSQL function's own
-- expression (no foreign table), called from a join ClickHouse computes
CREATE FUNCTION cj_inner(i int) RETURNS text LANGUAGE plpgsql AS
$$ BEGIN RETURN dictget('d', 'a', i); END $$;
SELECT * FROM show_hint('SELECT cj_inner(e.id) FROM cj_ev e JOIN cj_u u ON u.uid = e.uid');
DROP FUNCTION cj_inner(int);

DROP FOREIGN TABLE cj_u2;
DROP SERVER ch_cf2 CASCADE;
