-- ====================================================================
-- Transport over HTTP only (transport.sql runs on both transports): which
-- response compression each setting gets from ClickHouse 18.16, HTTP gzip,
-- and TLS over https. Live (see types.sql).
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
CREATE SERVER ch_trh FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_trh;
CREATE SERVER ch_trh_settings FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress', settings 'max_threads=2');

-- ==== clickhouse_raw_query: the text of a FORMAT, ClickHouse's own errors
-- (over TCP it is refused: sql/native.sql), with the settings of every level
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_trh_settings OPTIONS (settings 'max_block_size=2000');
SELECT clickhouse_raw_query('ch_trh_settings',
  'SELECT name, value FROM system.settings WHERE name IN (''max_threads'', ''max_block_size'', ''max_insert_block_size'') ORDER BY name');
SET clickhouse_fdw.settings = 'max_insert_block_size = 3000';
SELECT clickhouse_raw_query('ch_trh_settings',
  'SELECT name, value FROM system.settings WHERE name IN (''max_threads'', ''max_block_size'', ''max_insert_block_size'') ORDER BY name');
SET clickhouse_fdw.settings = 'no_such_setting=1';
\set VERBOSITY terse
SELECT clickhouse_raw_query('ch_trh', 'SELECT 1');
\set VERBOSITY default
RESET clickhouse_fdw.settings;
SELECT clickhouse_exec('ch_trh', 'CREATE TABLE regress.made_by_exec_http (a UInt8) ENGINE = Memory');
SELECT clickhouse_raw_query('ch_trh', 'EXISTS TABLE regress.made_by_exec_http');
SELECT clickhouse_exec('ch_trh', 'DROP TABLE regress.made_by_exec_http');
SELECT clickhouse_raw_query('ch_trh', 'SELECT 1, ''tab'' FORMAT TSVWithNames');
\set VERBOSITY terse
SELECT clickhouse_raw_query('ch_trh', 'SELEC 1');
SELECT clickhouse_raw_query('no_such_server', 'SELECT 1');
\set VERBOSITY default

-- ==== compression: INSERT bodies in ClickHouse's compressed frames
-- (decompress=1), responses as frames where the server can (compress=1),
-- else uncompressed (ClickHouse 18.16's compress=1 is broken); HTTP gzip
-- only with compression 'gzip' (INSERT bodies then in lz4 frames)
SELECT clickhouse_exec('ch_trh', 'DROP TABLE IF EXISTS regress.comp_http');
SELECT clickhouse_exec('ch_trh', 'CREATE TABLE regress.comp_http (id UInt64, s String) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE comp (id bigint, s text) SERVER ch_trh OPTIONS (table 'comp_http');
INSERT INTO comp SELECT g, repeat('lz4 ', g % 50) FROM generate_series(1, 20000) g;
SELECT split_part(s, ' ', 1) AS kind, count(*), sum(id), sum(length(s)) FROM comp GROUP BY 1 ORDER BY 1;
SELECT server_version, response_compression FROM clickhouse_fdw_connections() WHERE server = 'ch_trh';
ALTER SERVER ch_trh OPTIONS (ADD compression 'gzip');
INSERT INTO comp SELECT g, repeat('gzip ', g % 50) FROM generate_series(20001, 40000) g;
SELECT split_part(s, ' ', 1) AS kind, count(*), sum(id), sum(length(s)) FROM comp GROUP BY 1 ORDER BY 1;
SELECT server_version, response_compression FROM clickhouse_fdw_connections() WHERE server = 'ch_trh';
-- insert_format 'rowbinary' sends RowBinary over HTTP (over TCP: Native blocks)
ALTER FOREIGN TABLE comp OPTIONS (ADD insert_format 'rowbinary');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO comp VALUES (1, 'x');
SELECT clickhouse_exec('ch_trh', 'DROP TABLE regress.comp_http');

-- ==== TLS: https with certificate verification (on by default)
\getenv https_port CH_HTTPS_PORT
\getenv ca_file CH_CA_FILE
CREATE SERVER ch_tls FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'https_port', secure 'on', ca_file :'ca_file', dbname 'regress', connect_timeout '2');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_tls OPTIONS (user 'tester', password 'tester_pw');
CREATE FOREIGN TABLE tls_ints (id int) SERVER ch_tls OPTIONS (table 'ints');
SELECT count(*) AS over_tls FROM tls_ints;
-- the test certificate is self-signed: without ca_file it is not trusted
ALTER SERVER ch_tls OPTIONS (DROP ca_file);
-- (the port is masked: checkouts running side by side use other ports)
DO $$ BEGIN PERFORM count(*) FROM tls_ints;
EXCEPTION WHEN others THEN
  RAISE NOTICE '%: %', SQLSTATE, regexp_replace(SQLERRM, ':[0-9]+/', ':<port>/');
END $$;
ALTER SERVER ch_tls OPTIONS (SET secure 'maybe');
DROP SERVER ch_tls CASCADE;

DROP SERVER ch_trh, ch_trh_settings CASCADE;
