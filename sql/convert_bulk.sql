-- ====================================================================
-- Bulk conversion: the scan converts the direct conversions a chunk of
-- rows at a time, a column after the other (src/fdw/convert.c). Over many
-- rows (several chunks) every value must be the one the row-at-a-time
-- conversion gives: each is a function of id here, computed again by
-- PostgreSQL; numerics are also byte for byte what numeric_in makes of their
-- text; a bad value deep in a stream fails at its row, after the rows before
-- it arrived. Live: needs the 18.16 server of test/servers.sh and the
-- fixtures of test/fixtures/ch_regress.sql.
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
CREATE SERVER ch_bulk FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_bulk;
SET timezone = 'UTC';
SET extra_float_digits = 1;
SET datestyle = 'ISO, YMD';
\pset null '(null)'

CREATE FOREIGN TABLE bulk (id bigint, u64 numeric, i64 bigint, u8 smallint, i32 integer,
  f64 float8, f32 real, dec9 numeric, dec18 numeric, dec38 numeric, s text, ns text,
  lc text, lcn text, d date, dt timestamptz, n_i32 integer, n_u64 numeric) SERVER ch_bulk;

-- every generated row (OFFSET 0 keeps the comparisons in PostgreSQL)
SELECT count(*) AS rows,
  bool_and(u64 = CASE WHEN id % 7 = 0 THEN 18446744073709551615 - id ELSE id * 1000000007 END) AS u64,
  bool_and(i64 = CASE WHEN id % 2 = 1 THEN -9223372036854775808 + id ELSE 9223372036854775807 - id * 10000 END) AS i64,
  bool_and(u8 = id % 256) AS u8,
  bool_and(i32 = id * 4294967 - 2147483648) AS i32,
  bool_and(f64 = id / 8.0::float8) AS f64,
  bool_and(f32 = id / 4.0::real) AS f32,
  bool_and(dec9 = ((CASE WHEN id % 3 = 0 THEN '-' ELSE '' END) || (id * 9973 % 10000000) || '.' || (id % 100))::numeric
           AND scale(dec9) = 2) AS dec9,
  bool_and(dec18 = ((CASE WHEN id % 2 = 0 THEN '-' ELSE '' END) || (id * 99990000) || '.' || (id % 10000))::numeric
           AND scale(dec18) = 4) AS dec18,
  bool_and(dec38 = ((CASE WHEN id % 2 = 1 THEN '-' ELSE '' END) || (id * 1234567) || '000000000000000.' || (id % 97))::numeric
           AND scale(dec38) = 10) AS dec38,
  bool_and(s = repeat('é', (id % 70)::int)) AS s,
  bool_and(ns IS NOT DISTINCT FROM CASE WHEN id % 3 = 0 THEN NULL ELSE repeat('x', (id % 200)::int) END) AS ns,
  bool_and(lc = 'k' || id % 37) AS lc,
  bool_and(lcn IS NOT DISTINCT FROM CASE WHEN id % 5 = 0 THEN NULL ELSE 'n' || id % 11 END) AS lcn,
  bool_and(d = date '1970-01-01' + (id * 65)::int) AS d,
  bool_and(dt = to_timestamp(id * 4294967)) AS dt,
  bool_and(n_i32 IS NOT DISTINCT FROM CASE WHEN id % 4 = 1 THEN NULL ELSE id - 500 END) AS n_i32,
  bool_and(n_u64 IS NOT DISTINCT FROM CASE WHEN id % 4 = 2 THEN NULL ELSE id::numeric * 18446744073709551 END) AS n_u64
FROM (SELECT * FROM bulk OFFSET 0) b WHERE id < 1000;
-- the NULLs are where they should be, not only equal where both are not NULL
SELECT count(ns) AS ns, count(lcn) AS lcn, count(n_i32) AS n_i32, count(n_u64) AS n_u64,
  count(*) FILTER (WHERE s = '') AS empty_s
FROM (SELECT * FROM bulk OFFSET 0) b WHERE id < 1000;

-- numerics written directly are the bytes numeric_in makes of their text
SELECT bool_and(numeric_send(u64) = numeric_send(u64::text::numeric)) AS u64,
  bool_and(numeric_send(dec9) = numeric_send(dec9::text::numeric)) AS dec9,
  bool_and(numeric_send(dec18) = numeric_send(dec18::text::numeric)) AS dec18,
  bool_and(numeric_send(dec38) = numeric_send(dec38::text::numeric)) AS dec38,
  bool_and(n_u64 IS NULL OR numeric_send(n_u64) = numeric_send(n_u64::text::numeric)) AS n_u64
FROM (SELECT * FROM bulk OFFSET 0) b;

-- the extremes; texts of 126 and 127 bytes (the 1-byte header's limit) and 200
SELECT * FROM bulk WHERE id >= 1000 ORDER BY id;
SELECT id, length(s) AS s, length(ns) AS ns, length(lc) AS lc, s = repeat('z', 126) AS z126,
  ns = repeat('y', 127) AS y127, lc = repeat('w', 200) AS w200
FROM bulk WHERE id >= 1000 ORDER BY id;

-- other declared types of the same columns: integers widened, into numeric and float
CREATE FOREIGN TABLE bulk_wide (id integer, i64 numeric, u8 bigint, i32 float8, n_i32 numeric,
  u64 float8, f32 float8) SERVER ch_bulk OPTIONS (table 'bulk');
SELECT count(*) AS rows,
  bool_and(i64 = CASE WHEN id % 2 = 1 THEN -9223372036854775808 + id ELSE 9223372036854775807 - id::numeric * 10000 END
           AND numeric_send(i64) = numeric_send(i64::text::numeric)) AS i64,
  bool_and(u8 = id % 256) AS u8,
  bool_and(i32 = id::float8 * 4294967 - 2147483648) AS i32,
  bool_and(n_i32 IS NOT DISTINCT FROM CASE WHEN id % 4 = 1 THEN NULL ELSE id - 500 END) AS n_i32,
  bool_and(u64 = (CASE WHEN id % 7 = 0 THEN 18446744073709551615 - id ELSE id * 1000000007::numeric END)::float8) AS u64,
  bool_and(f32 = id / 4.0) AS f32
FROM (SELECT * FROM bulk_wide OFFSET 0) b WHERE id < 1000;
SELECT * FROM bulk_wide WHERE id >= 1000 ORDER BY id;

-- DateTime declared timestamp: the wall time in UTC (bulk when the zone is UTC), whatever the session's zone
CREATE FOREIGN TABLE bulk_wall (id bigint, dt timestamp) SERVER ch_bulk OPTIONS (table 'bulk');
SET timezone = 'America/New_York';
SELECT count(*) AS rows, bool_and(dt = to_timestamp(id * 4294967) AT TIME ZONE 'UTC') AS dt
FROM (SELECT * FROM bulk_wall OFFSET 0) b WHERE id < 1000;
SELECT * FROM bulk_wall WHERE id >= 1000 ORDER BY id;
SET timezone = 'UTC';

-- Decimal(38, 0) and Decimal(38, 38) at their ends
CREATE FOREIGN TABLE bulk38 (id int, a numeric, b numeric) SERVER ch_bulk;
SELECT id, a, b, numeric_send(a) = numeric_send(a::text::numeric) AS a_bytes,
  numeric_send(b) = numeric_send(b::text::numeric) AS b_bytes FROM bulk38 ORDER BY id;

-- one bad value deep in a stream: the rows before it arrive, its row fails
CREATE FOREIGN TABLE bulk_bad_s (id int, s text) SERVER ch_bulk OPTIONS (table 'bulk_bad');
BEGIN;
DECLARE c CURSOR FOR SELECT id, s FROM bulk_bad_s ORDER BY id;
MOVE 699 IN c;
FETCH 1 FROM c;
FETCH 1 FROM c;
ROLLBACK;
CREATE FOREIGN TABLE bulk_bad_u (id int, u64 bigint) SERVER ch_bulk OPTIONS (table 'bulk_bad');
BEGIN;
DECLARE c CURSOR FOR SELECT id, u64 FROM bulk_bad_u ORDER BY id;
MOVE 599 IN c;
FETCH 1 FROM c;
FETCH 1 FROM c;
ROLLBACK;
CREATE FOREIGN TABLE bulk_bad_lc (id int, lc text) SERVER ch_bulk OPTIONS (table 'bulk_bad');
BEGIN;
DECLARE c CURSOR FOR SELECT id, lc FROM bulk_bad_lc ORDER BY id;
MOVE 499 IN c;
FETCH 1 FROM c;
FETCH 1 FROM c;
ROLLBACK;
-- ASCII values, many empty, a NUL byte deep in each column: every value before it
-- arrives right, its row fails (a NUL is no text in any encoding)
CREATE FOREIGN TABLE bulk_nul (id int, s text, ns text) SERVER ch_bulk;
SELECT count(*) AS rows,
  bool_and(s = CASE WHEN id % 5 = 0 THEN '' ELSE 'v' || id END) AS s,
  bool_and(ns IS NOT DISTINCT FROM CASE WHEN id % 3 = 0 THEN NULL WHEN id % 7 = 0 THEN '' ELSE 'w' || id % 13 END) AS ns
FROM (SELECT * FROM bulk_nul WHERE id < 800 OFFSET 0) b;
BEGIN;
DECLARE c CURSOR FOR SELECT id, s FROM bulk_nul ORDER BY id;
MOVE 799 IN c;
FETCH 1 FROM c;
FETCH 1 FROM c;
ROLLBACK;
BEGIN;
DECLARE c CURSOR FOR SELECT id, ns FROM bulk_nul ORDER BY id;
MOVE 899 IN c;
FETCH 1 FROM c;
FETCH 1 FROM c;
ROLLBACK;
-- the same columns as bytes and as numeric read in full
CREATE FOREIGN TABLE bulk_bad_ok (id int, s bytea, u64 numeric, lc bytea) SERVER ch_bulk OPTIONS (table 'bulk_bad');
SELECT count(*), sum(u64), sum(length(s)), sum(length(lc)) FROM (SELECT * FROM bulk_bad_ok OFFSET 0) b;

-- a Decimal read into an integer type: whole values exactly (1.00 is 1),
-- a fraction an error naming the value (never rounded), beyond the type
-- PostgreSQL's own range error; arrays of Decimals alike
CREATE FOREIGN TABLE dec_int (id int, d smallint, a bigint[], big bigint) SERVER ch_bulk;
SELECT id, d, a, big FROM dec_int WHERE id <= 2 ORDER BY id;
SELECT d FROM dec_int WHERE id = 3;
SELECT a FROM dec_int WHERE id = 3;
SELECT big FROM dec_int WHERE id = 3;
CREATE FOREIGN TABLE dec_int4 (id int, d integer, a integer[]) SERVER ch_bulk OPTIONS (table 'dec_int');
SELECT id, d, a FROM dec_int4 WHERE id <= 2 ORDER BY id;

DROP SERVER ch_bulk CASCADE;
