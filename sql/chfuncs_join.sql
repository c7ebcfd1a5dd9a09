-- ====================================================================
-- ClickHouse's own functions and aggregates in queries of several
-- relations, on ClickHouse 18.16. The body, shared with
-- modern_chfuncs_join.sql (the 26.5 engine), is
-- sql/include/chfuncs_join.sql; then dictget in a join (18.16's test
-- server has no dictionary: shown sent by EXPLAIN and by ClickHouse's own
-- error), and groupbitmap/tostartofinterval (newer than 18.16) refused.
-- Live.
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT; the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
\set ch_db regress
CREATE SERVER ch_cf FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_cf;
-- the fixtures' statements go over HTTP
\getenv ch_http_port CH_HTTP_PORT
CREATE SERVER ch_cf_setup FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_http_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_cf_setup;
\set ch_setup ch_cf_setup
\i sql/include/chfuncs_join.sql

-- ==== dictget in a join ClickHouse computes: its SELECT list, its WHERE
-- over both sides, an INNER JOIN's ON; sent (the answer is ClickHouse's:
-- this server has no dictionary d, so ClickHouse raises, not PostgreSQL)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT e.id, u.name, upper(dictget('d', 'a', e.id)) FROM cj_ev e JOIN cj_u u ON u.uid = e.uid;
SELECT field, value FROM show_error($$SELECT e.id, u.name, upper(dictget('d', 'a', e.id)) FROM cj_ev e JOIN cj_u u ON u.uid = e.uid$$)
WHERE field IN ('sqlstate', 'message');
EXPLAIN (VERBOSE, COSTS OFF)
SELECT e.id FROM cj_ev e JOIN cj_u u ON u.uid = e.uid WHERE dictget('d', 'a', e.id) = u.name;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT e.id FROM cj_ev e JOIN cj_u u ON u.uid = e.uid AND dictget('d', 'a', e.m) = u.grp;
SELECT field, value FROM show_error($$SELECT e.id FROM cj_ev e JOIN cj_u u ON u.uid = e.uid AND dictget('d', 'a', e.m) = u.grp$$)
WHERE field IN ('sqlstate', 'message');
-- an aggregate of it over the join
EXPLAIN (VERBOSE, COSTS OFF)
SELECT u.name, uniq(dictget('d', 'a', e.id)) FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.name;
-- 18.16 has no groupBitmap and no toStartOfInterval (caps): not sent over
-- a join either, PostgreSQL is asked and refuses
SELECT field, value FROM show_error($$SELECT clickhouse_raw_query('ch_cf_setup', 'SELECT groupBitmap(toUInt64(n)) FROM regress.cj_ev')$$)
WHERE field IN ('sqlstate', 'message');
SELECT * FROM show_hint('SELECT u.name, groupbitmap(e.n) FROM cj_ev e JOIN cj_u u ON u.uid = e.uid GROUP BY u.name');
SELECT * FROM show_hint($$SELECT e.id, tostartofinterval(e.ts, interval '1 hour') FROM cj_ev e JOIN cj_u u ON u.uid = e.uid$$);

DROP FOREIGN TABLE cj_ev, cj_u;
DROP TABLE cj_ev_l, cj_u_l;
DROP FUNCTION ch(text), tsv(anyelement), show_error(text), show_hint(text);
DROP SERVER ch_cf CASCADE;
DROP SERVER ch_cf_setup CASCADE;
