-- ====================================================================
-- Options: validation of server, user mapping, table and column options.
-- Needs no ClickHouse server: nothing here connects.
-- ====================================================================
\set VERBOSITY default

-- ==== the wrapper and its functions
SELECT fdwname, fdwhandler::regproc, fdwvalidator::regproc
  FROM pg_foreign_data_wrapper WHERE fdwname = 'clickhouse_fdw';
SELECT clickhouse_fdw_version() ~ '^clickhouse_fdw 1\.2, libcurl [0-9.]+, lz4 [0-9.]+, zstd [0-9.]+$' AS version_ok;

-- ==== server options
CREATE SERVER opt_srv FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (host '127.0.0.1', port '8123', dbname 'default', transport 'http');
CREATE SERVER opt_defaults FOREIGN DATA WRAPPER clickhouse_fdw;
-- unknown option: the hint names the closest valid one
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (hots 'x');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (databse 'x');
-- nothing close: the hint lists the valid options
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (zzzzzzzz 'x');
-- an option of another object
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (password 'x');
-- bad values
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port '0');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port '65536');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port '80x');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (port '');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host '');
-- host lists: host[:port], comma-separated; IPv6 bare or in brackets
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host 'ch1, ,ch3');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host 'ch1,');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host 'ch1:9000, ch2:0');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host 'ch1:90x');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host '[::1:9000');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host '[::1]9000');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (host 'ch1, ch2/x');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (host 'a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q');
CREATE SERVER opt_hosts FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (host 'ch1:9000, ch2, [::1]:8123, ::1', load_balancing 'round_robin');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (load_balancing 'first');
ALTER SERVER opt_hosts OPTIONS (SET load_balancing 'random');
ALTER SERVER opt_hosts OPTIONS (SET load_balancing 'in_order');
DROP SERVER opt_hosts;
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (transport 'smoke');
-- the native transport (sql/native.sql)
CREATE SERVER opt_native FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (transport 'native', secure 'on');
DROP SERVER opt_native;
-- write options
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (batch_size '0');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (batch_size '1e6');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (insert_format 'csv');
-- limits against a broken or hostile server, and the proxy
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (max_block_bytes '1000');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (max_block_bytes '17179869185');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (max_index_bytes '1MB');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (max_dictionary_size '-1');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (proxy 'http://a b');
CREATE SERVER opt_bad FOREIGN DATA WRAPPER clickhouse_fdw OPTIONS (proxy E'http://a\nb');
ALTER SERVER opt_srv OPTIONS (ADD max_block_bytes '1073741824', ADD max_index_bytes '1048576',
  ADD max_dictionary_size '1000', ADD proxy 'http://proxy.example:3128');
ALTER SERVER opt_srv OPTIONS (DROP max_block_bytes, DROP max_index_bytes,
  DROP max_dictionary_size, DROP proxy);
ALTER SERVER opt_srv OPTIONS (ADD batch_size '5000', ADD insert_format 'rowbinary');
ALTER SERVER opt_srv OPTIONS (DROP batch_size, DROP insert_format);
ALTER SERVER opt_srv OPTIONS (SET port '18123');
ALTER SERVER opt_srv OPTIONS (ADD portt '1');
ALTER SERVER opt_srv OPTIONS (DROP dbname);
SELECT srvname, srvoptions FROM pg_foreign_server WHERE srvname LIKE 'opt_%' ORDER BY 1;

-- ==== user mapping options
CREATE USER MAPPING FOR CURRENT_USER SERVER opt_srv OPTIONS (user 'tester', password 'tester_pw');
CREATE USER MAPPING FOR PUBLIC SERVER opt_srv OPTIONS (usr 'x');
CREATE USER MAPPING FOR PUBLIC SERVER opt_srv OPTIONS (host 'x');
CREATE USER MAPPING FOR PUBLIC SERVER opt_srv OPTIONS (user '');
-- an empty password is allowed (ClickHouse's default user has none)
CREATE USER MAPPING FOR PUBLIC SERVER opt_srv OPTIONS (password '');
DROP USER MAPPING FOR PUBLIC SERVER opt_srv;

-- ==== foreign table and column options
CREATE FOREIGN TABLE opt_ft (a int OPTIONS (column_name 'A'), b text)
  SERVER opt_srv OPTIONS (database 'db', table 'tab');
CREATE FOREIGN TABLE opt_bad (a int) SERVER opt_srv OPTIONS (tabel 'x');
CREATE FOREIGN TABLE opt_bad (a int) SERVER opt_srv OPTIONS (table '');
CREATE FOREIGN TABLE opt_bad (a int OPTIONS (colum_name 'x')) SERVER opt_srv;
CREATE FOREIGN TABLE opt_bad (a int OPTIONS (column_name '')) SERVER opt_srv;
ALTER FOREIGN TABLE opt_ft ALTER COLUMN b OPTIONS (ADD column_name 'B b');

-- ==== deparsing: EXPLAIN never connects (opt_srv points at a closed port)
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM opt_ft;
EXPLAIN (VERBOSE, COSTS OFF) SELECT b FROM opt_ft WHERE a > 1;
EXPLAIN (VERBOSE, COSTS OFF) SELECT count(*) FROM opt_ft;
-- identifiers that try to break out of their quotes stay inside them
CREATE FOREIGN TABLE "opt ``evil\" (x int OPTIONS (column_name 'c`) FROM t; --\'))
  SERVER opt_srv OPTIONS (database 'd`b\');
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM "opt ``evil\";

-- defaults: database = the server's dbname, table = the foreign table's name
CREATE FOREIGN TABLE opt_default_names (x int) SERVER opt_defaults;
EXPLAIN (VERBOSE, COSTS OFF) SELECT x FROM opt_default_names;

DROP SERVER opt_srv, opt_defaults CASCADE;
