-- ====================================================================
-- Transport: ClickHouse settings and their precedence, SQL functions,
-- cancel and statement_timeout, connection reuse, compression. Live (see
-- types.sql). On both transports; HTTP's own: transport_http.sql.
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
CREATE SERVER ch_tr FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname 'regress', settings 'max_threads=2');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_tr OPTIONS (settings 'max_block_size=2000');

-- ==== settings: the server's, the user mapping's and the GUC's (each adds
-- names the levels above do not set; sql/security.sql tests overrides),
-- seen in a scan of system.settings
CREATE FOREIGN TABLE cur_settings (name text, value text) SERVER ch_tr
  OPTIONS (database 'system', table 'settings');
SELECT name, value FROM cur_settings WHERE name IN ('max_threads', 'max_block_size', 'max_insert_block_size') ORDER BY name;
SET clickhouse_fdw.settings = 'max_insert_block_size = 3000';
SELECT name, value FROM cur_settings WHERE name IN ('max_threads', 'max_block_size', 'max_insert_block_size') ORDER BY name;
RESET clickhouse_fdw.settings;
-- shapes are checked before anything is sent
SET clickhouse_fdw.settings = 'max threads=3';
SET clickhouse_fdw.settings = 'max_threads';
ALTER SERVER ch_tr OPTIONS (SET settings 'x=');
ALTER USER MAPPING FOR CURRENT_USER SERVER ch_tr OPTIONS (SET settings 'a=1, 2b=3');
-- a setting the server does not know is its error
SET clickhouse_fdw.settings = 'no_such_setting=1';
\set VERBOSITY terse
SELECT count(*) FROM cur_settings;
\set VERBOSITY default
RESET clickhouse_fdw.settings;
-- timeouts
ALTER SERVER ch_tr OPTIONS (ADD connect_timeout '0');
ALTER SERVER ch_tr OPTIONS (ADD connect_timeout '5', ADD receive_timeout '600');

-- ==== clickhouse_exec (clickhouse_raw_query is HTTP-only: transport_http.sql)
SELECT clickhouse_exec('ch_tr', 'CREATE TABLE regress.made_by_exec (a UInt8) ENGINE = Memory');
CREATE FOREIGN TABLE made_by_exec (a int) SERVER ch_tr;
SELECT count(*) FROM made_by_exec;
SELECT clickhouse_exec('ch_tr', 'DROP TABLE regress.made_by_exec');
\set VERBOSITY terse
SELECT clickhouse_exec('ch_tr', 'SELEC 1');
SELECT clickhouse_exec('no_such_server', 'SELECT 1');
\set VERBOSITY default

-- ==== statement_timeout stops the scan within a second, and the query in ClickHouse
CREATE FOREIGN TABLE slow (number numeric) SERVER ch_tr;
CREATE FOREIGN TABLE processes (query text) SERVER ch_tr
  OPTIONS (database 'system', table 'processes');
SET statement_timeout = '300ms';
SELECT now() AS t0 \gset
SELECT count(*) FROM slow;
RESET statement_timeout;
SELECT (clock_timestamp() - :'t0'::timestamptz) < interval '1.3 s' AS returned_within_a_second;
SELECT pg_sleep(0.5);
-- (the query that reads system.processes names "processes"; the slow one does not)
SELECT count(*) AS still_running FROM processes
  WHERE query LIKE '%regress%.%slow%' AND query NOT LIKE '%processes%';

-- ==== one keep-alive connection serves many queries
CREATE FOREIGN TABLE ints (id int) SERVER ch_tr;
SELECT tcp_connects AS before FROM clickhouse_fdw_connections() WHERE server = 'ch_tr' \gset
DO $$ BEGIN FOR i IN 1..20 LOOP PERFORM count(*) FROM ints; END LOOP; END $$;
SELECT handles, tcp_connects - :before AS new_connections, requests >= 20 AS many_requests
  FROM clickhouse_fdw_connections() WHERE server = 'ch_tr';

-- ==== compression: INSERT bodies and responses compressed with lz4 (the
-- default), zstd or not at all, read back whole (how each transport frames
-- them, and HTTP gzip: transport_http.sql)
SELECT clickhouse_exec('ch_tr', 'DROP TABLE IF EXISTS regress.comp');
SELECT clickhouse_exec('ch_tr', 'CREATE TABLE regress.comp (id UInt64, s String) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE comp (id bigint, s text) SERVER ch_tr;
INSERT INTO comp SELECT g, repeat('lz4 ', g % 50) FROM generate_series(1, 20000) g;
ALTER SERVER ch_tr OPTIONS (ADD compression 'zstd', ADD compression_level '3');
INSERT INTO comp SELECT g, repeat('zstd ', g % 50) FROM generate_series(20001, 40000) g;
ALTER SERVER ch_tr OPTIONS (SET compression 'none');
INSERT INTO comp SELECT g, repeat('none ', g % 50) FROM generate_series(40001, 60000) g;
SELECT split_part(s, ' ', 1) AS kind, count(*), sum(id), sum(length(s)) FROM comp GROUP BY 1 ORDER BY 1;
ALTER SERVER ch_tr OPTIONS (SET compression 'lz4');
SELECT split_part(s, ' ', 1) AS kind, count(*), sum(id), sum(length(s)) FROM comp GROUP BY 1 ORDER BY 1;
ALTER SERVER ch_tr OPTIONS (SET compression 'zstd');
SELECT split_part(s, ' ', 1) AS kind, count(*), sum(id), sum(length(s)) FROM comp GROUP BY 1 ORDER BY 1;
ALTER SERVER ch_tr OPTIONS (SET compression 'brotli');
ALTER SERVER ch_tr OPTIONS (SET compression_level '23');
SELECT clickhouse_exec('ch_tr', 'DROP TABLE regress.comp');

DROP SERVER ch_tr CASCADE;
