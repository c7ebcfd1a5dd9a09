-- pgTAP: the extension's ClickHouse functions and aggregates (1.3,
-- src/fdw/chfuncs.c): the upgrade from 1.2 creates them, a fresh install
-- has the same ones, and the FDW finds them by OID after either (the
-- OIDs are looked up again after ALTER EXTENSION UPDATE: EXPLAIN of a
-- query over a foreign table shows the remote SQL). Run by test/check.sh
-- with pg_prove; the foreign table is the chfuncs suite's regress.cf_ev of
-- the 18.16 server.
\set ON_ERROR_STOP 1
\set QUIET 1
\pset format unaligned
\pset tuples_only true
\pset pager off
\getenv ch_port CH_HTTP_PORT

BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
SELECT plan(15);

-- the objects of 1.3, as regprocedure text, sorted
CREATE TEMP VIEW chfuncs_objects AS
SELECT p.oid::regprocedure::text AS sig, p.prokind
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
JOIN pg_extension e ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid
WHERE e.extname = 'clickhouse_fdw' AND d.deptype = 'e'
  AND (p.prosrc = 'clickhouse_fdw_ch_only' OR p.prokind = 'a');

-- ==== upgrade 1.2 → 1.3
CREATE EXTENSION clickhouse_fdw VERSION '1.2';
SELECT is((SELECT count(*) FROM chfuncs_objects), 0::bigint, '1.2: no ClickHouse functions');
CREATE SERVER tap_cf FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port', dbname 'regress');
CREATE FOREIGN TABLE tap_cf_t (k text, n bigint) SERVER tap_cf OPTIONS (table 'cf_ev');
CREATE USER MAPPING FOR CURRENT_USER SERVER tap_cf;
-- planned once under 1.2 with a function of no built-in OID: the FDW has
-- looked for its ClickHouse functions, found none
CREATE FUNCTION pg_temp.tap_f(bigint) RETURNS bigint LANGUAGE plpgsql IMMUTABLE AS 'BEGIN RETURN $1; END';
SELECT lives_ok('EXPLAIN SELECT k FROM tap_cf_t WHERE pg_temp.tap_f(n) > 0', 'a plan under 1.2');
ALTER EXTENSION clickhouse_fdw UPDATE TO '1.3';
SELECT is((SELECT extversion FROM pg_extension WHERE extname = 'clickhouse_fdw'), '1.3',
          'updated to 1.3');
CREATE TEMP TABLE upgraded AS SELECT * FROM chfuncs_objects;
SELECT is((SELECT count(*) FROM upgraded WHERE prokind = 'a'), 14::bigint, '1.3: 14 aggregates');
SELECT ok(has_function_privilege('public', 'uniq("any")', 'EXECUTE'), 'uniq is for everybody');
SELECT function_returns('dictget', ARRAY['text', 'text', '"any"'], 'text');
SELECT function_returns('tostartofinterval', ARRAY['timestamp with time zone', 'interval'],
                        'timestamp with time zone');
-- the FDW now knows them: the aggregate is sent
CREATE FUNCTION pg_temp.plan(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text; o text := '';
BEGIN
  FOR r IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP o := o || r || E'\n'; END LOOP;
  RETURN o;
END $$;
SELECT matches(pg_temp.plan('SELECT k, uniq(n) FROM tap_cf_t GROUP BY k'),
               'Remote SQL: SELECT `k`, uniq\(`n`\) FROM `regress`.`cf_ev` GROUP BY `k`',
               'after the update, uniq() is sent');
SELECT throws_ok('SELECT uniq(x) FROM (VALUES (1)) t(x)', '0A000', NULL,
                 'computed by PostgreSQL: feature_not_supported');

-- ==== a fresh 1.3 install has the same objects
SET client_min_messages = warning;
DROP EXTENSION clickhouse_fdw CASCADE;
RESET client_min_messages;
SELECT is((SELECT count(*) FROM chfuncs_objects), 0::bigint, 'dropped');
-- the FDW forgot the OIDs with the functions: a new plan finds nothing stale
CREATE EXTENSION clickhouse_fdw;
SELECT is((SELECT extversion FROM pg_extension WHERE extname = 'clickhouse_fdw'), '1.3',
          'a fresh install is 1.3');
SELECT set_eq('SELECT sig, prokind FROM chfuncs_objects', 'SELECT sig, prokind FROM upgraded',
              'a fresh install and the upgrade have the same ClickHouse functions');
CREATE SERVER tap_cf FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'ch_port', dbname 'regress');
CREATE FOREIGN TABLE tap_cf_t (k text, n bigint) SERVER tap_cf OPTIONS (table 'cf_ev');
CREATE USER MAPPING FOR CURRENT_USER SERVER tap_cf;
SELECT matches(pg_temp.plan('SELECT k, argmax(k, n) FROM tap_cf_t GROUP BY k'),
               'Remote SQL: SELECT `k`, argMax\(`k`, `n`\) FROM `regress`.`cf_ev` GROUP BY `k`',
               'after DROP and CREATE EXTENSION (new OIDs), argmax() is sent');
-- in another schema (the extension is relocatable)
CREATE SCHEMA tap_cf_schema;
ALTER EXTENSION clickhouse_fdw SET SCHEMA tap_cf_schema;
SELECT matches(pg_temp.plan('SELECT k, tap_cf_schema.uniq(n) FROM tap_cf_t GROUP BY k'),
               'uniq\(`n`\)', 'after SET SCHEMA, uniq() is sent');
SELECT is((SELECT count(*) FROM chfuncs_objects c WHERE c.sig LIKE 'tap_cf_schema.%'),
          (SELECT count(*) FROM upgraded), 'every one moved with the extension');

SELECT * FROM finish();
ROLLBACK;
