-- ====================================================================
-- Body of write_types.sql (ClickHouse 18.16) and modern_write_types.sql
-- (the 26.5 engine behind test/chdb/front.py, a test harness, not a
-- server): composite values into Tuple columns, PostgreSQL arrays of every
-- dimension and element type into (nested) Arrays, time into String.
-- Every value is read back as ClickHouse's own text (clickhouse_raw_query),
-- never through the FDW's reader. The caller has created server ch_wt and
-- set :ch_db.
-- ====================================================================
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';
CREATE FUNCTION wt_rows(tbl text) RETURNS SETOF text LANGUAGE sql AS
$$ SELECT regexp_split_to_table(rtrim(clickhouse_raw_query('ch_wt',
     'SELECT * FROM ' || current_setting('wt.db') || '.' || tbl || ' ORDER BY id'), E'\n'), E'\n') $$;
SELECT set_config('wt.db', :'ch_db', false) IS NOT NULL AS set;

-- ==== composite → Tuple: by position, nested, Nullable elements
SELECT clickhouse_exec('ch_wt', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.wt_tuple');
SELECT clickhouse_exec('ch_wt', 'CREATE TABLE ' || :'ch_db' || '.wt_tuple (id Int32, t Tuple(Int32, String), tn Tuple(Nullable(Int64), Nullable(String), Decimal(9, 2)), tt Tuple(Tuple(Int8, Date), Array(Nullable(Int32)))) ENGINE = MergeTree ORDER BY id');
CREATE TYPE wt_pair AS (i int, s text);
CREATE TYPE wt_three AS (n bigint, s text, d numeric);
CREATE TYPE wt_inner AS (k smallint, d date);
CREATE TYPE wt_outer AS (x wt_inner, y int[]);
CREATE FOREIGN TABLE wt_tuple (id int, t wt_pair, tn wt_three, tt wt_outer) SERVER ch_wt;
-- the source rows, kept to compare with what the FDW reads back
CREATE TABLE wt_tuple_src (id int, t wt_pair, tn wt_three, tt wt_outer);
INSERT INTO wt_tuple_src VALUES
  (1, (1, 'a'), (NULL, NULL, 0), ((127, '2020-01-02'), '{1,2,3}')),
  (2, (-2147483648, ''), (-9223372036854775808, 'x', -9999999.99), ((-128, '2105-12-31'), '{}')),
  (3, (2147483647, 'üñí'), (9223372036854775807, '', 9999999.99), ((0, '1970-01-02'), '{NULL}'));
INSERT INTO wt_tuple SELECT * FROM wt_tuple_src;
-- a composite with a NULL field into a non-Nullable element: the codec's error, the field named
INSERT INTO wt_tuple VALUES (4, (NULL, 'a'), (1, 'b', 1), ((1, '2020-01-01'), '{}'));
-- the field's converter checks the range as for a plain column
INSERT INTO wt_tuple VALUES (4, (1, 'a'), (1, 'b', 1), ((128, '2020-01-01'), '{}'));
INSERT INTO wt_tuple VALUES (4, (1, 'a'), (1, 'b', 1.005), ((1, '2020-01-01'), '{}'));
-- decimal_precision_loss reaches the fields
ALTER FOREIGN TABLE wt_tuple ALTER COLUMN tn OPTIONS (ADD decimal_precision_loss 'round');
INSERT INTO wt_tuple VALUES (4, (4, 'd'), (4, 'd', 1.005), ((4, '2020-01-04'), '{4}'));
-- a NULL composite: Tuple is never Nullable here
INSERT INTO wt_tuple VALUES (5, NULL, (1, 'b', 1), ((1, '2020-01-01'), '{}'));
-- a dropped field does not count
CREATE TYPE wt_dropped AS (x uuid, i int, s text);
ALTER TYPE wt_dropped DROP ATTRIBUTE x;
CREATE FOREIGN TABLE wt_tuple_dropped (id int, t wt_dropped) SERVER ch_wt OPTIONS (table 'wt_tuple');
INSERT INTO wt_tuple_dropped VALUES (5, (5, 'five'));
SELECT * FROM wt_rows('wt_tuple');
-- COPY writes the same
COPY wt_tuple FROM STDIN;
6	(6,six)	(,"",0.5)	("(6,2020-01-06)","{6,6}")
\.
SELECT * FROM wt_rows('wt_tuple') WHERE wt_rows LIKE '6%';
-- read back through the FDW (Tuples as composite types): the source rows, field for field
SELECT s.id, (s.t, s.tn, s.tt) IS NOT DISTINCT FROM (f.t, f.tn, f.tt) AS same
  FROM wt_tuple_src s LEFT JOIN wt_tuple f USING (id) ORDER BY s.id;

-- ==== mismatches are errors at the start of the statement, naming the column
CREATE TYPE wt_one AS (i int);
CREATE FOREIGN TABLE wt_tuple_arity (id int, t wt_one) SERVER ch_wt OPTIONS (table 'wt_tuple');
INSERT INTO wt_tuple_arity VALUES (9, ROW(1));
CREATE TYPE wt_uuid_pair AS (u uuid, s text);
CREATE FOREIGN TABLE wt_tuple_elem (id int, t wt_uuid_pair) SERVER ch_wt OPTIONS (table 'wt_tuple');
INSERT INTO wt_tuple_elem VALUES (9, ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'a'));
-- a scalar into a Tuple
CREATE FOREIGN TABLE wt_tuple_scalar (id int, t int) SERVER ch_wt OPTIONS (table 'wt_tuple');
INSERT INTO wt_tuple_scalar VALUES (9, 1);

-- ==== arrays: every element type, NULL elements, nested arrays from multidimensional ones
SELECT clickhouse_exec('ch_wt', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.wt_array');
SELECT clickhouse_exec('ch_wt', 'CREATE TABLE ' || :'ch_db' || '.wt_array (id Int32, a_i8 Array(Int8), a_u64 Array(UInt64), a_f32 Array(Float32), a_f64 Array(Float64), a_b Array(UInt8), a_dec Array(Decimal(18, 3)), a_s Array(String), a_fs Array(FixedString(2)), a_bytea Array(String), a_lc Array(LowCardinality(String)), a_e Array(Enum8(''a'' = 1, ''b'' = 2)), a_d Array(Date), a_dt Array(DateTime(''UTC'')), a_u Array(UUID), a_n Array(Nullable(Int32)), a_2 Array(Array(Int32)), a_3 Array(Array(Array(Nullable(String)))), a_t Array(String)) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE wt_array (id int, a_i8 smallint[], a_u64 numeric[], a_f32 real[], a_f64 float8[],
  a_b boolean[], a_dec numeric[], a_s text[], a_fs bytea[], a_bytea bytea[], a_lc varchar[],
  a_e text[], a_d date[], a_dt timestamptz[], a_u uuid[], a_n int[], a_2 int[],
  a_3 text[], a_t time[]) SERVER ch_wt;
CREATE TABLE wt_array_src (LIKE wt_array);
INSERT INTO wt_array_src VALUES
  (1, '{-128,0,127}', '{0,18446744073709551615}', '{-3.5,0,1e30}', '{-1e300,0.1}', '{t,f}',
   '{-999999999999999.999,0.001}', '{"","a b","ü"}', '{"\\x0000","\\x6162"}', '{"\\x00c3bc"}', '{x,y,x}',
   '{b,a}', '{1970-01-02,2105-12-31}', '{"1970-01-01 00:00:01+00","2105-12-31 23:59:59+00"}',
   '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}', '{NULL,1,NULL}',
   '{{1,2},{3,4},{5,6}}', '{{{a,NULL}},{{"",b}}}', '{00:00:00,23:59:59.999999,24:00:00}'),
  (2, '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}',
   '{}', '{}', '{}'),
  (3, '{1}', '{1}', '{1}', '{1}', '{t}', '{1}', '{""}', '{}', '{}', '{}', '{}', '{}', '{}', '{}',
   '{NULL}', '{{7}}', '{{{NULL}}}', '{12:00}');
INSERT INTO wt_array SELECT * FROM wt_array_src;
SELECT * FROM wt_rows('wt_array');
-- read back through the FDW: the source rows, element for element
SELECT s.id, s IS NOT DISTINCT FROM f AS same
  FROM wt_array_src s LEFT JOIN wt_array f USING (id) ORDER BY s.id;
-- NULL elements need Array(Nullable(T)); element range checks as for a plain column
INSERT INTO wt_array (id, a_i8) VALUES (9, '{1,NULL}');
INSERT INTO wt_array (id, a_i8) VALUES (9, '{1,128}');
INSERT INTO wt_array (id, a_u64) VALUES (9, '{-1}');
INSERT INTO wt_array (id, a_fs) VALUES (9, '{"\\x616263"}');
INSERT INTO wt_array (id, a_e) VALUES (9, '{c}');
INSERT INTO wt_array (id, a_dec) VALUES (9, '{0.0001}');
-- dimensions must match the column's
INSERT INTO wt_array (id, a_2) VALUES (9, '{1,2}');
INSERT INTO wt_array (id, a_i8) VALUES (9, '{{1},{2}}');
-- no element conversion: refused at the start, naming the column
CREATE FOREIGN TABLE wt_array_bad (id int, a_d int[]) SERVER ch_wt OPTIONS (table 'wt_array');
INSERT INTO wt_array_bad VALUES (9, '{1}');
SELECT count(*) FROM wt_rows('wt_array');

-- ==== numeric into the narrow unsigned integers (every non-zero value was refused before)
SELECT clickhouse_exec('ch_wt', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.wt_num');
SELECT clickhouse_exec('ch_wt', 'CREATE TABLE ' || :'ch_db' || '.wt_num (id Int32, u8 UInt8, u16 UInt16, u32 UInt32, i8 Int8) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE wt_num (id int, u8 numeric, u16 numeric, u32 numeric, i8 numeric) SERVER ch_wt;
INSERT INTO wt_num VALUES (1, 0, 0, 0, -128), (2, 255, 65535, 4294967295, 127), (3, 1, 1, 1.000, -1);
SELECT * FROM wt_rows('wt_num');
INSERT INTO wt_num (id, u8) VALUES (9, 256);
INSERT INTO wt_num (id, u16) VALUES (9, 65536);
INSERT INTO wt_num (id, u32) VALUES (9, 4294967296);
INSERT INTO wt_num (id, u8) VALUES (9, -1);
INSERT INTO wt_num (id, i8) VALUES (9, -129);
