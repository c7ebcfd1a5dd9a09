-- ====================================================================
-- Loading data on ClickHouse 18.16: digits a column cannot hold
-- (datetime_precision_loss, decimal_precision_loss), and clickhouse_fdw.insert_key
-- refused (no deduplication tokens before 22.2). Live.
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
CREATE SERVER ch_cdc FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_cdc;
-- clickhouse_raw_query (and clickhouse_exec with rows in VALUES) are HTTP-only
-- (the native protocol answers with blocks and takes rows as blocks): they go
-- through this HTTP server on both runs
\getenv http_port CH_HTTP_PORT
CREATE SERVER ch_cdc_http FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port :'http_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_cdc_http;
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE IF EXISTS regress.loss');
SELECT clickhouse_exec('ch_cdc',
  'CREATE TABLE regress.loss (id UInt32, ts DateTime, d Decimal(9, 2)) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE loss (id int, ts timestamptz, d numeric) SERVER ch_cdc OPTIONS (table 'loss');
CREATE FUNCTION loss_rows() RETURNS text LANGUAGE sql AS
$$ SELECT clickhouse_raw_query('ch_cdc_http', 'SELECT id, toUnixTimestamp(ts), d FROM regress.loss ORDER BY id') $$;

-- ==== by default digits that do not fit are an error, never dropped
INSERT INTO loss VALUES (1, '2026-12-01 10:00:00.7+00', 1.00);
INSERT INTO loss VALUES (1, '2026-12-01 10:00:00+00', 1.005);
SELECT loss_rows();
-- ==== truncate: toward the past for time (as date_trunc), toward zero for Decimal (trunc)
ALTER FOREIGN TABLE loss OPTIONS (ADD datetime_precision_loss 'truncate', ADD decimal_precision_loss 'truncate');
INSERT INTO loss VALUES (1, '2026-12-01 10:00:00.7+00', 1.009), (2, '2026-12-01 10:00:00.2+00', -1.009);
-- ==== round: half away from zero (as timestamp(0) and round(numeric, s))
ALTER FOREIGN TABLE loss OPTIONS (SET datetime_precision_loss 'round', SET decimal_precision_loss 'round');
INSERT INTO loss VALUES (3, '2026-12-01 10:00:00.5+00', 1.005), (4, '2026-12-01 10:00:00.4999+00', -1.005);
-- now() has microseconds: a load of now() into DateTime works with the option
INSERT INTO loss SELECT 5, now(), 0;
SELECT loss_rows() ~ E'^1\t1796119200\t1\\.00?\n2\t1796119200\t-1\\.00?\n3\t1796119201\t1\\.01\n4\t1796119200\t-1\\.01\n5\t[0-9]+\t0(\\.00)?\n$' AS as_expected;
-- a column's own option wins over the table's
ALTER FOREIGN TABLE loss ALTER COLUMN ts OPTIONS (ADD datetime_precision_loss 'error');
INSERT INTO loss VALUES (6, '2026-12-01 10:00:00.5+00', 0);
ALTER FOREIGN TABLE loss OPTIONS (SET datetime_precision_loss 'sometimes');
ALTER FOREIGN TABLE loss ALTER COLUMN ts OPTIONS (SET datetime_precision_loss 'never');

-- ==== a ReplacingMergeTree read with FINAL (table option final)
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE IF EXISTS regress.repl');
SELECT clickhouse_exec('ch_cdc',
  'CREATE TABLE regress.repl (id UInt32, name String, version UInt64) ENGINE = ReplacingMergeTree(version) ORDER BY id');
CREATE FOREIGN TABLE repl (id int, name text, version bigint) SERVER ch_cdc OPTIONS (table 'repl');
CREATE FOREIGN TABLE repl_final (id int, name text, version bigint) SERVER ch_cdc
  OPTIONS (table 'repl', final 'on');
INSERT INTO repl VALUES (1, 'ann', 1), (2, 'bob', 1);
INSERT INTO repl VALUES (1, 'anne', 2);
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM repl_final;
SELECT * FROM repl_final ORDER BY id;
SELECT count(*) AS all_versions FROM repl;
ALTER FOREIGN TABLE repl_final OPTIONS (SET final 'perhaps');
SELECT clickhouse_exec('ch_cdc', 'DROP TABLE regress.repl');

-- ==== insert_key needs deduplication tokens (22.2+): refused, nothing sent
SET clickhouse_fdw.insert_key = 'load-1';
INSERT INTO loss VALUES (7, '2026-12-01 10:00:00+00', 0);
RESET clickhouse_fdw.insert_key;
SELECT count(*) FROM loss WHERE id = 7;

SELECT clickhouse_exec('ch_cdc', 'DROP TABLE regress.loss');
DROP FUNCTION loss_rows();
DROP SERVER ch_cdc, ch_cdc_http CASCADE;
