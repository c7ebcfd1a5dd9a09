-- ====================================================================
-- transport 'native': ClickHouse's TCP protocol behind the same FDW
-- (src/transport/tcp.c). Options and default ports, scans, inserts
-- (insert_format 'rowbinary' falls back to Native blocks), errors, what
-- only HTTP can do, cancel and early stops on the same connection, the
-- ping of an idle connection, TLS with certificate verification. Live
-- (ClickHouse 18.16; `bash test/servers.sh env` names the ports).
-- ====================================================================
\getenv tcp_port CH_TCP_PORT
\getenv http_port CH_HTTP_PORT
CREATE SERVER ch_nat FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport 'native', port :'tcp_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_nat;
-- the same ClickHouse over HTTP, to look at what the native side wrote
CREATE SERVER ch_nat_http FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'http_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_nat_http;

-- ==== default ports: 9000, and 9440 with secure (nothing listens there
-- in the test setup: the error names the address it tried)
CREATE SERVER ch_nat_default FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (host '127.0.0.1', transport 'native', connect_timeout '2');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_nat_default;
CREATE FOREIGN TABLE nat_default (id int) SERVER ch_nat_default OPTIONS (table 'ints');
DO $$ BEGIN PERFORM count(*) FROM nat_default;
EXCEPTION WHEN others THEN
  RAISE NOTICE 'tried port 9000: %', position('127.0.0.1:9000' in SQLERRM) > 0;
END $$;
ALTER SERVER ch_nat_default OPTIONS (ADD secure 'on');
DO $$ BEGIN PERFORM count(*) FROM nat_default;
EXCEPTION WHEN others THEN
  RAISE NOTICE 'tried port 9440: %', position('127.0.0.1:9440' in SQLERRM) > 0;
END $$;
-- a proxy is an HTTP thing
ALTER SERVER ch_nat_default OPTIONS (DROP secure, ADD proxy 'http://127.0.0.1:3128');
SELECT count(*) FROM nat_default;
DROP SERVER ch_nat_default CASCADE;

-- ==== scans
CREATE FOREIGN TABLE nat_ints (id int, u8 smallint, u64 numeric, i64 bigint) SERVER ch_nat
  OPTIONS (table 'ints');
SELECT id, u8, u64, i64 FROM nat_ints ORDER BY id;
CREATE FOREIGN TABLE nat_million (n bigint, s text) SERVER ch_nat OPTIONS (table 'million');
SELECT count(*), sum(n), min(s), max(s) FROM nat_million;
SELECT n, s FROM nat_million WHERE n BETWEEN 500000 AND 500002 ORDER BY n;
-- the server's version; compression 'auto' (the default) sends nothing
-- compressed to a loopback host
SELECT handles >= 1 AS pooled, server_version, response_compression
  FROM clickhouse_fdw_connections() WHERE server = 'ch_nat';
-- compression 'lz4': LZ4 frames both ways (on 18.16 too: HTTP has none there)
ALTER SERVER ch_nat OPTIONS (ADD compression 'lz4');
SELECT count(*), sum(n), min(s), max(s) FROM nat_million;
SELECT handles >= 1 AS pooled, server_version, response_compression
  FROM clickhouse_fdw_connections() WHERE server = 'ch_nat';
ALTER SERVER ch_nat OPTIONS (DROP compression);

-- ==== errors: a server exception leaves the connection usable
CREATE FOREIGN TABLE nat_missing (a int) SERVER ch_nat OPTIONS (table 'no_such_table');
\set VERBOSITY terse
SELECT * FROM nat_missing;
\set VERBOSITY default
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) FROM nat_ints;
-- what only HTTP does: the text of a FORMAT, and INSERT ... VALUES in SQL
SELECT clickhouse_raw_query('ch_nat', 'SELECT 1');
\set VERBOSITY terse
SELECT clickhouse_exec('ch_nat', 'INSERT INTO regress.ints (id) VALUES (99)');
\set VERBOSITY default
SELECT count(*) AS not_written FROM nat_ints WHERE id = 99;

-- ==== inserts: Native blocks, also for insert_format 'rowbinary'
SELECT clickhouse_exec('ch_nat', 'DROP TABLE IF EXISTS regress.nat_ins');
SELECT clickhouse_exec('ch_nat', 'CREATE TABLE regress.nat_ins (a UInt64, s String, d Nullable(Date)) ENGINE = MergeTree ORDER BY a');
CREATE FOREIGN TABLE nat_ins (a bigint, s text, d date) SERVER ch_nat;
INSERT INTO nat_ins SELECT g, 'r' || g, CASE WHEN g % 2 = 0 THEN date '2020-01-01' + g END
  FROM generate_series(1, 30000) g;
ALTER FOREIGN TABLE nat_ins OPTIONS (ADD insert_format 'rowbinary');
INSERT INTO nat_ins VALUES (30001, 'rowbinary', NULL);
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO nat_ins VALUES (1, 'x', NULL);
SELECT clickhouse_raw_query('ch_nat_http',
  'SELECT count(), sum(a), countIf(d IS NULL), max(s) FROM regress.nat_ins');
-- a value out of range: nothing of its block is written
INSERT INTO nat_ins VALUES (-1, 'negative', NULL);
SELECT count(*) FROM nat_ins;

-- ==== the server's limits hold for native blocks too (max_block_bytes)
CREATE SERVER ch_nat_small FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport 'native', port :'tcp_port', max_block_bytes '1048576',
           settings 'max_block_size=500000');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_nat_small;
CREATE FOREIGN TABLE nat_small_numbers (number bigint) SERVER ch_nat_small
  OPTIONS (database 'system', table 'numbers');
CREATE FUNCTION nat_big_block() RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  PERFORM number FROM nat_small_numbers LIMIT 600000;
  RETURN 'no error';
EXCEPTION WHEN others THEN
  RETURN SQLSTATE || ': ' || regexp_replace(SQLERRM, ' in Native block.*', '');
END $$;
SELECT nat_big_block();
ALTER SERVER ch_nat_small OPTIONS (ADD compression 'none');
SELECT nat_big_block();
SELECT count(*) FROM (SELECT number FROM nat_small_numbers LIMIT 1000) s;
DROP SERVER ch_nat_small CASCADE;
DROP FUNCTION nat_big_block();

-- ==== statement_timeout stops a scan within a second, and the query in ClickHouse
CREATE FOREIGN TABLE nat_numbers (number numeric) SERVER ch_nat
  OPTIONS (database 'system', table 'numbers');
SET statement_timeout = '300ms';
SELECT now() AS t0 \gset
SELECT count(*) FROM nat_numbers;
RESET statement_timeout;
-- (how fast is measured by test/bench/fdw_transport.sh; here: it ends, and
-- the query leaves ClickHouse, waited for up to 10 s each)
SELECT (clock_timestamp() - :'t0'::timestamptz) < interval '10 s' AS returned;
CREATE FUNCTION nat_left_clickhouse() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1..100 LOOP
    IF btrim(clickhouse_raw_query('ch_nat_http',
         'SELECT count() FROM system.processes WHERE query LIKE ''%system%.%numbers%'' AND query NOT LIKE ''%system.processes%'''), E' \n') = '0' THEN
      RETURN true;
    END IF;
    PERFORM pg_sleep(0.1);
  END LOOP;
  RETURN false;
END $$;
SELECT nat_left_clickhouse() AS left_clickhouse;
DROP FUNCTION nat_left_clickhouse();

-- ==== early stops cancel on the same connection (a Cancel packet): even an
-- endless remainder keeps it
SELECT count(*) FROM (SELECT * FROM nat_million LIMIT 10 OFFSET 0) s;
SELECT tcp_connects AS before FROM clickhouse_fdw_connections() WHERE server = 'ch_nat' \gset
DO $$ BEGIN FOR i IN 1..10 LOOP
  PERFORM count(*) FROM (SELECT * FROM nat_million LIMIT 10 OFFSET 0) s;
  PERFORM count(*) FROM (SELECT number FROM nat_numbers WHERE number::text <> '' LIMIT 3) s;
END LOOP; END $$;
SELECT tcp_connects - :before AS new_connections FROM clickhouse_fdw_connections() WHERE server = 'ch_nat';

-- ==== a connection idle for a second is pinged before its next request
-- (no new connection when the server still has it)
SELECT tcp_connects AS before FROM clickhouse_fdw_connections() WHERE server = 'ch_nat' \gset
SELECT pg_sleep(1.1);
SELECT count(*) FROM nat_ints;
SELECT tcp_connects - :before AS new_connections FROM clickhouse_fdw_connections() WHERE server = 'ch_nat';

-- ==== EXPLAIN ANALYZE shows the remote side of each Foreign Scan (with
-- TIMING, its default): rows and bytes received, rows and bytes ClickHouse
-- read (the native protocol's Progress packets; 18.16 sends no summary
-- over HTTP), the request's time. Byte counts and times are masked.
\i sql/include/remote_explain.sql
SELECT remote_explain('SELECT n FROM nat_million WHERE n < 1000');
SELECT remote_explain('SELECT count(*) FROM nat_million');
CREATE FOREIGN TABLE nat_million_http (n bigint, s text) SERVER ch_nat_http OPTIONS (table 'million');
SELECT remote_explain('SELECT n FROM nat_million_http WHERE n < 1000');
-- a rescanned scan sums its runs (1 + 2 + 3 rows; an aggregate PostgreSQL
-- computes: its value is a raising form, integer +)
SELECT remote_explain('SELECT g, (SELECT string_agg((id + 0)::text, '','' ORDER BY id) FROM nat_ints WHERE id <= g) FROM generate_series(1, 3) g');
-- plain EXPLAIN and TIMING OFF show none of it
EXPLAIN (COSTS OFF) SELECT n FROM nat_million WHERE n < 1000;
DO $$ DECLARE line text; k int := 0;
BEGIN
  FOR line IN EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT n FROM nat_million WHERE n < 1000 LOOP
    IF line LIKE '%ClickHouse Rows%' OR line LIKE '%ClickHouse Bytes%' THEN k := k + 1; END IF;
  END LOOP;
  RAISE NOTICE 'remote figures with TIMING OFF: %', k;
END $$;

-- ==== TLS (port 9440 in production) with certificate verification
\getenv tcps_port CH_TCPS_PORT
\getenv ca_file CH_CA_FILE
CREATE SERVER ch_nat_tls FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport 'native', port :'tcps_port', secure 'on', ca_file :'ca_file',
           dbname 'regress', connect_timeout '2');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_nat_tls OPTIONS (user 'tester', password 'tester_pw');
CREATE FOREIGN TABLE nat_tls_ints (id int) SERVER ch_nat_tls OPTIONS (table 'ints');
SELECT count(*) AS over_tls FROM nat_tls_ints;
-- the test certificate is self-signed: without ca_file it is not trusted
ALTER SERVER ch_nat_tls OPTIONS (DROP ca_file);
DO $$ BEGIN PERFORM count(*) FROM nat_tls_ints;
EXCEPTION WHEN others THEN
  RAISE NOTICE '%: %', SQLSTATE, regexp_replace(SQLERRM, ':[0-9]+ ', ':<port> ');
END $$;
DROP SERVER ch_nat_tls CASCADE;

SELECT clickhouse_exec('ch_nat', 'DROP TABLE regress.nat_ins');
DROP SERVER ch_nat CASCADE;
DROP SERVER ch_nat_http CASCADE;
DROP FUNCTION remote_explain(text);
