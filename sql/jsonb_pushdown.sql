-- ====================================================================
-- jsonb operators on ClickHouse 18.16. It has no toJSONString (no Map, no
-- JSON type; IMPORT reads Tuples as text there), so a read_as 'json' column
-- cannot be scanned and none of its operators is sent: checked here in the
-- plans (EXPLAIN without running). A String column holding JSON declared
-- jsonb (no read_as) is parsed by PostgreSQL: its operators stay local too.
-- The sent forms are tested on the 26.5 engine: modern_jsonb_pushdown
-- (sql/include/jsonb_pushdown.sql). Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
CREATE SERVER ch_jp FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_jp;
SELECT clickhouse_exec('ch_jp', 'DROP TABLE IF EXISTS regress.jp18');
SELECT clickhouse_exec('ch_jp', 'CREATE TABLE regress.jp18 (id Int32, t Tuple(Int32, String), s String) ENGINE = Memory');
SELECT clickhouse_exec('ch_jp', $$INSERT INTO regress.jp18 VALUES (1, (1, 'a'), '{"a": 1}'), (2, (2, 'b'), '[1, 2]')$$);
CREATE FOREIGN TABLE jp18 (id int, t jsonb OPTIONS (read_as 'json'), s jsonb)
  SERVER ch_jp OPTIONS (table 'jp18');
-- the server has no toJSONString: the scan itself fails there
\i sql/include/show_error.sql
SELECT field, value FROM show_error($$SELECT * FROM jp18$$) WHERE field IN ('sqlstate', 'message');
-- nothing of these is sent (a Filter in each plan)
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM jp18 WHERE t->>0 = '1';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM jp18 WHERE t ? 'a';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM jp18 WHERE jsonb_typeof(t->1) = 'string';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM jp18 WHERE t->1 IS NULL;
-- a String column declared jsonb: PostgreSQL's operators, computed by PostgreSQL
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM jp18 WHERE s->>'a' = '1';
SELECT id FROM jp18 WHERE s->>'a' = '1';
SELECT id FROM jp18 WHERE s ? 'a' OR s->>1 = '2' ORDER BY id;
SELECT clickhouse_exec('ch_jp', 'DROP TABLE regress.jp18');
DROP FUNCTION show_error(text);
DROP SERVER ch_jp CASCADE;
