-- ====================================================================
-- Modern INSERT round trips: every type the writer handles, written
-- through the FDW (Native and RowBinary) into the ClickHouse 26.5 engine
-- (chDB behind test/chdb/front.py, a test harness) and read back twice:
-- through the FDW, and as ClickHouse's own text (the view
-- regress_modern.ins_text), so the writer is checked without trusting the
-- reader. Live (see modern_types.sql).
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
CREATE SERVER ch_mins FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress_modern');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_mins;
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';
SET extra_float_digits = 1;
SET bytea_output = 'hex';
\pset null '(null)'
-- start from an empty table, whatever an earlier run left
SELECT clickhouse_exec('ch_mins', 'TRUNCATE TABLE regress_modern.ins');

CREATE FOREIGN TABLE ins (
  id bigint,
  u8 smallint, i16 smallint, u32 bigint, i64 bigint, u64 numeric, i128 numeric, u256 numeric,
  f32 real, f64 double precision, bf real, b boolean,
  d9 numeric(9, 2), d18 numeric(18, 4), d38 numeric(38, 10), d76 numeric(76, 20),
  s text, fs bytea, e8 text,
  d date, d32 date, dt timestamptz, dt_tokyo timestamp, dt3 timestamptz, dt6 timestamptz,
  dt9 timestamptz, dt3_ny timestamp,
  u uuid, n_i32 int, n_s text, lc text, lc_n text,
  a_i32 int[], a_ns text[], a_lc text[], a_dec numeric[],
  ip4 inet, ip6 inet, def bigint
) SERVER ch_mins;
-- what ClickHouse holds, in its own words
CREATE FOREIGN TABLE ins_text (
  id bigint, u8 text, i16 text, u32 text, i64 text, u64 text, i128 text, u256 text,
  f32 text, f64 text, bf text, b text, d9 text, d18 text, d38 text, d76 text,
  s text, fs text, e8 text, d text, d32 text, dt text, dt_tokyo text, dt3 text, dt6 text,
  dt9 text, dt3_ny text, u text, n_i32 text, n_s text, lc text, lc_n text,
  a_i32 text, a_ns text, a_lc text, a_dec text, def text
) SERVER ch_mins;

-- ==== Native: minima, maxima, special values (one statement per row), a row that
-- names only id (ClickHouse fills the rest, def with its DEFAULT 42); row 2 has
-- u256 = 2^255 - 1, rows 5 and 6 the upper half of UInt256: 2^255 and 2^256 - 1
INSERT INTO ins (id, u8, i16, u32, i64, u64, i128, u256, f32, f64, bf, b, d9, d18, d38, d76,
                 s, fs, e8, d, d32, dt, dt_tokyo, dt3, dt6, dt9, dt3_ny, u, n_i32, n_s, lc, lc_n,
                 a_i32, a_ns, a_lc, a_dec)
VALUES
  (1, 0, -32768, 0, -9223372036854775808, 0, -170141183460469231731687303715884105728, 0,
   -3.25, -1e300, -3.25, false,
   -9999999.99, -99999999999999.9999, -9999999999999999999999999999.9999999999,
   -99999999999999999999999999999999999999999999999999999999.99999999999999999999,
   '', '\x00000000', 'a', '1970-01-01', '1900-01-01', '1970-01-01 00:00:00+00', '1970-01-01 09:00:00',
   '1900-01-01 00:00:00+00', '1900-01-01 00:00:00+00', '1900-01-01 00:00:00+00', '1969-12-31 19:00:00',
   '00000000-0000-0000-0000-000000000000', NULL, NULL, '', NULL,
   '{}', '{}', '{}', '{}');
INSERT INTO ins (id, u8, i16, u32, i64, u64, i128, u256, f32, f64, bf, b, d9, d18, d38, d76,
                 s, fs, e8, d, d32, dt, dt_tokyo, dt3, dt6, dt9, dt3_ny, u, n_i32, n_s, lc, lc_n,
                 a_i32, a_ns, a_lc, a_dec)
VALUES
  (2, 255, 32767, 4294967295, 9223372036854775807, 18446744073709551615,
   170141183460469231731687303715884105727,
   57896044618658097711785492504343953926634992332820282019728792003956564819967,
   3.4028235e38, 1.7976931348623157e308, 3.3895314e38, true,
   9999999.99, 99999999999999.9999, 9999999999999999999999999999.9999999999,
   99999999999999999999999999999999999999999999999999999999.99999999999999999999,
   E'ünïcødé € quote '' back\\slash "dq" tab\tnl\n', '\x61626364', 'x,y = (z)',
   '2149-06-06', '2299-12-31', '2106-02-07 06:28:15+00', '2106-02-07 15:28:15',
   '2299-12-31 23:59:59.999+00', '2299-12-31 23:59:59.999999+00', '2262-04-11 23:47:16.854775+00',
   '2299-12-31 18:59:59.999',
   'ffffffff-ffff-ffff-ffff-ffffffffffff', 2147483647, '', 'k1', '',
   '{-2147483648,2147483647}', '{x,NULL,""}', '{k,k,j}', '{1.5,-0.01}');
INSERT INTO ins (id, u8, i16, u32, i64, u64, i128, u256, f32, f64, bf, b, d9, d18, d38, d76,
                 s, fs, e8, d, d32, dt, dt_tokyo, dt3, dt6, dt9, dt3_ny, u, n_i32, n_s, lc, lc_n,
                 a_i32, a_ns, a_lc, a_dec)
VALUES
  (3, 42, -42, 424242, -1234567890123456789, 12345678901234567890,
   -18446744073709551617, 18446744073709551616,
   'NaN', '-Infinity', 0.1, true,
   123.45, -1234.5678, 12345678901234567890.1234567891, -1.5,
   'it''s', '\x61000000', 'it''s', '2019-01-02', '1969-12-31', '2019-01-02 03:04:05+00',
   '2019-01-02 12:04:05', '2019-01-02 03:04:05.123+00', '2019-01-02 03:04:05.123456+00',
   '1969-12-31 23:59:59.999999+00', '2019-01-01 22:04:05.123',
   '61f0c404-5cb3-11e7-907b-a6006ad3dba0', -1, 'x', 'k2', 'k2',
   '{0}', '{NULL}', '{""}', '{0}');
INSERT INTO ins (id) VALUES (4);
INSERT INTO ins (id, u256) VALUES
  (5, 57896044618658097711785492504343953926634992332820282019728792003956564819968);
INSERT INTO ins (id, u256) VALUES
  (6, 115792089237316195423570985008687907853269984665640564039457584007913129639935);

-- read back through the FDW (dt_tokyo, DateTime('Asia/Tokyo') written from a
-- timestamp as Tokyo wall time, is checked in ClickHouse's text below; reading
-- it back as timestamp is modern_types' business)
SELECT id, u8, i16, u32, i64, u64, b FROM ins WHERE id <= 4 ORDER BY id;
SELECT id, i128, u256 FROM ins ORDER BY id;
SELECT id, f32, f64, bf FROM ins WHERE id <= 4 ORDER BY id;
SELECT id, d9, d18, d38 FROM ins WHERE id <= 4 ORDER BY id;
SELECT id, d76 FROM ins WHERE id <= 4 ORDER BY id;
SELECT id, s, fs, e8, u FROM ins WHERE id <= 4 ORDER BY id;
SELECT id, d, d32, dt, dt3 FROM ins WHERE id <= 4 ORDER BY id;
SELECT id, dt6, dt9, dt3_ny FROM ins WHERE id <= 4 ORDER BY id;
SELECT id, n_i32, n_s, lc, lc_n, a_i32, a_ns, a_lc, a_dec, ip4, ip6, def FROM ins WHERE id <= 4 ORDER BY id;

-- ClickHouse's own text of the same rows
SELECT id, u8, i16, u32, i64, u64, b FROM ins_text WHERE id <= 4 ORDER BY id;
SELECT id, i128, u256 FROM ins_text ORDER BY id;
SELECT id, f32, f64, bf FROM ins_text WHERE id <= 4 ORDER BY id;
SELECT id, d9, d18, d38 FROM ins_text WHERE id <= 4 ORDER BY id;
SELECT id, d76 FROM ins_text WHERE id <= 4 ORDER BY id;
SELECT id, s, fs, e8, u FROM ins_text WHERE id <= 4 ORDER BY id;
SELECT id, d, d32, dt, dt_tokyo, dt3 FROM ins_text WHERE id <= 4 ORDER BY id;
SELECT id, dt6, dt9, dt3_ny FROM ins_text WHERE id <= 4 ORDER BY id;
SELECT id, n_i32, n_s, lc, lc_n, a_i32, a_ns, a_lc, a_dec, def FROM ins_text WHERE id <= 4 ORDER BY id;

-- ==== RowBinary writes the same values: rows 11..14 equal rows 1..4 column by column
-- (copied through a foreign table that reads dt_tokyo as the instant it is)
CREATE FOREIGN TABLE ins_rb (
  id bigint,
  u8 smallint, i16 smallint, u32 bigint, i64 bigint, u64 numeric, i128 numeric, u256 numeric,
  f32 real, f64 double precision, bf real, b boolean,
  d9 numeric(9, 2), d18 numeric(18, 4), d38 numeric(38, 10), d76 numeric(76, 20),
  s text, fs bytea, e8 text,
  d date, d32 date, dt timestamptz, dt_tokyo timestamptz, dt3 timestamptz, dt6 timestamptz,
  dt9 timestamptz, dt3_ny timestamp,
  u uuid, n_i32 int, n_s text, lc text, lc_n text,
  a_i32 int[], a_ns text[], a_lc text[], a_dec numeric[], def bigint
) SERVER ch_mins OPTIONS (table 'ins', insert_format 'rowbinary');
INSERT INTO ins_rb SELECT id + 10, u8, i16, u32, i64, u64, i128, u256, f32, f64, bf, b, d9, d18, d38, d76,
    s, fs, e8, d, d32, dt, dt_tokyo, dt3, dt6, dt9, dt3_ny, u, n_i32, n_s, lc, lc_n,
    a_i32, a_ns, a_lc, a_dec, def
  FROM ins_rb WHERE id <= 3;
INSERT INTO ins_rb (id) VALUES (14);
SELECT a.id, b.id AS rowbinary_id,
       (a.u8, a.i16, a.u32, a.i64, a.u64, a.i128, a.u256, a.f32, a.f64, a.bf, a.b, a.d9, a.d18, a.d38,
        a.d76, a.s, a.fs, a.e8, a.d, a.d32, a.dt, a.dt_tokyo, a.dt3, a.dt6, a.dt9, a.dt3_ny, a.u,
        a.n_i32, a.n_s, a.lc, a.lc_n, a.a_i32, a.a_ns, a.a_lc, a.a_dec, a.def)
       IS NOT DISTINCT FROM
       (b.u8, b.i16, b.u32, b.i64, b.u64, b.i128, b.u256, b.f32, b.f64, b.bf, b.b, b.d9, b.d18, b.d38,
        b.d76, b.s, b.fs, b.e8, b.d, b.d32, b.dt, b.dt_tokyo, b.dt3, b.dt6, b.dt9, b.dt3_ny, b.u,
        b.n_i32, b.n_s, b.lc, b.lc_n, b.a_i32, b.a_ns, b.a_lc, b.a_dec, b.def) AS same_in_clickhouse
  FROM ins_text a JOIN ins_text b ON b.id = a.id + 10
 ORDER BY a.id;

-- ==== many rows, several blocks: LowCardinality dictionaries per block, Nullable, arrays
ALTER FOREIGN TABLE ins OPTIONS (ADD batch_size '3000');
INSERT INTO ins (id, lc, lc_n, n_i32, dt9, a_lc)
SELECT g, 'k' || (g % 7), CASE WHEN g % 5 = 0 THEN NULL ELSE 'n' || (g % 3) END,
       CASE WHEN g % 2 = 0 THEN g END, '2000-01-01 00:00:00+00'::timestamptz + g * interval '1.000001 second',
       ARRAY['a' || (g % 4), 'b']
  FROM generate_series(1000, 10999) g;
ALTER FOREIGN TABLE ins OPTIONS (DROP batch_size);
SELECT count(*), count(DISTINCT lc), count(lc_n), count(DISTINCT lc_n), count(n_i32), sum(n_i32),
       min(dt9), max(dt9), count(DISTINCT a_lc)
  FROM ins WHERE id >= 1000;
SELECT lc, count(*), count(lc_n) AS lc_n, count(DISTINCT lc_n) AS lc_n_values, min(a_lc), max(a_lc)
  FROM ins_text WHERE id >= 1000 GROUP BY lc ORDER BY lc;

-- ==== COPY sends every column of the foreign table
CREATE FOREIGN TABLE ins_copy (id bigint, s text, lc text, dt6 timestamptz, a_ns text[])
  SERVER ch_mins OPTIONS (table 'ins');
COPY ins_copy FROM STDIN WITH (FORMAT csv);
20001,"copy, with comma",k1,2019-01-02 03:04:05.5+00,"{a,NULL}"
20002,"line
break",k2,1900-01-01 00:00:00+00,{}
\.
SELECT id, s, lc, dt6, a_ns, def FROM ins WHERE id > 20000 ORDER BY id;

-- ==== checked before sending: an error naming the column and the row, nothing written
-- (numbers through unconstrained numeric, so the FDW checks them, not PostgreSQL's typmod)
CREATE FOREIGN TABLE ins_num (id bigint, d9 numeric, d76 numeric) SERVER ch_mins OPTIONS (table 'ins');
INSERT INTO ins (id, u8) VALUES (30, 255), (31, 256);
INSERT INTO ins (id, u64) VALUES (30, -1);
INSERT INTO ins (id, i128) VALUES (30, 170141183460469231731687303715884105728);
INSERT INTO ins (id, u256) VALUES (30, 115792089237316195423570985008687907853269984665640564039457584007913129639936);
INSERT INTO ins_num (id, d9) VALUES (30, 12345678.9);
INSERT INTO ins_num (id, d9) VALUES (30, 1.234);
INSERT INTO ins_num (id, d76) VALUES (30, 100000000000000000000000000000000000000000000000000000000);
INSERT INTO ins_num (id, d76) VALUES (30, 0.000000000000000000001);
INSERT INTO ins (id, fs) VALUES (30, '\x6162636465');
INSERT INTO ins (id, e8) VALUES (30, 'nope');
INSERT INTO ins (id, d) VALUES (30, '2149-06-07');
INSERT INTO ins (id, dt) VALUES (30, '2106-02-07 06:28:16+00');
INSERT INTO ins (id, dt3) VALUES (30, '2020-01-01 00:00:00.0005+00');
INSERT INTO ins (id, dt9) VALUES (30, '2262-04-11 23:47:16.854776+00');
INSERT INTO ins (id, s) VALUES (30, NULL);
INSERT INTO ins (id, a_lc) VALUES (30, ARRAY['a', NULL]);
INSERT INTO ins (id, f32) VALUES (30, 'Infinity'), (31, '-Infinity'), (32, 'NaN');
INSERT INTO ins (id, b) VALUES (33, NULL);
-- outside ClickHouse's calendar (Date32 and DateTime64 hold 1900-01-01 .. 2299-12-31):
-- ClickHouse never stores such a value itself (its own input saturates), and shows
-- one written in binary as a different date, so the writer must refuse it like a
-- Date out of range
INSERT INTO ins (id, d32) VALUES (30, '1899-12-31');
INSERT INTO ins (id, d32) VALUES (30, '2300-01-01');
INSERT INTO ins (id, dt6) VALUES (30, '1899-12-31 23:59:59.999999+00');
INSERT INTO ins (id, dt3) VALUES (30, '2300-01-01 00:00:00+00');
-- only the rows 30..33 of the statements that succeeded arrived
SELECT id, f32, b FROM ins WHERE id BETWEEN 30 AND 39 ORDER BY id;
-- IPv4 / IPv6 from inet; an IPv4 address in an IPv6 column is mapped (::ffff:a.b.c.d)
INSERT INTO ins (id, ip4, ip6) VALUES (40, '10.0.0.1', '::1'), (41, '255.255.255.255', '10.1.2.3'),
  (42, '0.0.0.0', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff');
SELECT id, ip4, ip6 FROM ins WHERE id BETWEEN 40 AND 49 ORDER BY id;
SELECT clickhouse_raw_query('ch_mins',
  'SELECT id, toString(ip4), toString(ip6) FROM regress_modern.ins WHERE id BETWEEN 40 AND 49 ORDER BY id');
-- a network or the wrong family is an error
INSERT INTO ins (id, ip4) VALUES (43, '10.0.0.0/8');
INSERT INTO ins (id, ip4) VALUES (43, '::1');

-- ==== a block whose answer is lost is sent again with the same
-- insert_deduplication_token (statement id + block number), so ClickHouse
-- writes it once. The test front drops the answer of each block's first
-- attempt (x_test_lose_answer_once: a harness control, not a setting).
CREATE SERVER ch_lossy FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress_modern', settings 'x_test_lose_answer_once=1');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_lossy;
SELECT clickhouse_exec('ch_mins', 'DROP TABLE IF EXISTS regress_modern.dedup');
SELECT clickhouse_exec('ch_mins',
  'CREATE TABLE regress_modern.dedup (id UInt64) ENGINE = MergeTree ORDER BY id SETTINGS non_replicated_deduplication_window = 1000');
CREATE FOREIGN TABLE dedup (id bigint) SERVER ch_lossy OPTIONS (batch_size '1000');
INSERT INTO dedup SELECT g FROM generate_series(1, 3500) g;
-- every block arrived exactly once
SELECT count(*), count(DISTINCT id), sum(id) FROM dedup;
-- a non-replicated MergeTree deduplicates only with non_replicated_deduplication_window:
-- without it a block whose answer was lost is never sent again (neither by the FDW nor
-- by libcurl's own resend on a reused connection, which wrote every block twice here):
-- the error says it may or may not have been written, and ClickHouse holds it once
SELECT clickhouse_exec('ch_mins', 'DROP TABLE IF EXISTS regress_modern.nodedup');
SELECT clickhouse_exec('ch_mins',
  'CREATE TABLE regress_modern.nodedup (id UInt64) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE nodedup (id bigint) SERVER ch_lossy OPTIONS (batch_size '1000');
DO $$
DECLARE d text;
BEGIN
  INSERT INTO nodedup SELECT g FROM generate_series(1, 3500) g;
EXCEPTION WHEN others THEN
  GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL;
  RAISE NOTICE '%: %', SQLSTATE, regexp_replace(SQLERRM, ':[0-9]+/', ':<port>/');
  RAISE NOTICE '%', regexp_replace(d, 'query id "[^"]*"', 'query id "..."');
END $$;
SELECT count(*), count(DISTINCT id) FROM nodedup;
DROP SERVER ch_lossy CASCADE;

DROP SERVER ch_mins CASCADE;
