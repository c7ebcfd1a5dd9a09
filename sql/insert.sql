-- ====================================================================
-- INSERT, INSERT ... SELECT and COPY into ClickHouse, read back through
-- the FDW. Live (see types.sql).
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
CREATE SERVER ch_ins FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname 'regress');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_ins;
-- start from an empty table, so the test can run again
SELECT clickhouse_exec('ch_ins', 'TRUNCATE TABLE regress.ins_target');
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';
SET extra_float_digits = 1;

-- regress.ins_target (see test/fixtures/ch_regress.sql) has a DEFAULT column
CREATE FOREIGN TABLE ins (
  id bigint, i8 smallint, u16 integer, u64 numeric, f32 real, f64 double precision,
  s text, fs bytea, d date, dt timestamptz, dec numeric, lc text, u uuid,
  arr text[], n_i int, def bigint
) SERVER ch_ins OPTIONS (table 'ins_target');

-- ==== what is sent
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO ins (id, s) VALUES (1, 'x');
-- ==== single rows and multi-row VALUES; only the named columns are sent,
-- so ClickHouse fills def with its DEFAULT (42)
INSERT INTO ins (id, i8, u16, u64, f32, f64, s, fs, d, dt, dec, lc, u, arr, n_i)
VALUES (1, -128, 65535, 18446744073709551615, 1.5, 0.30000000000000004, 'quote '' back\slash',
        '\x00ff'::bytea, '1970-01-01', '1970-01-01 00:00:00+00', 12345678901234.5678, 'k1',
        'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', ARRAY['x', '', 'tab	z'], NULL);
INSERT INTO ins (id, s, lc, n_i) VALUES (2, '', 'k2', 7), (3, 'ünï', 'k1', NULL);
SELECT id, i8, u16, u64, f32, f64, s, fs, d, dt, dec::text, lc, u, arr, n_i, def
  FROM ins WHERE id <= 3 ORDER BY id;

-- ==== INSERT ... SELECT of many rows goes in blocks of batch_size
ALTER FOREIGN TABLE ins OPTIONS (ADD batch_size '25000');
INSERT INTO ins (id, s, lc, n_i) SELECT g, 'r' || g, 'k' || (g % 3), g FROM generate_series(100, 100099) g;
SELECT count(*), sum(id), count(DISTINCT lc), sum(n_i) FROM ins WHERE id >= 100;

-- ==== RowBinary gives the same rows
ALTER FOREIGN TABLE ins OPTIONS (ADD insert_format 'rowbinary');
-- (over native TCP rows travel as Native blocks whatever insert_format says:
-- the format word is masked here; transport_http.sql shows FORMAT RowBinary)
DO $$ DECLARE l text; BEGIN
  FOR l IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO ins (id, s) VALUES (1, ''x'')' LOOP
    IF l ~ 'Remote SQL|Batch Size' THEN
      RAISE NOTICE '%', regexp_replace(l, 'FORMAT (RowBinary|Native)$', 'FORMAT <insert format>');
    END IF;
  END LOOP;
END $$;
INSERT INTO ins (id, i8, s, lc, u, arr, n_i) VALUES (200000, 5, 'rb', 'k9', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', ARRAY['p', 'q'], NULL);
SELECT id, i8, s, lc, u, arr, n_i, def FROM ins WHERE id = 200000;
ALTER FOREIGN TABLE ins OPTIONS (DROP insert_format, DROP batch_size);

-- ==== COPY FROM (all columns of the foreign table are sent)
CREATE FOREIGN TABLE ins_copy (id bigint, s text, lc text) SERVER ch_ins OPTIONS (table 'ins_target');
COPY ins_copy FROM STDIN WITH (FORMAT csv);
300000,"from copy, with comma",k1
300001,"line
break",k2
\.
SELECT id, s, lc FROM ins WHERE id >= 300000 ORDER BY id;
-- COPY from a CSV file (client side)
\copy ins_copy FROM 'test/fixtures/ins_copy.csv' WITH (FORMAT csv)
SELECT id, s, lc FROM ins WHERE id >= 400000 ORDER BY id;

-- ==== 1,000,000 rows: count and checksums match what PostgreSQL sent
SELECT clickhouse_exec('ch_ins', 'CREATE TABLE regress.ins_million (id UInt64, s String, f Float64) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE ins_million (id bigint, s text, f float8) SERVER ch_ins;
INSERT INTO ins_million SELECT g, md5(g::text), g / 7.0 FROM generate_series(1, 1000000) g;
SELECT count(*) = 1000000 AS count_ok,
       sum(id) = 500000500000 AS sum_ok,
       sum(hashtext(s)::numeric) = (SELECT sum(hashtext(md5(g::text))::numeric) FROM generate_series(1, 1000000) g) AS strings_ok,
       sum(f::numeric) = (SELECT sum((g / 7.0::float8)::numeric) FROM generate_series(1, 1000000) g) AS floats_ok
  FROM ins_million;
SELECT clickhouse_exec('ch_ins', 'DROP TABLE regress.ins_million');

-- ==== checks before sending: an error names the column and the row
INSERT INTO ins (id, i8) VALUES (10, 1), (11, 300);
INSERT INTO ins (id) VALUES (-1);
INSERT INTO ins (id, fs) VALUES (12, '\x0102030405'::bytea);
INSERT INTO ins (id, dec) VALUES (13, 1.23456);
INSERT INTO ins (id, dec) VALUES (14, 123456789012345);
INSERT INTO ins (id, dt) VALUES (15, '2020-01-01 00:00:00.5+00');
INSERT INTO ins (id, s) VALUES (16, NULL);
INSERT INTO ins (id, arr) VALUES (17, ARRAY['a', NULL]);
INSERT INTO ins (id, d) VALUES (18, '1969-12-31');
INSERT INTO ins (id, u64) VALUES (19, 18446744073709551616);
INSERT INTO ins (id, u64) VALUES (19, 1.5);
-- none of the failed rows arrived
SELECT count(*) FROM ins WHERE id BETWEEN 10 AND 19;

-- ==== what ClickHouse cannot do
INSERT INTO ins (id) VALUES (20) RETURNING id;
INSERT INTO ins (id) VALUES (20) ON CONFLICT DO NOTHING;
CREATE FOREIGN TABLE ins_bad (id bigint, nope int) SERVER ch_ins OPTIONS (table 'ins_target');
INSERT INTO ins_bad (id, nope) VALUES (1, 1);
CREATE FOREIGN TABLE ins_badtype (id bigint, d uuid) SERVER ch_ins OPTIONS (table 'ins_target');
INSERT INTO ins_badtype (id, d) VALUES (1, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');

-- ==== insert_commit 'transaction': blocks wait in temporary files for COMMIT
SELECT clickhouse_exec('ch_ins', 'DROP TABLE IF EXISTS regress.tx');
SELECT clickhouse_exec('ch_ins', 'CREATE TABLE regress.tx (id UInt64) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE tx (id bigint) SERVER ch_ins
  OPTIONS (insert_commit 'transaction', batch_size '1000');
EXPLAIN (VERBOSE, COSTS OFF) INSERT INTO tx VALUES (1);
BEGIN;
INSERT INTO tx SELECT g FROM generate_series(1, 5000) g;
-- not in ClickHouse yet
SELECT count(*) AS before_commit FROM tx;
ROLLBACK;
SELECT count(*) AS after_rollback FROM tx;
BEGIN;
INSERT INTO tx SELECT g FROM generate_series(1, 5000) g;
SAVEPOINT s1;
INSERT INTO tx SELECT g FROM generate_series(100001, 102000) g;
ROLLBACK TO SAVEPOINT s1;
COPY tx FROM STDIN;
999999
\.
COMMIT;
SELECT count(*), sum(id) FROM tx;
-- outside a transaction block each statement commits at its end
INSERT INTO tx VALUES (7);
SELECT count(*) FROM tx;
BEGIN;
INSERT INTO tx VALUES (8);
PREPARE TRANSACTION 'tx1';
ALTER FOREIGN TABLE tx OPTIONS (SET insert_commit 'later');
SELECT clickhouse_exec('ch_ins', 'DROP TABLE regress.tx');

-- ==== batches are written a column at a time (Native blocks): each kind of
-- column (in bulk: integers, dates, timestamps, floats, text, bytea; value
-- by value: numeric, uuid, arrays), NULLs, rows across PostgreSQL's
-- 1,000-row batches and blocks of batch_size rows; RowBinary (row by row)
-- must write the same rows
SELECT clickhouse_exec('ch_ins', 'TRUNCATE TABLE regress.ins_target');
CREATE TEMP TABLE colsrc AS
SELECT g::bigint AS id, (g % 256 - 128)::smallint AS i8, (g * 7 % 65536)::int AS u16,
       g::numeric * 1000003 AS u64, (g / 8.0)::real AS f32, (g / 3.0)::float8 AS f64,
       repeat(chr(97 + g % 26), g % 200) AS s, int4send(g) AS fs, '1970-01-01'::date + g AS d,
       'epoch'::timestamptz + g * interval '1 second' AS dt, g / 16.0 AS dec,
       'k' || (g % 50) AS lc, md5(g::text)::uuid AS u, ARRAY['a' || g, ''] AS arr,
       CASE WHEN g % 3 = 0 THEN NULL ELSE g END AS n_i
  FROM generate_series(1, 2600) g;
ALTER FOREIGN TABLE ins OPTIONS (ADD batch_size '700');
INSERT INTO ins (id, i8, u16, u64, f32, f64, s, fs, d, dt, dec, lc, u, arr, n_i)
  SELECT * FROM colsrc;
SELECT count(*) AS rows, count(n_i) AS non_null,
       (SELECT count(*) FROM (SELECT id, i8, u16, u64, f32, f64, s, fs, d, dt, dec, lc, u, arr, n_i FROM ins
                              EXCEPT SELECT * FROM colsrc) x) AS not_in_source,
       (SELECT count(*) FROM (SELECT * FROM colsrc
                              EXCEPT SELECT id, i8, u16, u64, f32, f64, s, fs, d, dt, dec, lc, u, arr, n_i FROM ins) x) AS missing
  FROM ins;
SELECT clickhouse_exec('ch_ins', 'TRUNCATE TABLE regress.ins_target');
ALTER FOREIGN TABLE ins OPTIONS (ADD insert_format 'rowbinary');
INSERT INTO ins (id, i8, u16, u64, f32, f64, s, fs, d, dt, dec, lc, u, arr, n_i)
  SELECT * FROM colsrc;
SELECT count(*) AS rows,
       (SELECT count(*) FROM (SELECT id, i8, u16, u64, f32, f64, s, fs, d, dt, dec, lc, u, arr, n_i FROM ins
                              EXCEPT SELECT * FROM colsrc) x) AS not_in_source
  FROM ins;
ALTER FOREIGN TABLE ins OPTIONS (DROP insert_format, DROP batch_size);
-- a bad value names its column and row, in any batch: in a bulk column
-- (rejected by the codec; by PostgreSQL-side checks) and in a value-by-value one
INSERT INTO ins (id, i8) SELECT g, CASE WHEN g = 1537 THEN 300 ELSE 1 END FROM generate_series(1, 3000) g;
INSERT INTO ins (id, fs) SELECT g, CASE WHEN g = 1200 THEN '\x0001020304'::bytea ELSE '\x00'::bytea END
  FROM generate_series(1, 2000) g;
INSERT INTO ins (id, dt) SELECT g, CASE WHEN g = 999 THEN '2000-01-01 00:00:00.5+00'::timestamptz ELSE 'epoch' END
  FROM generate_series(1, 2000) g;
INSERT INTO ins (id, dec) SELECT g, CASE WHEN g = 1001 THEN 1e20 ELSE 1 END FROM generate_series(1, 2000) g;
INSERT INTO ins (id, i8) SELECT g, CASE WHEN g = 2 THEN NULL ELSE 1 END FROM generate_series(1, 10) g;
-- values larger than a chunk (8 MB of detoasted values): 24 compressed,
-- toasted 1 MB strings are converted a few rows at a time
SELECT clickhouse_exec('ch_ins', 'TRUNCATE TABLE regress.ins_target');
CREATE TEMP TABLE bigsrc AS SELECT g AS id, repeat(md5(g::text), 32768) AS s FROM generate_series(1, 24) g;
INSERT INTO ins (id, s) SELECT id, s FROM bigsrc;
SELECT count(*), sum(length(s)), bool_and(s = repeat(md5(id::text), 32768)) FROM ins;

-- ==== numeric into Float64: exactly the double numeric_float8 gives (read
-- from numeric's digits where that is decided, through text at ties, for
-- NaN, infinities and values out of the normal range), in the batched Native
-- path and the row-at-a-time RowBinary one
SELECT clickhouse_exec('ch_ins', 'CREATE TABLE regress.ins_numf (id Int32, f Float64) ENGINE = MergeTree ORDER BY id');
-- written from numeric columns, read back as float8 (exact: the double's bits)
CREATE FOREIGN TABLE ins_numf (id int, f numeric) SERVER ch_ins;
CREATE FOREIGN TABLE ins_numf_r (id int, f float8) SERVER ch_ins OPTIONS (table 'ins_numf');
CREATE TEMP TABLE numsrc (id int, n numeric);
INSERT INTO numsrc VALUES (1, 'NaN'), (2, 'Infinity'), (3, '-Infinity'), (4, 0), (5, '-0.000'),
  (6, 1.7976931348623157e308), (7, -2.2250738585072014e-308), (8, 4.9406564584124654e-324), (9, 1e-310),
  -- 2^53 + 1 is halfway between two doubles; and just above, just below it
  (10, 9007199254740993), (11, 9007199254740993.00000000000000000001), (12, 9007199254740992.99999999999999999999),
  (13, -9007199254740993), (14, 0.1), (15, 0.3), (16, 123456789012345678901234567890), (17, 1e22), (18, 1e23),
  (19, 4503599627370496.5), (20, 4503599627370497.5), (21, 0.00000000000000000000000000000000000001);
-- ties times powers of two (exact decimals), the benchmark's g / 7.0, hashes
-- scaled over the range, 32-digit fractions
INSERT INTO numsrc SELECT 100 + k, 9007199254740993::numeric * 2::numeric ^ k FROM generate_series(1, 60) k;
INSERT INTO numsrc SELECT 200 + k, 9007199254740993::numeric * 5::numeric ^ k * ('1e' || -k)::numeric FROM generate_series(1, 60) k;
-- the ties moved by a few units of their 20th significant digit (beyond the 19
-- digits read directly): the value crosses the tie where the digits read do not
INSERT INTO numsrc SELECT 300 + 20 * k + j + 9, t + j * ('1e' || floor(log(t)) - 19)::numeric
  FROM (SELECT k, 9007199254740993::numeric * 2::numeric ^ k AS t FROM generate_series(1, 30) k
        UNION ALL SELECT 30 + k, 9007199254740993::numeric * 5::numeric ^ k * ('1e' || -k)::numeric FROM generate_series(1, 30) k) ties,
       generate_series(-9, 9) j;
-- ties of 20 to 30 digits, and just above and below them
INSERT INTO numsrc SELECT 300000 + 3 * g + j, t + j * t * 1e-25
  FROM (SELECT g, ((4503599627370496 + (abs(hashint8(g))::bigint * 2097152 + abs(hashint8(-g)) % 2097152) % 4503599627370496) * 2 + 1)::numeric * 2::numeric ^ (g % 40 + 5) AS t
          FROM generate_series(1, 2000) g) ties, generate_series(-1, 1) j;
INSERT INTO numsrc SELECT 10000 + g, g / 7.0 FROM generate_series(1, 20000) g;
INSERT INTO numsrc SELECT 100000 + g, (CASE WHEN g % 2 = 0 THEN -1 ELSE 1 END) * abs(hashint8(g))::numeric * ('1e' || (g % 580) - 300)::numeric
  FROM generate_series(1, 20000) g;
INSERT INTO numsrc SELECT 200000 + g, ('0.' || translate(md5(g::text), 'abcdef', '123456'))::numeric * ('1e' || (g % 41) - 20)::numeric
  FROM generate_series(1, 20000) g;
INSERT INTO ins_numf SELECT * FROM numsrc;
SELECT count(*) AS rows, count(*) FILTER (WHERE f IS DISTINCT FROM n::float8) AS different
  FROM ins_numf_r JOIN numsrc USING (id);
SELECT id, f FROM ins_numf_r WHERE id < 100 ORDER BY id;
ALTER FOREIGN TABLE ins_numf OPTIONS (ADD insert_format 'rowbinary');
SELECT clickhouse_exec('ch_ins', 'TRUNCATE TABLE regress.ins_numf');
INSERT INTO ins_numf SELECT * FROM numsrc;
SELECT count(*) AS rows, count(*) FILTER (WHERE f IS DISTINCT FROM n::float8) AS different
  FROM ins_numf_r JOIN numsrc USING (id);
-- out of the double's range: numeric_float8's own error
INSERT INTO ins_numf VALUES (1, 1e308 * 10);
SELECT clickhouse_exec('ch_ins', 'DROP TABLE regress.ins_numf');

-- ==== a block ClickHouse refuses (a materialized view throws on one row):
-- ClickHouse's message, and a DETAIL that says what the statement committed
-- before it, the same on both transports (query ids masked)
SELECT clickhouse_exec('ch_ins', 'DROP TABLE IF EXISTS regress.ins_refuse_mv');
SELECT clickhouse_exec('ch_ins', 'DROP TABLE IF EXISTS regress.ins_refuse');
SELECT clickhouse_exec('ch_ins', 'CREATE TABLE regress.ins_refuse (id UInt64) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_ins', 'CREATE MATERIALIZED VIEW regress.ins_refuse_mv ENGINE = Memory AS SELECT throwIf(id = 150) AS boom FROM regress.ins_refuse');
CREATE FOREIGN TABLE ins_refuse (id bigint) SERVER ch_ins OPTIONS (batch_size '100');
DO $$ DECLARE d text; BEGIN
  INSERT INTO ins_refuse SELECT g FROM generate_series(1, 300) g;
EXCEPTION WHEN others THEN
  GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL;
  RAISE NOTICE '%: %', SQLSTATE, SQLERRM;
  RAISE NOTICE '%', regexp_replace(d, 'query id "[^"]*"', 'query id "..."', 'g');
END $$;
SELECT count(*) AS committed FROM ins_refuse;
SELECT clickhouse_exec('ch_ins', 'DROP TABLE regress.ins_refuse_mv');
SELECT clickhouse_exec('ch_ins', 'DROP TABLE regress.ins_refuse');

-- ==== where a row's values come from: the plan's row as it is, or what a
-- BEFORE ROW trigger, a generated column, a column list or the routing into
-- a partition whose columns are in another order made of it: ClickHouse gets
-- the row PostgreSQL would store
SELECT clickhouse_exec('ch_ins', 'DROP TABLE IF EXISTS regress.ins_src');
SELECT clickhouse_exec('ch_ins', 'CREATE TABLE regress.ins_src (a Int32, b String, c Int32) ENGINE = MergeTree ORDER BY a');
CREATE FOREIGN TABLE ins_src (a int, b text, c int) SERVER ch_ins;
INSERT INTO ins_src SELECT g, 'plain ' || g, -g FROM generate_series(1, 2) g;
CREATE FUNCTION ins_src_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN NEW.b := NEW.b || ' (trigger)'; NEW.c := NEW.a * 10; RETURN NEW; END $$;
CREATE TRIGGER ins_src_change BEFORE INSERT ON ins_src FOR EACH ROW EXECUTE FUNCTION ins_src_change();
INSERT INTO ins_src SELECT g, 'trig ' || g, 0 FROM generate_series(3, 4) g;
DROP TRIGGER ins_src_change ON ins_src;
CREATE FOREIGN TABLE ins_gen (a int, b text, c int GENERATED ALWAYS AS (a * 100) STORED)
  SERVER ch_ins OPTIONS (table 'ins_src');
INSERT INTO ins_gen (a, b) SELECT g, 'generated ' || g FROM generate_series(5, 6) g;
INSERT INTO ins_src (c, b, a) SELECT 70 + g, 'column list ' || g, g FROM generate_series(7, 8) g;
CREATE TABLE ins_parted (a int, b text, c int) PARTITION BY RANGE (a);
CREATE FOREIGN TABLE ins_part (c int, b text, a int) SERVER ch_ins OPTIONS (table 'ins_src');
ALTER TABLE ins_parted ATTACH PARTITION ins_part FOR VALUES FROM (0) TO (100);
INSERT INTO ins_parted SELECT g, 'routed ' || g, 90 + g FROM generate_series(9, 10) g;
SELECT a, b, c FROM ins_src ORDER BY a;
DROP TABLE ins_parted;
DROP FOREIGN TABLE ins_gen, ins_src;
DROP FUNCTION ins_src_change();
SELECT clickhouse_exec('ch_ins', 'DROP TABLE regress.ins_src');

DROP SERVER ch_ins CASCADE;
