-- ====================================================================
-- ClickHouse's own functions and aggregates in queries of several
-- relations, on the ClickHouse 26.5 engine (chDB behind test/chdb/front.py,
-- a test harness, not a server). The body, shared with chfuncs_join.sql
-- (18.16), is sql/include/chfuncs_join.sql; then what only modern servers
-- have, over joins: groupBitmap, toStartOfInterval in a join's SELECT
-- list, WHERE, ON and GROUP BY, and dictGet of a DDL dictionary, each
-- compared with the engine's own answer to the same ClickHouse query.
-- Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_cf FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_cf;
\set ch_setup ch_cf
\i sql/include/chfuncs_join.sql

-- ==== groupBitmap (caps.group_bitmap) over a join
EXPLAIN (VERBOSE, COSTS OFF)
SELECT u.name, groupbitmap(e.n) FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.name;
SELECT f, f = ch('SELECT name, groupBitmap(n) ' || :'chj' || ' GROUP BY name ORDER BY name') AS same
FROM (SELECT string_agg(concat_ws(E'\t', name, g), E'\n' ORDER BY name) AS f
      FROM (SELECT u.name, groupbitmap(e.n) g FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.name) x) y;

-- ==== toStartOfInterval (caps.start_of_interval; TimeZone UTC) in a join
-- its SELECT list: computed by ClickHouse, read from the join's row
EXPLAIN (VERBOSE, COSTS OFF)
SELECT e.id, u.name, tostartofinterval(e.ts, interval '1 hour'), tostartofinterval(u.since, interval '1 month')
FROM cj_ev e JOIN cj_u u ON u.uid = e.uid;
-- (a MATERIALIZED CTE: the join's own query, its rows aggregated here)
WITH x AS MATERIALIZED (SELECT e.id, u.name, tostartofinterval(e.ts, interval '1 hour') a, tostartofinterval(u.since, interval '1 month') b
                        FROM cj_ev e JOIN cj_u u ON u.uid = e.uid)
SELECT f, f = ch('SELECT id, name, toDateTime(toStartOfInterval(ts, INTERVAL 1 hour, ''UTC''), ''UTC''), toDateTime(toStartOfInterval(since, INTERVAL 1 month, ''UTC''), ''UTC'') ' || :'chj' || ' ORDER BY id') AS same
FROM (SELECT string_agg(concat_ws(E'\t', id, name, to_char(a, 'YYYY-MM-DD HH24:MI:SS'), to_char(b, 'YYYY-MM-DD HH24:MI:SS')), E'\n' ORDER BY id) AS f
      FROM x) y;
-- with ORDER BY / LIMIT above and an expression PostgreSQL computes over it
EXPLAIN (VERBOSE, COSTS OFF)
SELECT e.id, tostartofinterval(e.ts, interval '1 day') + interval '1 second' AS d
FROM cj_ev e LEFT JOIN cj_u u ON u.uid = e.uid ORDER BY d DESC, e.id LIMIT 3;
SELECT e.id, tostartofinterval(e.ts, interval '1 day') + interval '1 second' AS d,
       date_trunc('day', e.ts) + interval '1 second' AS local
FROM cj_ev e LEFT JOIN cj_u u ON u.uid = e.uid ORDER BY d DESC, e.id LIMIT 3;
-- in a WHERE over both sides and an INNER JOIN's ON
EXPLAIN (VERBOSE, COSTS OFF)
SELECT e.id FROM cj_ev e JOIN cj_u u ON u.uid = e.uid WHERE tostartofinterval(e.ts, interval '1 month') > u.since;
SELECT string_agg(e.id::text, ',' ORDER BY e.id) AS sent,
       ch('SELECT arrayStringConcat(arraySort(groupArray(toString(id))), '','') ' || :'chj' || ' WHERE toDateTime(toStartOfInterval(ts, INTERVAL 1 month, ''UTC''), ''UTC'') > since') AS ch,
       (SELECT string_agg(e.id::text, ',' ORDER BY e.id) FROM cj_ev_l e JOIN cj_u_l u ON u.uid = e.uid
        WHERE date_trunc('month', e.ts) > u.since) AS local
FROM cj_ev e JOIN cj_u u ON u.uid = e.uid WHERE tostartofinterval(e.ts, interval '1 month') > u.since;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT e.id FROM cj_ev e JOIN cj_u u ON u.uid = e.uid AND tostartofinterval(e.ts, interval '1 day') = tostartofinterval(u.since, interval '1 day');
SELECT string_agg(e.id::text, ',' ORDER BY e.id) AS sent,
       (SELECT string_agg(e.id::text, ',' ORDER BY e.id) FROM cj_ev_l e JOIN cj_u_l u ON u.uid = e.uid
        AND date_trunc('day', e.ts) = date_trunc('day', u.since)) AS local
FROM cj_ev e JOIN cj_u u ON u.uid = e.uid AND tostartofinterval(e.ts, interval '1 day') = tostartofinterval(u.since, interval '1 day');
-- as a grouping key of an aggregate over the join, with ClickHouse's aggregates
EXPLAIN (VERBOSE, COSTS OFF)
SELECT tostartofinterval(e.ts, interval '1 month') AS mo, uniqexact(u.name), argmax(u.name, e.n)
FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY mo;
SELECT f, f = ch('SELECT toString(toDateTime(toStartOfInterval(ts, INTERVAL 1 month, ''UTC''), ''UTC'')) AS mo, uniqExact(name), argMax(name, n) ' || :'chj' || ' GROUP BY mo ORDER BY mo') AS same
FROM (SELECT string_agg(concat_ws(E'\t', to_char(mo, 'YYYY-MM-DD HH24:MI:SS'), a, b), E'\n' ORDER BY mo) AS f
      FROM (SELECT tostartofinterval(e.ts, interval '1 month') AS mo, uniqexact(u.name) a, argmax(u.name, e.n) b
            FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY mo) x) y;
-- over a join with a local table: computed above it, refused
SELECT * FROM show_hint($$SELECT e.id, tostartofinterval(e.ts, interval '1 hour') FROM cj_ev e JOIN cj_u_l l ON l.uid = e.uid$$);

-- ==== dictGet of a DDL dictionary in a join
SELECT clickhouse_exec('ch_cf', 'DROP DICTIONARY IF EXISTS regress_modern.cj_dict');
SELECT clickhouse_exec('ch_cf', 'DROP TABLE IF EXISTS regress_modern.cj_dict_src');
SELECT clickhouse_exec('ch_cf', 'CREATE TABLE regress_modern.cj_dict_src (id UInt64, name String, weight Float64) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_cf', $$INSERT INTO regress_modern.cj_dict_src VALUES (1, 'one', 1.5), (2, 'two', 2.5), (3, 'three', 3.5), (7, 'seven', 7.5)$$);
SELECT clickhouse_exec('ch_cf', $$CREATE DICTIONARY regress_modern.cj_dict (id UInt64, name String DEFAULT '?', weight Float64 DEFAULT 0) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'cj_dict_src' DB 'regress_modern')) LAYOUT(FLAT()) LIFETIME(0)$$);
-- its SELECT list (a NULL key is NULL), WHERE over both sides, an aggregate of it
EXPLAIN (VERBOSE, COSTS OFF)
SELECT e.id, u.name, dictget('regress_modern.cj_dict', 'name', e.m), upper(dictget('regress_modern.cj_dict', 'name', u.uid))
FROM cj_ev e JOIN cj_u u ON u.uid = e.uid;
WITH x AS MATERIALIZED (SELECT e.id, u.name, dictget('regress_modern.cj_dict', 'name', e.m) a,
                               upper(dictget('regress_modern.cj_dict', 'name', u.uid)) b
                        FROM cj_ev e JOIN cj_u u ON u.uid = e.uid)
SELECT f, f = ch('SELECT id, name, if(isNull(m), NULL, dictGet(''regress_modern.cj_dict'', ''name'', toUInt64(assumeNotNull(m)))), upper(dictGet(''regress_modern.cj_dict'', ''name'', toUInt64(uid))) ' || :'chj' || ' ORDER BY id') AS same
FROM (SELECT string_agg(concat_ws(E'\t', id, name, tsv(a), tsv(b)), E'\n' ORDER BY id) AS f FROM x) y;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT e.id FROM cj_ev e JOIN cj_u u ON u.uid = e.uid WHERE dictget('regress_modern.cj_dict', 'name', e.m) <> u.name;
SELECT string_agg(e.id::text, ',' ORDER BY e.id) AS sent,
       ch('SELECT arrayStringConcat(arraySort(groupArray(toString(id))), '','') ' || :'chj' || ' WHERE dictGet(''regress_modern.cj_dict'', ''name'', toUInt64(assumeNotNull(m))) != name AND isNotNull(m)') AS ch
FROM cj_ev e JOIN cj_u u ON u.uid = e.uid WHERE dictget('regress_modern.cj_dict', 'name', e.m) <> u.name;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT u.name, uniqexact(dictget('regress_modern.cj_dict', 'name', e.m)) FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.name;
SELECT f, f = ch('SELECT name, uniqExact(if(isNull(m), NULL, dictGet(''regress_modern.cj_dict'', ''name'', toUInt64(assumeNotNull(m))))) ' || :'chj' || ' GROUP BY name ORDER BY name') AS same
FROM (SELECT string_agg(concat_ws(E'\t', name, a), E'\n' ORDER BY name) AS f
      FROM (SELECT u.name, uniqexact(dictget('regress_modern.cj_dict', 'name', e.m)) a
            FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.name) x) y;
SELECT clickhouse_exec('ch_cf', 'DROP DICTIONARY regress_modern.cj_dict');
SELECT clickhouse_exec('ch_cf', 'DROP TABLE regress_modern.cj_dict_src');

DROP FOREIGN TABLE cj_ev, cj_u;
DROP TABLE cj_ev_l, cj_u_l;
DROP FUNCTION ch(text), tsv(anyelement), show_error(text), show_hint(text);
DROP SERVER ch_cf CASCADE;
