-- ====================================================================
-- Modern types: every ClickHouse type the FDW reads, from the ClickHouse
-- 26.5 engine (chDB behind test/chdb/front.py, a test harness), into its
-- natural PostgreSQL type, into declared ones, and the out-of-range errors.
-- Live: needs the front of test/servers.sh (CH_MODERN_PORT) and the
-- fixtures of test/fixtures/modern_regress.sql (make installcheck-modern).
-- Every expected value was checked against what ClickHouse holds.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
CREATE SERVER ch_modern FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress_modern');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_modern;
SET timezone = 'UTC';
SET extra_float_digits = 1;
SET datestyle = 'ISO, YMD';
SET bytea_output = 'hex';
\pset null '(null)'

-- ==== the natural types, as IMPORT FOREIGN SCHEMA maps them
CREATE SCHEMA modern_imp;
IMPORT FOREIGN SCHEMA regress_modern
  LIMIT TO (ints, floats, bools, decimals, strings, dates, datetimes, misc, nullables, arrays, simpleagg)
  FROM SERVER ch_modern INTO modern_imp;
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
 WHERE c.relnamespace = 'modern_imp'::regnamespace AND a.attnum > 0
 ORDER BY c.relname, a.attnum;
DROP SCHEMA modern_imp CASCADE;

-- ==== integers, 8 to 256 bits: exact at both ends
CREATE FOREIGN TABLE ints (
  id smallint, u8 smallint, u16 integer, u32 bigint, u64 numeric, u128 numeric, u256 numeric,
  i8 smallint, i16 smallint, i32 integer, i64 bigint, i128 numeric, i256 numeric
) SERVER ch_modern;
SELECT id, u8, u16, u32, u64, i8, i16, i32, i64 FROM ints ORDER BY id;
SELECT id, u128, i128 FROM ints ORDER BY id;
SELECT id, u256, i256 FROM ints ORDER BY id;
-- declared as text, double precision, numeric
CREATE FOREIGN TABLE ints_decl (id int, u64 float8, u128 text, i128 float8, u256 text, i64 numeric)
  SERVER ch_modern OPTIONS (table 'ints');
SELECT * FROM ints_decl ORDER BY id;
-- declared narrower: an error naming the column, never a wrapped value
CREATE FOREIGN TABLE ints_u64_bigint (id int, u64 bigint) SERVER ch_modern OPTIONS (table 'ints');
SELECT * FROM ints_u64_bigint ORDER BY id;
CREATE FOREIGN TABLE ints_i128_bigint (id int, i128 bigint) SERVER ch_modern OPTIONS (table 'ints');
SELECT * FROM ints_i128_bigint ORDER BY id;
CREATE FOREIGN TABLE ints_u256_num (id int, u256 numeric(40, 0)) SERVER ch_modern OPTIONS (table 'ints');
SELECT * FROM ints_u256_num ORDER BY id;

-- ==== floats: NaN, infinities, signed zero, extremes, shortest exact digits;
-- BFloat16 is read as real
CREATE FOREIGN TABLE floats (id int, f32 real, f64 double precision, bf real) SERVER ch_modern;
SELECT * FROM floats ORDER BY id;
CREATE FOREIGN TABLE floats_num (id int, f32 numeric, f64 numeric, bf numeric)
  SERVER ch_modern OPTIONS (table 'floats');
SELECT * FROM floats_num WHERE id NOT IN (3, 8, 9) ORDER BY id;
CREATE FOREIGN TABLE floats_f8 (id int, f32 float8, bf float8) SERVER ch_modern OPTIONS (table 'floats');
SELECT * FROM floats_f8 ORDER BY id;
-- Float64 declared as real: out of range is an error
CREATE FOREIGN TABLE floats_narrow (id int, f64 real) SERVER ch_modern OPTIONS (table 'floats');
SELECT * FROM floats_narrow ORDER BY id;

-- ==== Bool
CREATE FOREIGN TABLE bools (id int, b boolean, nb boolean) SERVER ch_modern;
SELECT * FROM bools ORDER BY id;
CREATE FOREIGN TABLE bools_int (id int, b int, nb bigint) SERVER ch_modern OPTIONS (table 'bools');
SELECT * FROM bools_int ORDER BY id;

-- ==== Decimal(P, S) of every width: every digit, the scale kept
CREATE FOREIGN TABLE decimals (id int, d9 numeric(9, 2), d18 numeric(18, 4), d38 numeric(38, 10),
  d76 numeric(76, 20)) SERVER ch_modern;
SELECT id, d9, d18 FROM decimals ORDER BY id;
SELECT id, d38 FROM decimals ORDER BY id;
SELECT id, d76 FROM decimals ORDER BY id;
-- declared numeric without a typmod, and rounded to a smaller scale (PostgreSQL's rounding)
CREATE FOREIGN TABLE decimals_any (id int, d9 numeric, d38 numeric) SERVER ch_modern OPTIONS (table 'decimals');
SELECT * FROM decimals_any ORDER BY id;
CREATE FOREIGN TABLE decimals_round (id int, d9 numeric(10, 1), d18 numeric(20, 2))
  SERVER ch_modern OPTIONS (table 'decimals');
SELECT * FROM decimals_round ORDER BY id;
CREATE FOREIGN TABLE decimals_f8 (id int, d18 float8, d76 float8) SERVER ch_modern OPTIONS (table 'decimals');
SELECT * FROM decimals_f8 ORDER BY id;
-- too many digits for the declared type, or fractional digits for an integer: errors
CREATE FOREIGN TABLE decimals_over (id int, d38 numeric(20, 2)) SERVER ch_modern OPTIONS (table 'decimals');
SELECT * FROM decimals_over ORDER BY id;
CREATE FOREIGN TABLE decimals_int (id int, d9 integer) SERVER ch_modern OPTIONS (table 'decimals');
SELECT * FROM decimals_int ORDER BY id;

-- ==== String / FixedString: the empty string is not NULL; FixedString keeps its zero padding
CREATE FOREIGN TABLE strings (id int, s text, fs bytea, ns text, nfs bytea) SERVER ch_modern;
SELECT id, s, length(s) AS len, fs, ns, ns IS NULL AS ns_null, nfs FROM strings ORDER BY id;
-- FixedString as text: the zero bytes that pad it are removed; String as bytea: every byte
CREATE FOREIGN TABLE strings_text (id int, fs text, nfs text, s bytea) SERVER ch_modern OPTIONS (table 'strings');
SELECT * FROM strings_text ORDER BY id;
-- ... and as varchar(n) too: the string, not the text form of its bytes
CREATE FOREIGN TABLE strings_fs_varchar (id int, fs varchar(4), nfs varchar(3)) SERVER ch_modern OPTIONS (table 'strings');
SELECT * FROM strings_fs_varchar ORDER BY id;
-- varchar(n) is checked
CREATE FOREIGN TABLE strings_short (id int, s varchar(3)) SERVER ch_modern OPTIONS (table 'strings');
SELECT * FROM strings_short ORDER BY id;

-- ==== Date (unsigned days) and Date32 (signed days): both ends of their ranges
CREATE FOREIGN TABLE dates (id int, d date, d32 date) SERVER ch_modern;
SELECT * FROM dates ORDER BY id;
CREATE FOREIGN TABLE dates_decl (id int, d timestamp, d32 timestamptz) SERVER ch_modern OPTIONS (table 'dates');
SELECT * FROM dates_decl ORDER BY id;
CREATE FOREIGN TABLE dates_text (id int, d32 text) SERVER ch_modern OPTIONS (table 'dates');
SELECT * FROM dates_text ORDER BY id;

-- ==== DateTime and DateTime64(3 | 6 | 9), with and without a zone: the instants
CREATE FOREIGN TABLE datetimes (id int, dt timestamptz, dt_tokyo timestamptz, dt3 timestamptz,
  dt6 timestamptz, dt9 timestamptz, dt3_ny timestamptz) SERVER ch_modern;
SELECT id, dt, dt_tokyo, dt3, dt3_ny FROM datetimes WHERE id <= 5 ORDER BY id;
SELECT id, dt6, dt9 FROM datetimes WHERE id <= 5 ORDER BY id;
-- DateTime64(9): nanoseconds rounded to microseconds, half to even (as
-- PostgreSQL rounds timestamp input), also for ticks before 1970:
--   5: 1500 ns  6: 2500  7: 1499  8: 1501  9: -1500  10: -2500  11: -1
--  12: -500    13: 500  14: -1000000000500
SELECT id, dt9 FROM datetimes WHERE id >= 5 ORDER BY id;
-- the same instants through PostgreSQL's own rounding of the text
SELECT id, dt9 = x.pg AS same_as_postgres
  FROM datetimes JOIN (VALUES
    (5, '1970-01-01 00:00:00.0000015+00'::timestamptz), (6, '1970-01-01 00:00:00.0000025+00'),
    (7, '1970-01-01 00:00:00.000001499+00'), (8, '1970-01-01 00:00:00.000001501+00'),
    (9, '1969-12-31 23:59:59.9999985+00'), (10, '1969-12-31 23:59:59.9999975+00'),
    (11, '1969-12-31 23:59:59.999999999+00'), (12, '1969-12-31 23:59:59.9999995+00'),
    (13, '1970-01-01 00:00:00.0000005+00'), (14, '1969-12-31 23:43:19.9999995+00')) AS x(xid, pg)
    ON x.xid = datetimes.id
 ORDER BY id;
-- declared timestamp: the wall time in the column's zone (UTC when the type names none).
-- Row 3 is 1900-01-01 00:00 UTC, which is 1899-12-31 19:00 in New York (ClickHouse's
-- own toString clamps it to its calendar's first day, 1900-01-01 00:00:00).
CREATE FOREIGN TABLE datetimes_wall (id int, dt timestamp, dt3 timestamp, dt3_ny timestamp)
  SERVER ch_modern OPTIONS (table 'datetimes');
SELECT * FROM datetimes_wall WHERE id <= 5 ORDER BY id;
-- DateTime('Asia/Tokyo') declared timestamp: Tokyo wall time (09:00 at the epoch)
CREATE FOREIGN TABLE datetimes_tokyo (id int, dt_tokyo timestamp) SERVER ch_modern OPTIONS (table 'datetimes');
SELECT * FROM datetimes_tokyo WHERE id <= 4 ORDER BY id;
CREATE FOREIGN TABLE datetimes_text (id int, dt9 text, dt3_ny text) SERVER ch_modern OPTIONS (table 'datetimes');
SELECT * FROM datetimes_text WHERE id <= 4 ORDER BY id;

-- ==== UUID, IPv4, IPv6, Enum8/16 (labels with quotes, commas, backslashes, UTF-8)
CREATE FOREIGN TABLE misc (id int, u uuid, ip4 inet, ip6 inet, e8 text, e16 text) SERVER ch_modern;
SELECT * FROM misc ORDER BY id;
CREATE FOREIGN TABLE misc_decl (id int, u text, ip4 text, ip6 cidr, e8 varchar) SERVER ch_modern OPTIONS (table 'misc');
SELECT * FROM misc_decl ORDER BY id;
-- an Enum label is not a number; a label longer than varchar(n) is an error
CREATE FOREIGN TABLE misc_enum_int (id int, e8 integer) SERVER ch_modern OPTIONS (table 'misc');
SELECT * FROM misc_enum_int ORDER BY id;
CREATE FOREIGN TABLE misc_enum_short (id int, e16 varchar(3)) SERVER ch_modern OPTIONS (table 'misc');
SELECT * FROM misc_enum_short ORDER BY id;

-- ==== Nullable(T) of every kind, LowCardinality(String), LowCardinality(Nullable(String))
CREATE FOREIGN TABLE nullables (id int, n_i32 int, n_i128 numeric, n_f64 float8, n_dec numeric(18, 4),
  n_s text, n_b boolean, n_uuid uuid, n_d32 date, n_dt64 timestamptz, n_e8 text, n_ip6 inet,
  lc_s text, lc_ns text) SERVER ch_modern;
SELECT id, n_i32, n_i128, n_f64, n_dec, n_s, n_s IS NULL AS s_null, n_b FROM nullables ORDER BY id;
SELECT id, n_uuid, n_d32, n_dt64, n_e8, n_ip6 FROM nullables ORDER BY id;
SELECT id, lc_s, lc_s = '' AS lc_s_empty, lc_ns, lc_ns IS NULL AS lc_ns_null FROM nullables ORDER BY id;
CREATE FOREIGN TABLE nullables_lc_bytea (id int, lc_s bytea, lc_ns bytea) SERVER ch_modern OPTIONS (table 'nullables');
SELECT * FROM nullables_lc_bytea ORDER BY id;

-- ==== Arrays: empty, multidimensional when rectangular, NULL elements, LowCardinality elements
CREATE FOREIGN TABLE arrays (id int, a_i32 int[], a_a_s text[], a_ns text[], a_lc text[],
  a_dec numeric[], a_d date[]) SERVER ch_modern;
SELECT id, a_i32, a_a_s, array_dims(a_a_s) AS dims FROM arrays ORDER BY id;
SELECT id, a_ns, array_position(a_ns, NULL) AS first_null, a_lc, a_dec, a_d FROM arrays ORDER BY id;
-- elements converted like columns: wider, as text, and out of range
CREATE FOREIGN TABLE arrays_decl (id int, a_i32 bigint[], a_dec text[], a_d timestamptz[])
  SERVER ch_modern OPTIONS (table 'arrays');
SELECT * FROM arrays_decl ORDER BY id;
CREATE FOREIGN TABLE arrays_small (id int, a_i32 smallint[]) SERVER ch_modern OPTIONS (table 'arrays');
SELECT * FROM arrays_small ORDER BY id;
-- an array needs an array type
CREATE FOREIGN TABLE arrays_scalar (id int, a_i32 integer) SERVER ch_modern OPTIONS (table 'arrays');
SELECT * FROM arrays_scalar ORDER BY id;
-- nested arrays of different lengths are not a PostgreSQL array: an error
CREATE FOREIGN TABLE arrays_ragged (id int, a_a_s text[]) SERVER ch_modern;
SELECT * FROM arrays_ragged;
SELECT id FROM arrays_ragged;
-- (the hint above suggests text, which is refused as well: see the report)
CREATE FOREIGN TABLE arrays_ragged_text (id int, a_a_s text) SERVER ch_modern OPTIONS (table 'arrays_ragged');
SELECT * FROM arrays_ragged_text;

-- ==== SimpleAggregateFunction(f, T) is read as T
CREATE FOREIGN TABLE simpleagg (k int, s numeric, m text) SERVER ch_modern;
SELECT * FROM simpleagg ORDER BY k;

DROP SERVER ch_modern CASCADE;
