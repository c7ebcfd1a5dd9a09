-- ====================================================================
-- ClickHouse's own functions and aggregates on the ClickHouse 26.5 engine
-- (chDB behind test/chdb/front.py, a test harness, not a server). The body,
-- shared with chfuncs.sql (18.16), is sql/include/chfuncs.sql; then what
-- only modern servers have: groupBitmap, toStartOfInterval, and dictGet of
-- a dictionary (DDL dictionaries: 18.16 has none). Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_cf FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_cf;
\set ch_setup ch_cf
\i sql/include/chfuncs.sql
\i sql/include/show_error.sql
CREATE FUNCTION ch(q text) RETURNS text LANGUAGE sql AS
$$ SELECT translate(rtrim(clickhouse_raw_query('ch_cf', q), E'\n'), '[]''', '{}') $$;
CREATE FUNCTION tsv(x anyelement) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT coalesce(x::text, '\N') $$;
IMPORT FOREIGN SCHEMA regress_modern LIMIT TO (cf_ev) FROM SERVER ch_cf INTO public;

-- ==== groupBitmap (caps.group_bitmap)
EXPLAIN (VERBOSE, COSTS OFF) SELECT k, groupbitmap(n) FROM cf_ev GROUP BY k;
SELECT f, f = ch('SELECT k, groupBitmap(n) FROM regress_modern.cf_ev GROUP BY k ORDER BY k') AS same
FROM (SELECT string_agg(concat_ws(E'\t', k, g), E'\n' ORDER BY k) AS f
      FROM (SELECT k, groupbitmap(n) g FROM cf_ev GROUP BY k) s) x;

-- ==== toStartOfInterval in the session's zone (caps.start_of_interval)
-- In WHERE, in the arguments of an aggregate sent and in a plain scan's
-- SELECT list (strfn: sql/include/strfn.sql) ClickHouse computes it.
-- Every row's value, through GROUP BY id:
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id, any_value(tostartofinterval(ts, interval '15 minutes')) FROM cf_ev GROUP BY id;
SELECT f, f = ch($$SELECT id, toDateTime(toStartOfInterval(ts, INTERVAL 15 minute, 'UTC'), 'UTC'), toDateTime(toStartOfInterval(ts, INTERVAL 2 hour, 'UTC'), 'UTC'), toDateTime(toStartOfInterval(ts, INTERVAL 1 day, 'UTC'), 'UTC'), toDateTime(toStartOfInterval(ts, INTERVAL 1 month, 'UTC'), 'UTC'), toDateTime(toStartOfInterval(ts, INTERVAL 1 year, 'UTC'), 'UTC'), toDateTime(toStartOfInterval(ts, INTERVAL 30 second, 'UTC'), 'UTC') FROM regress_modern.cf_ev ORDER BY id$$) AS same
FROM (SELECT string_agg(concat_ws(E'\t', id, to_char(a, 'YYYY-MM-DD HH24:MI:SS'), to_char(b, 'YYYY-MM-DD HH24:MI:SS'),
                                  to_char(c, 'YYYY-MM-DD HH24:MI:SS'), to_char(d, 'YYYY-MM-DD HH24:MI:SS'),
                                  to_char(e, 'YYYY-MM-DD HH24:MI:SS'), to_char(g, 'YYYY-MM-DD HH24:MI:SS')), E'\n' ORDER BY id) AS f
      FROM (SELECT id, any_value(tostartofinterval(ts, interval '15 minutes')) a,
                   any_value(tostartofinterval(ts, interval '2 hours')) b,
                   any_value(tostartofinterval(ts, interval '1 day')) c,
                   any_value(tostartofinterval(ts, interval '1 month')) d,
                   any_value(tostartofinterval(ts, interval '1 year')) e,
                   any_value(tostartofinterval(ts, interval '30 seconds')) g
            FROM cf_ev GROUP BY id) s) x;
-- in a WHERE clause (planning asks the server's capabilities: it connects)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM cf_ev WHERE tostartofinterval(ts, interval '1 hour') > '2024-01-01 10:00:00+00';
SELECT f, f = ch($$SELECT id FROM regress_modern.cf_ev WHERE toStartOfInterval(ts, INTERVAL 1 hour, 'UTC') > toDateTime('2024-01-01 10:00:00', 'UTC') ORDER BY id$$) AS same
FROM (SELECT string_agg(id::text, E'\n' ORDER BY id) AS f FROM cf_ev
      WHERE tostartofinterval(ts, interval '1 hour') > '2024-01-01 10:00:00+00') x;
-- in another session zone: not sent (the zone the SQL names is the
-- session's, only when it is UTC: pushdown_map.c, CHFN_UTC), so an error
SET timezone = 'Asia/Tokyo';
SELECT field, value FROM show_error($$SELECT id, any_value(tostartofinterval(ts, interval '1 day')) FROM cf_ev GROUP BY id$$)
WHERE field IN ('sqlstate', 'message');
SET timezone = 'UTC';
-- in a plain scan's SELECT list: computed by ClickHouse, no error (strfn)
SELECT field, value FROM show_error($$SELECT tostartofinterval(ts, interval '1 hour') FROM cf_ev$$)
WHERE field IN ('sqlstate', 'message');
-- an interval of two units has no ClickHouse form: not sent, an error
SELECT field, value FROM show_error($$SELECT tostartofinterval(ts, interval '1 day 2 hours') FROM cf_ev$$)
WHERE field IN ('sqlstate', 'message');

-- ==== dictGet of a dictionary, as text
SELECT clickhouse_exec('ch_cf', 'DROP DICTIONARY IF EXISTS regress_modern.cf_dict');
SELECT clickhouse_exec('ch_cf', 'DROP TABLE IF EXISTS regress_modern.cf_dict_src');
SELECT clickhouse_exec('ch_cf', 'CREATE TABLE regress_modern.cf_dict_src (id UInt64, name String, weight Float64) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_cf', $$INSERT INTO regress_modern.cf_dict_src VALUES (1, 'one', 1.5), (2, 'two', 2.25), (7, 'seven', -7)$$);
SELECT clickhouse_exec('ch_cf', $$CREATE DICTIONARY regress_modern.cf_dict (id UInt64, name String DEFAULT '?', weight Float64 DEFAULT 0) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'cf_dict_src' DB 'regress_modern')) LAYOUT(FLAT()) LIFETIME(0)$$);
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id, any_value(dictget('regress_modern.cf_dict', 'name', m)) FROM cf_ev GROUP BY id;
SELECT f, f = ch($$SELECT id, if(isNull(m), NULL, dictGet('regress_modern.cf_dict', 'name', toUInt64(assumeNotNull(m)))), if(isNull(m), NULL, toString(dictGet('regress_modern.cf_dict', 'weight', toUInt64(assumeNotNull(m))))) FROM regress_modern.cf_ev ORDER BY id$$) AS same
FROM (SELECT string_agg(concat_ws(E'\t', id, tsv(a), tsv(b)), E'\n' ORDER BY id) AS f
      FROM (SELECT id, any_value(dictget('regress_modern.cf_dict', 'name', m)) a,
                   any_value(dictget('regress_modern.cf_dict', 'weight', m)) b
            FROM cf_ev GROUP BY id) s) x;
-- in a WHERE clause
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM cf_ev WHERE dictget('regress_modern.cf_dict', 'name', m) = 'seven';
SELECT id FROM cf_ev WHERE dictget('regress_modern.cf_dict', 'name', m) = 'seven' ORDER BY id;
-- a dictionary named by a run-time value: not sent, an error
SELECT field, value FROM show_error($$SELECT dictget(k, 'name', m) FROM cf_ev$$)
WHERE field IN ('sqlstate', 'message');
SELECT clickhouse_exec('ch_cf', 'DROP DICTIONARY regress_modern.cf_dict');
DROP FOREIGN TABLE cf_ev;
DROP FUNCTION ch(text), tsv(anyelement), show_error(text);
DROP SERVER ch_cf CASCADE;
