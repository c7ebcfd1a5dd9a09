-- ====================================================================
-- Loading data (CDC) on the ClickHouse 26.5 engine: with
-- clickhouse_fdw.insert_key a load that failed halfway can be run again
-- as it is, and every row is in ClickHouse once; without a key the re-run
-- writes the committed blocks twice. (A fault test kills the engine's
-- front mid-load: test/fault/fault_test.sh.)
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
CREATE SERVER ch_cdc FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress_modern');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_cdc;
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE IF EXISTS regress_modern.cdc');
SELECT clickhouse_exec('ch_cdc',
  'CREATE TABLE regress_modern.cdc (id UInt64, v String) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 1000');
CREATE FOREIGN TABLE cdc (id bigint, v text) SERVER ch_cdc OPTIONS (batch_size '1000');
CREATE FUNCTION cdc_counts(OUT n bigint, OUT ids bigint, OUT sum_id numeric) LANGUAGE sql AS
$$ SELECT count(*), count(DISTINCT id), sum(id) FROM cdc $$;
-- the source: 5,500 rows; with cdc.fail on, row 3,500 raises an error
SET cdc.fail = 'on';
CREATE VIEW cdc_source AS
  SELECT CASE WHEN g = 3500 AND current_setting('cdc.fail') = 'on' THEN g / 0 ELSE g END AS id,
         'row ' || g AS v
  FROM generate_series(1, 5500) g;

-- ==== a load that fails halfway, run again with the same key
SET clickhouse_fdw.insert_key = 'orders-2026-12-01';
INSERT INTO cdc SELECT * FROM cdc_source;
-- blocks 1-2 are in ClickHouse, block 3 (rows 2001-3000) was in flight
SELECT n IN (2000, 3000) AS partial FROM cdc_counts();
SET cdc.fail = 'off';
INSERT INTO cdc SELECT * FROM cdc_source;
SELECT * FROM cdc_counts();
-- and once more: nothing new
INSERT INTO cdc SELECT * FROM cdc_source;
SELECT * FROM cdc_counts();
-- COPY takes the key too: the same first 1,000 rows are skipped ...
COPY cdc FROM PROGRAM 'seq 1 1000 | sed "s/.*/&\trow &/"';
SELECT * FROM cdc_counts();
-- ... but different rows under the same key and block number are written,
-- not lost (each token holds a hash of its block)
COPY cdc FROM PROGRAM 'seq 10001 10010 | sed "s/.*/&\trow &/"';
SELECT * FROM cdc_counts();
-- the key is per load: another key writes the rows again
SET clickhouse_fdw.insert_key = 'orders-2026-12-01-second';
INSERT INTO cdc SELECT * FROM cdc_source WHERE id <= 10;
SELECT * FROM cdc_counts();

-- ==== without a key the re-run writes the committed blocks twice
SELECT clickhouse_exec('ch_cdc', 'TRUNCATE TABLE regress_modern.cdc');
RESET clickhouse_fdw.insert_key;
SET cdc.fail = 'on';
INSERT INTO cdc SELECT * FROM cdc_source;
SET cdc.fail = 'off';
INSERT INTO cdc SELECT * FROM cdc_source;
SELECT n > 5500 AS duplicated, ids FROM cdc_counts();

-- ==== insert_commit 'transaction': blocks sent at COMMIT carry the key's tokens
SELECT clickhouse_exec('ch_cdc', 'TRUNCATE TABLE regress_modern.cdc');
ALTER FOREIGN TABLE cdc OPTIONS (ADD insert_commit 'transaction');
SET clickhouse_fdw.insert_key = 'deferred-load';
BEGIN;
INSERT INTO cdc SELECT * FROM cdc_source;
COMMIT;
BEGIN;
INSERT INTO cdc SELECT * FROM cdc_source;
COMMIT;
SELECT * FROM cdc_counts();
ALTER FOREIGN TABLE cdc OPTIONS (DROP insert_commit);

-- ==== a block ClickHouse refuses: the error says what is committed and how to resume
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE IF EXISTS regress_modern.cdc_checked');
SELECT clickhouse_exec('ch_cdc',
  'CREATE TABLE regress_modern.cdc_checked (id UInt64, CONSTRAINT small CHECK id < 2500) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 1000');
CREATE FOREIGN TABLE cdc_checked (id bigint) SERVER ch_cdc OPTIONS (batch_size '1000');
SET clickhouse_fdw.insert_key = 'checked-load';
DO $$
DECLARE d text;
BEGIN
  INSERT INTO cdc_checked SELECT g FROM generate_series(1, 5000) g;
EXCEPTION WHEN others THEN
  GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL;
  RAISE NOTICE '%', regexp_replace(regexp_replace(d, 'query id "[^"]*"', 'query id "..."'),
                                   '^.*(2 earlier block)', '... \1');
END $$;
SELECT clickhouse_raw_query('ch_cdc', 'SELECT count(), max(id) FROM regress_modern.cdc_checked');

-- ==== a table that does not deduplicate: the key is refused, not ignored
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE IF EXISTS regress_modern.cdc_plain');
SELECT clickhouse_exec('ch_cdc', 'CREATE TABLE regress_modern.cdc_plain (id UInt64) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE cdc_plain (id bigint) SERVER ch_cdc;
INSERT INTO cdc_plain VALUES (1);
SET clickhouse_fdw.insert_key = 'bad key!';
RESET clickhouse_fdw.insert_key;
INSERT INTO cdc_plain VALUES (1);
SELECT count(*) FROM cdc_plain;

-- ==== sub-second digits DateTime64(3) cannot hold, and Decimal scale
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE IF EXISTS regress_modern.cdc_loss');
SELECT clickhouse_exec('ch_cdc',
  'CREATE TABLE regress_modern.cdc_loss (id UInt32, ts DateTime64(3, ''UTC''), d Decimal(38, 4)) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE cdc_loss (id int, ts timestamptz, d numeric) SERVER ch_cdc OPTIONS (table 'cdc_loss');
INSERT INTO cdc_loss VALUES (1, '1960-06-01 00:00:00.0015+00', 0);
INSERT INTO cdc_loss VALUES (1, '2026-12-01 00:00:00+00', 12345678901234567890.00005);
ALTER FOREIGN TABLE cdc_loss OPTIONS (ADD datetime_precision_loss 'truncate', ADD decimal_precision_loss 'truncate');
INSERT INTO cdc_loss VALUES (1, '1960-06-01 00:00:00.0015+00', 12345678901234567890.00005),
                            (2, '2026-12-01 00:00:00.0019+00', -0.00009);
ALTER FOREIGN TABLE cdc_loss OPTIONS (SET datetime_precision_loss 'round', SET decimal_precision_loss 'round');
INSERT INTO cdc_loss VALUES (3, '1960-06-01 00:00:00.0015+00', 12345678901234567890.00005),
                            (4, '2026-12-01 00:00:00.0014+00', -0.00005);
-- as ClickHouse holds them (the earlier errors wrote nothing)
SELECT clickhouse_raw_query('ch_cdc',
  'SELECT id, toString(ts), toString(d) FROM regress_modern.cdc_loss ORDER BY id');
-- PostgreSQL's own rounding of the same values, for comparison
SELECT '1960-06-01 00:00:00.0015+00'::timestamptz::timestamp(3), round(12345678901234567890.00005, 4),
       '2026-12-01 00:00:00.0014+00'::timestamptz::timestamp(3), round(-0.00005, 4);

-- ==== deletes: lightweight DELETE FROM on servers that have it (23.3+)
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE IF EXISTS regress_modern.cdc_del');
SELECT clickhouse_exec('ch_cdc', 'CREATE TABLE regress_modern.cdc_del (id UInt32, k String) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE cdc_del (id int, k text) SERVER ch_cdc OPTIONS (table 'cdc_del');
INSERT INTO cdc_del SELECT g, CASE WHEN g % 3 = 0 THEN 'gone' ELSE 'kept' END FROM generate_series(1, 30) g;
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM cdc_del WHERE k = 'gone';
DELETE FROM cdc_del WHERE k = 'gone';
SELECT k, count(*) FROM cdc_del GROUP BY k ORDER BY k;
-- it was a lightweight delete: ClickHouse recorded the _row_exists mask, not a rewrite
SELECT clickhouse_raw_query('ch_cdc',
  'SELECT count() > 0 FROM system.mutations WHERE database = ''regress_modern'' AND table = ''cdc_del'' AND position(command, ''_row_exists'') > 0');
-- with a parameter, and with wait_mutations off (the statement returns at once)
ALTER FOREIGN TABLE cdc_del OPTIONS (ADD wait_mutations 'off');
PREPARE del_one(int) AS DELETE FROM cdc_del WHERE id = $1;
EXECUTE del_one(1);
SELECT count(*) FROM cdc_del WHERE id = 1;
ALTER FOREIGN TABLE cdc_del OPTIONS (SET wait_mutations 'maybe');

-- ==== a CDC target: ReplacingMergeTree with a version column (README recipe)
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE IF EXISTS regress_modern.cdc_users');
SELECT clickhouse_exec('ch_cdc',
  'CREATE TABLE regress_modern.cdc_users (id UInt32, name String, version UInt64) ENGINE = ReplacingMergeTree(version) ORDER BY id');
CREATE FOREIGN TABLE cdc_users (id int, name text, version bigint) SERVER ch_cdc OPTIONS (table 'cdc_users');
INSERT INTO cdc_users VALUES (1, 'ann', 1), (2, 'bob', 1);
INSERT INTO cdc_users VALUES (1, 'anne', 2);
-- the latest version per key, whether or not ClickHouse merged the parts yet
SELECT id, (array_agg(name ORDER BY version DESC))[1] AS name, max(version)
  FROM cdc_users GROUP BY id ORDER BY id;
-- or read with FINAL (table option final): ClickHouse merges the versions as it reads
CREATE FOREIGN TABLE cdc_users_final (id int, name text, version bigint) SERVER ch_cdc
  OPTIONS (table 'cdc_users', final 'on');
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM cdc_users_final WHERE id > 0;
SELECT * FROM cdc_users_final ORDER BY id;
SELECT count(*) AS all_versions FROM cdc_users;
SELECT name, count(*) FROM cdc_users_final GROUP BY name ORDER BY name;

-- ==== a CDC target: CollapsingMergeTree with a sign column (README recipe)
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE IF EXISTS regress_modern.cdc_coll');
SELECT clickhouse_exec('ch_cdc',
  'CREATE TABLE regress_modern.cdc_coll (id UInt32, name String, sign Int8) ENGINE = CollapsingMergeTree(sign) ORDER BY id');
CREATE FOREIGN TABLE cdc_coll (id int, name text, sign smallint) SERVER ch_cdc OPTIONS (table 'cdc_coll');
INSERT INTO cdc_coll VALUES (1, 'ann', 1), (2, 'bob', 1);
-- an update: cancel the old row, insert the new one; a delete: cancel only
INSERT INTO cdc_coll VALUES (1, 'ann', -1), (1, 'anne', 1), (2, 'bob', -1);
SELECT id, name FROM cdc_coll GROUP BY id, name HAVING sum(sign) > 0 ORDER BY id;
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE regress_modern.cdc_coll');

-- ==== clean up
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE regress_modern.cdc_del');
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE regress_modern.cdc_users');
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE regress_modern.cdc_loss');
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE regress_modern.cdc');
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE regress_modern.cdc_checked');
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE regress_modern.cdc_plain');
DROP VIEW cdc_source;
DROP FUNCTION cdc_counts();
DROP SERVER ch_cdc CASCADE;
