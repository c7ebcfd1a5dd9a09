-- ====================================================================
-- Types: every ClickHouse type of the walking skeleton read into its
-- natural PostgreSQL type and into declared ones. Live: needs the 18.16
-- server of test/servers.sh and the fixtures of test/fixtures/ch_regress.sql.
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
CREATE SERVER ch_types FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_types;
SET timezone = 'UTC';
SET extra_float_digits = 1;
SET datestyle = 'ISO, YMD';

-- ==== integers: natural types, no wrap-around at the extremes
CREATE FOREIGN TABLE ints (
  id smallint, u8 smallint, u16 integer, u32 bigint, u64 numeric,
  i8 smallint, i16 smallint, i32 integer, i64 bigint
) SERVER ch_types;
SELECT * FROM ints ORDER BY id;

-- declared wider or as text: exact
CREATE FOREIGN TABLE ints_wide (id int, u8 bigint, u16 numeric, u32 numeric, u64 text,
  i8 float8, i16 float4, i32 numeric, i64 text) SERVER ch_types OPTIONS (table 'ints');
SELECT * FROM ints_wide ORDER BY id;

-- declared narrower: an error naming the column, never a wrapped value
CREATE FOREIGN TABLE ints_narrow_u64 (id int, u64 bigint) SERVER ch_types OPTIONS (table 'ints');
SELECT * FROM ints_narrow_u64 ORDER BY id;
CREATE FOREIGN TABLE ints_narrow_u32 (id int, u32 integer) SERVER ch_types OPTIONS (table 'ints');
SELECT * FROM ints_narrow_u32 ORDER BY id;
CREATE FOREIGN TABLE ints_narrow_i64 (id int, i64 integer) SERVER ch_types OPTIONS (table 'ints');
SELECT * FROM ints_narrow_i64 ORDER BY id;

-- ==== floats: NaN, infinities, shortest exact digits
CREATE FOREIGN TABLE floats (id int, f32 real, f64 double precision) SERVER ch_types;
SELECT * FROM floats ORDER BY id;
CREATE FOREIGN TABLE floats_num (id int, f32 numeric, f64 numeric) SERVER ch_types OPTIONS (table 'floats');
SELECT * FROM floats_num ORDER BY id;
CREATE FOREIGN TABLE floats_text (id int, f32 text, f64 text) SERVER ch_types OPTIONS (table 'floats');
SELECT * FROM floats_text ORDER BY id;
-- Float64 declared as real: out of range is an error
CREATE FOREIGN TABLE floats_narrow (id int, f64 real) SERVER ch_types OPTIONS (table 'floats');
SELECT * FROM floats_narrow WHERE id = 3;

-- ==== strings: the empty string is not NULL; bytes arrive unchanged
CREATE FOREIGN TABLE strings (id int, s text, fs bytea) SERVER ch_types;
SELECT id, s, length(s) AS len, s = '' AS empty, s IS NULL AS isnull, fs FROM strings ORDER BY id;
-- FixedString declared as text: the zero bytes that pad it are removed
CREATE FOREIGN TABLE strings_text (id int, s varchar(30), fs text) SERVER ch_types OPTIONS (table 'strings');
SELECT id, s, fs, length(fs) AS fslen FROM strings_text ORDER BY id;
-- ... but a zero byte inside the value cannot be text
CREATE FOREIGN TABLE fixed_nul (id int, fs text) SERVER ch_types;
SELECT * FROM fixed_nul;
CREATE FOREIGN TABLE fixed_nul_bytea (id int, fs bytea) SERVER ch_types OPTIONS (table 'fixed_nul');
SELECT * FROM fixed_nul_bytea;
-- varchar(n) is checked
CREATE FOREIGN TABLE strings_short (id int, s varchar(3)) SERVER ch_types OPTIONS (table 'strings');
SELECT * FROM strings_short ORDER BY id;
-- String as bytea keeps every byte; as text an embedded NUL or invalid UTF-8 is an error
CREATE FOREIGN TABLE str_nul (id int, s text) SERVER ch_types;
SELECT * FROM str_nul;
CREATE FOREIGN TABLE str_nul_bytea (id int, s bytea) SERVER ch_types OPTIONS (table 'str_nul');
SELECT * FROM str_nul_bytea;
CREATE FOREIGN TABLE str_badutf8 (id int, s text) SERVER ch_types;
SELECT * FROM str_badutf8;
CREATE FOREIGN TABLE str_badutf8_v (id int, s varchar) SERVER ch_types OPTIONS (table 'str_badutf8');
SELECT * FROM str_badutf8_v;
CREATE FOREIGN TABLE str_badutf8_bytea (id int, s bytea) SERVER ch_types OPTIONS (table 'str_badutf8');
SELECT * FROM str_badutf8_bytea;

-- ==== dates and times: epoch 0 is a date, not NULL; the maxima survive
CREATE FOREIGN TABLE dates (id int, d date, dt timestamptz, dtz timestamptz) SERVER ch_types;
SELECT * FROM dates ORDER BY id;
SET timezone = 'America/New_York';
SELECT * FROM dates ORDER BY id;
SET timezone = 'UTC';
-- declared timestamp: wall time in the column's zone, UTC when the type names
-- none. Over HTTP 18.16 drops the zone from the type name, so for dtz, which
-- is DateTime('Asia/Tokyo'), the zone comes from the table's definition.
CREATE FOREIGN TABLE dates_wall (id int, d timestamp, dt timestamp, dtz timestamp) SERVER ch_types OPTIONS (table 'dates');
SELECT * FROM dates_wall ORDER BY id;
CREATE FOREIGN TABLE dates_text (id int, d text, dt text) SERVER ch_types OPTIONS (table 'dates');
SELECT * FROM dates_text ORDER BY id;

-- ==== Nullable
CREATE FOREIGN TABLE nullables (id int, n_i32 int, n_u64 numeric, n_f64 float8, n_s text,
  n_fs bytea, n_d date, n_dt timestamptz) SERVER ch_types;
SELECT * FROM nullables ORDER BY id;
SELECT id, n_s IS NULL AS s_null, n_s = '' AS s_empty FROM nullables ORDER BY id;

DROP SERVER ch_types CASCADE;
