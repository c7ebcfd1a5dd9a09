-- ====================================================================
-- String functions sent on servers that have them (strfn) on the
-- ClickHouse 26.5 engine (chDB behind test/chdb/front.py, a test harness,
-- not a server): lpad, rpad, repeat, initcap, regexp_match, and
-- ClickHouse's own functions in a plain scan's SELECT list. The body,
-- shared with strfn.sql (18.16), is sql/include/strfn.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_sf FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_sf;
\i sql/include/strfn.sql

-- ==== dictGet of a dictionary in a plain scan's SELECT list (DDL
-- dictionaries: 18.16 has none), compared with the engine's own answer
SELECT clickhouse_exec('ch_sf', 'DROP DICTIONARY IF EXISTS regress_modern.sf_dict');
SELECT clickhouse_exec('ch_sf', 'DROP TABLE IF EXISTS regress_modern.sf_dict_src');
SELECT clickhouse_exec('ch_sf', 'CREATE TABLE regress_modern.sf_dict_src (id UInt64, name String, weight Float64) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_sf', $$INSERT INTO regress_modern.sf_dict_src VALUES (1, 'one', 1.5), (2, 'två', 2.25), (7, 'seven', -7)$$);
SELECT clickhouse_exec('ch_sf', $$CREATE DICTIONARY regress_modern.sf_dict (id UInt64, name String DEFAULT '?', weight Float64 DEFAULT 0) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'sf_dict_src' DB 'regress_modern')) LAYOUT(FLAT()) LIFETIME(0)$$);
CREATE FOREIGN TABLE sfc (id int, m int, s text) SERVER ch_sf OPTIONS (table 'sfc');
CREATE FUNCTION sf_ch(q text) RETURNS text LANGUAGE sql AS
$$ SELECT rtrim(clickhouse_raw_query('ch_sf', q), E'\n') $$;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id, dictget('regress_modern.sf_dict', 'name', m), dictget('regress_modern.sf_dict', 'weight', m)::float8 * 2 FROM sfc;
SELECT id, dictget('regress_modern.sf_dict', 'name', m), dictget('regress_modern.sf_dict', 'weight', m)::float8 * 2 FROM sfc ORDER BY id;
WITH t AS MATERIALIZED (
  SELECT id, dictget('regress_modern.sf_dict', 'name', m) a, dictget('regress_modern.sf_dict', 'weight', m) b,
         upper(dictget('regress_modern.sf_dict', 'name', m)) c
  FROM sfc WHERE s IS NOT NULL)
SELECT f, f = sf_ch($$SELECT id, if(isNull(m), NULL, dictGet('regress_modern.sf_dict', 'name', toUInt64(assumeNotNull(m)))), if(isNull(m), NULL, toString(dictGet('regress_modern.sf_dict', 'weight', toUInt64(assumeNotNull(m))))), upperUTF8(if(isNull(m), NULL, dictGet('regress_modern.sf_dict', 'name', toUInt64(assumeNotNull(m))))) FROM regress_modern.sfc WHERE s IS NOT NULL ORDER BY id FORMAT TSV$$) AS same
FROM (SELECT string_agg(concat_ws(E'\t', id, coalesce(a, '\N'), coalesce(b, '\N'), coalesce(c, '\N')), E'\n' ORDER BY id) AS f
      FROM t) x;
-- ORDER BY it: sorted by PostgreSQL over what ClickHouse computed
SELECT id, dictget('regress_modern.sf_dict', 'name', m) AS n FROM sfc ORDER BY n, id;
-- a dictionary named by a run-time value: not sent, the error
SELECT field, value FROM show_error($$SELECT dictget(s, 'name', m) FROM sfc$$)
WHERE field IN ('sqlstate', 'message');
SELECT clickhouse_exec('ch_sf', 'DROP DICTIONARY regress_modern.sf_dict');
DROP FOREIGN TABLE sfc;
DROP FUNCTION sf_ch(text);
DROP FUNCTION show_error(text);
DROP SERVER ch_sf CASCADE;
