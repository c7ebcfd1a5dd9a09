-- ====================================================================
-- Writing the types a CDC source holds into the ClickHouse 26.5 engine
-- (chDB behind test/chdb/front.py, a test harness, not a server): the body
-- shared with write_types.sql (18.16: composite → Tuple, arrays), then what
-- only modern servers have: named Tuples, Map from JSON objects, the JSON
-- type, Time and Time64, arrays of them. Every value is read back as
-- ClickHouse's own text. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_wt FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_wt;
\i sql/include/write_types.sql

-- ==== named Tuples: elements by name (fields in any order), nested, Nullable
SELECT clickhouse_exec('ch_wt', 'DROP TABLE IF EXISTS regress_modern.wt_named');
SELECT clickhouse_exec('ch_wt', 'CREATE TABLE regress_modern.wt_named (id Int32, t Tuple(a Int32, b Nullable(String)), tt Tuple(x Tuple(k Int8, d Date32), y Array(Tuple(p UInt8, q String))), tm Tuple(m Map(String, Int32), j JSON, tm Time64(3))) ENGINE = MergeTree ORDER BY id');
CREATE TYPE wt_ba AS (b text, a int);
CREATE TYPE wt_kd AS (k smallint, d date);
CREATE TYPE wt_pq AS (p smallint, q text);
CREATE TYPE wt_xy AS (x wt_kd, y wt_pq[]);
CREATE TYPE wt_mjt AS (m jsonb, j jsonb, tm time);
CREATE FOREIGN TABLE wt_named (id int, t wt_ba, tt wt_xy, tm wt_mjt) SERVER ch_wt;
INSERT INTO wt_named VALUES
  (1, ('x', 5), ((-1, '1900-01-01'), ARRAY[(0, 'zero'), (255, '')]::wt_pq[]), ('{"k": 1}', '{"a": {"b": 2}}', '12:00:00.125')),
  (2, (NULL, -5), ((1, '2299-12-31'), '{}'), ('{}', '{}', '00:00'));
SELECT * FROM wt_rows('wt_named');
-- elements of an array of composites are checked as any element
INSERT INTO wt_named VALUES (3, ('x', 5), ((1, '2000-01-01'), ARRAY[(256, 'x')]::wt_pq[]), ('{}', '{}', '00:00'));
INSERT INTO wt_named VALUES (3, ('x', 5), ((1, '2000-01-01'), ARRAY[NULL]::wt_pq[]), ('{}', '{}', '00:00'));
-- names that do not match are an error: values never land in another element
CREATE TYPE wt_ac AS (a int, c text);
CREATE FOREIGN TABLE wt_named_bad (id int, t wt_ac) SERVER ch_wt OPTIONS (table 'wt_named');
INSERT INTO wt_named_bad VALUES (3, (1, 'x'));

-- ==== Map(String, V) from a JSON object: keys, and each value converted to V
SELECT clickhouse_exec('ch_wt', 'DROP TABLE IF EXISTS regress_modern.wt_map');
SELECT clickhouse_exec('ch_wt', 'CREATE TABLE regress_modern.wt_map (id Int32, m_i Map(String, Int32), m_u Map(LowCardinality(String), UInt64), m_d Map(String, Nullable(Decimal(9, 2))), m_f Map(String, Float64), m_s Map(String, String), m_b Map(String, Bool), m_u8 Map(String, UInt8), m_date Map(String, Date), m_lc Map(String, LowCardinality(Nullable(String)))) ENGINE = MergeTree ORDER BY id');
-- jsonb, json and text holding JSON
CREATE FOREIGN TABLE wt_map (id int, m_i jsonb, m_u json, m_d text, m_f jsonb, m_s jsonb, m_b jsonb,
  m_u8 jsonb, m_date jsonb, m_lc varchar) SERVER ch_wt;
INSERT INTO wt_map VALUES
  (1, '{"min": -2147483648, "max": 2147483647, "zero": 0}', '{"max": 18446744073709551615, "z": 0}',
   '{"a": -9999999.99, "b": 9999999.99, "n": null}', '{"x": -1.5e300, "y": 0.1}',
   '{"": "", "k": "ü", "q": "a\"b"}', '{"t": true, "f": false}', '{"t": true, "n": 255}',
   '{"d": "2149-06-06", "e": "1970-01-01"}', '{"a": "x", "n": null}'),
  (2, '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}'),
  -- json keeps duplicate keys, the last one wins (as jsonb)
  (3, '{"a": 1.0}', '{"k": 1, "k": 2}', '{"a": 1.5}', '{"i": 3}', '{"s": "1"}', '{"b": false}', '{"z": 0}',
   '{"d": "2000-02-29"}', '{}');
SELECT * FROM wt_rows('wt_map');
-- every refused value: the key named
INSERT INTO wt_map (id, m_i) VALUES (9, '{"a": 1.5}');
INSERT INTO wt_map (id, m_i) VALUES (9, '{"a": 2147483648}');
INSERT INTO wt_map (id, m_u) VALUES (9, '{"a": -1}');
INSERT INTO wt_map (id, m_d) VALUES (9, '{"a": 0.001}');
INSERT INTO wt_map (id, m_d) VALUES (9, '{"a": 100000000}');
INSERT INTO wt_map (id, m_i) VALUES (9, '{"a": "1"}');
INSERT INTO wt_map (id, m_s) VALUES (9, '{"a": 1}');
INSERT INTO wt_map (id, m_b) VALUES (9, '{"a": 1}');
INSERT INTO wt_map (id, m_u8) VALUES (9, '{"a": 256}');
INSERT INTO wt_map (id, m_i) VALUES (9, '{"a": null}');
INSERT INTO wt_map (id, m_i) VALUES (9, '{"a": {"b": 1}}');
INSERT INTO wt_map (id, m_i) VALUES (9, '{"a": [1]}');
INSERT INTO wt_map (id, m_date) VALUES (9, '{"d": "2020-13-01"}');
INSERT INTO wt_map (id, m_date) VALUES (9, '{"d": "2150-01-01"}');
INSERT INTO wt_map (id, m_i) VALUES (9, '[1, 2]');
INSERT INTO wt_map (id, m_i) VALUES (9, '7');
INSERT INTO wt_map (id, m_d) VALUES (9, '{"a": 1');
-- decimal_precision_loss applies to the values
ALTER FOREIGN TABLE wt_map ALTER COLUMN m_d OPTIONS (ADD decimal_precision_loss 'truncate');
INSERT INTO wt_map (id, m_d) VALUES (4, '{"a": 0.019, "b": -0.019}');
SELECT * FROM wt_rows('wt_map') WHERE wt_rows LIKE '4%';
SELECT clickhouse_raw_query('ch_wt', 'SELECT count() FROM regress_modern.wt_map WHERE id = 9');
-- Map types JSON cannot fill: refused at the start, naming the column
SELECT clickhouse_exec('ch_wt', 'DROP TABLE IF EXISTS regress_modern.wt_map_bad');
SELECT clickhouse_exec('ch_wt', 'CREATE TABLE regress_modern.wt_map_bad (id Int32, k Map(Int32, String), v Map(String, Variant(Int32, String))) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE wt_map_bad (id int, k jsonb, v jsonb) SERVER ch_wt;
INSERT INTO wt_map_bad (id, k) VALUES (1, '{"1": "a"}');
INSERT INTO wt_map_bad (id, v) VALUES (1, '{"a": 1}');

-- ==== JSON into Tuple, Array and nested Map values: what IMPORT declares jsonb for
SELECT clickhouse_exec('ch_wt', 'DROP TABLE IF EXISTS regress_modern.wt_jnest');
SELECT clickhouse_exec('ch_wt', 'CREATE TABLE regress_modern.wt_jnest (id Int32, t Tuple(a Int32, b Nullable(String)), u Tuple(Int32, String), a Array(Nullable(Int32)), at Array(Tuple(x Int32, y String)), mv Map(String, Array(Int32)), mm Map(String, Map(String, Nullable(Int32))), mj Map(String, JSON)) ENGINE = MergeTree ORDER BY id');
CREATE SCHEMA wt_imp;
IMPORT FOREIGN SCHEMA regress_modern LIMIT TO (wt_jnest) FROM SERVER ch_wt INTO wt_imp;
SELECT attname, format_type(atttypid, atttypmod), attfdwoptions
  FROM pg_attribute WHERE attrelid = 'wt_imp.wt_jnest'::regclass AND attnum > 0 ORDER BY attnum;
CREATE TABLE wt_jnest_src (id int, t jsonb, u jsonb, a int[], at jsonb, mv jsonb, mm jsonb, mj jsonb);
INSERT INTO wt_jnest_src VALUES
  (1, '{"a": -2147483648, "b": "x"}', '[2147483647, ""]', '{1,NULL,3}', '[{"x": 1, "y": "p"}, {"x": 2, "y": ""}]',
   '{"k": [1, 2], "e": []}', '{"o": {"i": 1, "n": null}, "e": {}}', '{"j": {"a": [1, {"b": "c"}]}}'),
  (2, '{"a": 0, "b": null}', '[0, "ü"]', '{}', '[]', '{}', '{}', '{}');
INSERT INTO wt_imp.wt_jnest SELECT * FROM wt_jnest_src;
SELECT * FROM wt_rows('wt_jnest');
-- read back through the imported table: the source values
SELECT s.id, s.t = f.t AND s.u = f.u AND s.a = f.a AND s.at = f.at AND s.mv = f.mv AND s.mm = f.mm
       AND s.mj = f.mj AS same
  FROM wt_jnest_src s LEFT JOIN wt_imp.wt_jnest f USING (id) ORDER BY s.id;
-- every refused value, named by its place
INSERT INTO wt_imp.wt_jnest (id, t) VALUES (9, '{"a": 1}');
INSERT INTO wt_imp.wt_jnest (id, t) VALUES (9, '{"a": 1, "c": "x"}');
INSERT INTO wt_imp.wt_jnest (id, t) VALUES (9, '{"a": 2147483648, "b": "x"}');
INSERT INTO wt_imp.wt_jnest (id, t) VALUES (9, '{"a": null, "b": "x"}');
INSERT INTO wt_imp.wt_jnest (id, t) VALUES (9, '[1, "x"]');
INSERT INTO wt_imp.wt_jnest (id, u) VALUES (9, '[1]');
INSERT INTO wt_imp.wt_jnest (id, u) VALUES (9, '[1, 2]');
-- jsonb into Array(T) (declared by hand: IMPORT makes this one integer[])
CREATE FOREIGN TABLE wt_jnest_a (id int, a jsonb) SERVER ch_wt OPTIONS (table 'wt_jnest');
INSERT INTO wt_jnest_a VALUES (3, '[null, -1, 2147483647]'), (4, '[]');
SELECT clickhouse_raw_query('ch_wt', 'SELECT id, a FROM regress_modern.wt_jnest WHERE id IN (3, 4) ORDER BY id');
INSERT INTO wt_jnest_a VALUES (9, '[1, "2"]');
INSERT INTO wt_jnest_a VALUES (9, '{"a": 1}');
INSERT INTO wt_jnest_a VALUES (9, '[[1]]');
INSERT INTO wt_imp.wt_jnest (id, at) VALUES (9, '[{"x": 1, "y": "p"}, {"x": 1.5, "y": "q"}]');
INSERT INTO wt_imp.wt_jnest (id, mv) VALUES (9, '{"k": [1, null]}');
INSERT INTO wt_imp.wt_jnest (id, mm) VALUES (9, '{"o": {"i": [1]}}');
INSERT INTO wt_imp.wt_jnest (id, mj) VALUES (9, '{"j": [1]}');
SELECT clickhouse_raw_query('ch_wt', 'SELECT count() FROM regress_modern.wt_jnest WHERE id = 9');
DROP SCHEMA wt_imp CASCADE;

-- ==== JSON: the text in a String column of the block, converted by ClickHouse
SELECT clickhouse_raw_query('ch_wt', 'SELECT value FROM system.settings WHERE name = ''input_format_native_allow_types_conversion''');
SELECT clickhouse_exec('ch_wt', 'DROP TABLE IF EXISTS regress_modern.wt_json');
SELECT clickhouse_exec('ch_wt', 'CREATE TABLE regress_modern.wt_json (id Int32, j JSON, jn Nullable(JSON), jt JSON, ja Array(JSON)) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE wt_json (id int, j jsonb, jn json, jt text, ja jsonb[]) SERVER ch_wt;
INSERT INTO wt_json VALUES
  (1, '{"a": 1, "b": {"c": [1, 2, "x"], "d": null}, "s": "ü\"q"}', '{"k": true}', ' {"t": 1.5} ',
   ARRAY['{"x": 1}', '{}']::jsonb[]),
  (2, '{}', NULL, '{}', '{}'),
  -- a key twice in json or text: the last value (as jsonb; ClickHouse would refuse the block)
  (3, '{}', '{"k": 1, "k": 2}', '{"a": {"b": 1}, "a": {"c": 2}}', '{}');
SELECT regexp_split_to_table(rtrim(clickhouse_raw_query('ch_wt',
  'SELECT id, toJSONString(j), toJSONString(jn), toJSONString(jt), toJSONString(ja) FROM regress_modern.wt_json ORDER BY id'), E'\n'), E'\n');
SELECT clickhouse_raw_query('ch_wt', 'SELECT j.b.c, jn.k, jt.t FROM regress_modern.wt_json WHERE id = 1');
-- checked before sending: valid JSON, and an object
INSERT INTO wt_json (id, jt) VALUES (9, '{"a": ');
INSERT INTO wt_json (id, jt) VALUES (9, '[1, 2]');
INSERT INTO wt_json (id, j) VALUES (9, '"s"');
INSERT INTO wt_json (id, jn) VALUES (9, 'null');
INSERT INTO wt_json (id, j) VALUES (9, NULL);
INSERT INTO wt_json (id, ja) VALUES (9, ARRAY['1']::jsonb[]);
-- typed paths (JSON(a UInt8)) are checked by ClickHouse as it converts: the block is refused
SELECT clickhouse_exec('ch_wt', 'DROP TABLE IF EXISTS regress_modern.wt_json_typed');
SELECT clickhouse_exec('ch_wt', 'CREATE TABLE regress_modern.wt_json_typed (id Int32, j JSON(a UInt8)) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE wt_json_typed (id int, j jsonb) SERVER ch_wt;
INSERT INTO wt_json_typed VALUES (1, '{"a": 255, "b": "x"}');
DO $$
BEGIN
  INSERT INTO wt_json_typed VALUES (2, '{"a": 256}');
EXCEPTION WHEN others THEN
  RAISE NOTICE 'refused: % %', SQLSTATE, substring(SQLERRM from 'cannot convert [^(]*');
END $$;
SELECT clickhouse_raw_query('ch_wt', 'SELECT id, j FROM regress_modern.wt_json_typed ORDER BY id');
-- RowBinary cannot carry it (ClickHouse converts Native input only)
ALTER FOREIGN TABLE wt_json OPTIONS (ADD insert_format 'rowbinary');
INSERT INTO wt_json (id, j) VALUES (9, '{}');
ALTER FOREIGN TABLE wt_json OPTIONS (DROP insert_format);
SELECT clickhouse_raw_query('ch_wt', 'SELECT count() FROM regress_modern.wt_json WHERE id = 9');

-- ==== time into Time / Time64(p), interval (hours, minutes, seconds only) too
SELECT clickhouse_exec('ch_wt', 'DROP TABLE IF EXISTS regress_modern.wt_time');
SELECT clickhouse_exec('ch_wt', 'CREATE TABLE regress_modern.wt_time (id Int32, t Time, t0 Nullable(Time), t3 Time64(3), t6 Time64(6), t9 Time64(9), i Time64(6), a Array(Nullable(Time64(6)))) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE wt_time (id int, t time, t0 time, t3 time, t6 time, t9 time, i interval, a time[]) SERVER ch_wt;
INSERT INTO wt_time VALUES
  (1, '00:00', NULL, '00:00', '00:00', '00:00', '-999:59:59.999999', '{}'),
  (2, '24:00', '12:34:56', '23:59:59.999', '23:59:59.999999', '23:59:59.999999', '999:59:59.999999', '{00:00:00.000001,24:00}'),
  (3, '13:00:01', '00:00:01', '00:00:00.001', '00:00:00.000001', '00:00:00.000001', '-00:00:00.000001', '{NULL}');
SELECT * FROM wt_rows('wt_time');
-- sub-second digits the column cannot hold
INSERT INTO wt_time (id, t) VALUES (9, '12:00:00.5');
INSERT INTO wt_time (id, t3) VALUES (9, '12:00:00.0005');
-- an interval outside -999:59:59.999999 .. 999:59:59.999999, or with days or months
INSERT INTO wt_time (id, i) VALUES (9, '1000:00:00');
INSERT INTO wt_time (id, i) VALUES (9, '-1000:00:00');
INSERT INTO wt_time (id, i) VALUES (9, '1 day');
INSERT INTO wt_time (id, i) VALUES (9, '1 mon');
-- datetime_precision_loss: truncate toward the past, round half away from zero
ALTER FOREIGN TABLE wt_time OPTIONS (ADD datetime_precision_loss 'truncate');
INSERT INTO wt_time (id, t, t3) VALUES (4, '12:00:00.999999', '12:00:00.0019');
ALTER FOREIGN TABLE wt_time OPTIONS (SET datetime_precision_loss 'round');
INSERT INTO wt_time (id, t, t3) VALUES (5, '12:00:00.5', '12:00:00.0015'), (6, '23:59:59.5', '00:00:00.0004');
SELECT * FROM wt_rows('wt_time') WHERE wt_rows ~ '^[4-6]';
-- the same values as PostgreSQL's own rounding to a whole second / millisecond
SELECT '12:00:00.5'::time(0), '12:00:00.0015'::time(3), '23:59:59.5'::time(0);
SELECT clickhouse_raw_query('ch_wt', 'SELECT count() FROM regress_modern.wt_time WHERE id = 9');
-- INSERT ... SELECT converts a batch column at a time: the same checks and values
SELECT clickhouse_exec('ch_wt', 'ALTER TABLE regress_modern.wt_time DELETE WHERE id >= 4');
ALTER FOREIGN TABLE wt_time OPTIONS (DROP datetime_precision_loss);
INSERT INTO wt_time (id, t, t3, i)
  SELECT 100 + g, make_time(g % 24, g % 60, g % 60), make_time(g % 24, 0, (g % 60000) / 1000.0),
         make_interval(hours => g - 500)
  FROM generate_series(0, 999) g;
SELECT clickhouse_raw_query('ch_wt', 'SELECT count(), sum(toUInt32(t)), min(i), max(i), countIf(toString(t3) LIKE ''%.000'') FROM regress_modern.wt_time WHERE id >= 100');
SELECT count(*), sum(extract(epoch FROM make_time(g % 24, g % 60, g % 60))) FROM generate_series(0, 999) g;
INSERT INTO wt_time (id, t) SELECT 9, make_time(1, 0, (g % 700) / 699.0 * 59) FROM generate_series(0, 999) g;
-- timetz is not a Time: refused at the start
CREATE FOREIGN TABLE wt_time_tz (id int, t timetz) SERVER ch_wt OPTIONS (table 'wt_time');
INSERT INTO wt_time_tz VALUES (9, '12:00+02');

-- ==== arrays of the new pairs: Map, Tuple (Array(Tuple) is one column here), nested
SELECT clickhouse_exec('ch_wt', 'DROP TABLE IF EXISTS regress_modern.wt_arr2');
SELECT clickhouse_exec('ch_wt', 'CREATE TABLE regress_modern.wt_arr2 (id Int32, am Array(Map(String, Int32)), at Array(Tuple(Int32, String)), aat Array(Array(Tuple(a Int32, b String))), aip Array(IPv4), aip6 Array(Nullable(IPv6))) ENGINE = MergeTree ORDER BY id');
CREATE TYPE wt_ab AS (a int, b text);
CREATE FOREIGN TABLE wt_arr2 (id int, am jsonb[], at wt_pair[], aat wt_ab[], aip inet[], aip6 inet[]) SERVER ch_wt;
INSERT INTO wt_arr2 VALUES
  (1, ARRAY['{"a": 1}', '{}']::jsonb[], ARRAY[(1, 'x'), (2, '')]::wt_pair[],
   ARRAY[[(1, 'p')::wt_ab, (2, 'q')::wt_ab], [(3, 'r')::wt_ab, (4, 's')::wt_ab]], '{0.0.0.0,255.255.255.255}', '{::,NULL,1.2.3.4,ffff::1}'),
  (2, '{}', '{}', '{}', '{}', '{}');
SELECT * FROM wt_rows('wt_arr2');
INSERT INTO wt_arr2 (id, am) VALUES (9, ARRAY['{"a": "x"}']::jsonb[]);
INSERT INTO wt_arr2 (id, at) VALUES (9, ARRAY[NULL]::wt_pair[]);
INSERT INTO wt_arr2 (id, aip) VALUES (9, '{::1}');
SELECT clickhouse_raw_query('ch_wt', 'SELECT count() FROM regress_modern.wt_arr2 WHERE id = 9');
-- ==== arrays of the modern scalar types, read back through the FDW and compared
SELECT clickhouse_exec('ch_wt', 'DROP TABLE IF EXISTS regress_modern.wt_arr3');
SELECT clickhouse_exec('ch_wt', 'CREATE TABLE regress_modern.wt_arr3 (id Int32, a_d32 Array(Date32), a_dt64 Array(DateTime64(3, ''Asia/Tokyo'')), a_dt6 Array(Nullable(DateTime64(6))), a_i256 Array(Int256), a_u128 Array(UInt128), a_dec38 Array(Decimal(38, 10)), a_bool Array(Bool), a_bf Array(BFloat16), a_e16 Array(Enum16(''x'' = -1000, ''y'' = 1000)), a_lcn Array(LowCardinality(Nullable(String)))) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE wt_arr3 (id int, a_d32 date[], a_dt64 timestamp[], a_dt6 timestamptz[], a_i256 numeric[],
  a_u128 numeric[], a_dec38 bigint[], a_bool boolean[], a_bf real[], a_e16 text[], a_lcn text[]) SERVER ch_wt;
CREATE TABLE wt_arr3_src (LIKE wt_arr3);
INSERT INTO wt_arr3_src VALUES
  (1, '{1900-01-01,2299-12-31}', '{"1900-01-01 09:00:00","2299-12-31 23:59:59.999"}',
   '{NULL,"1900-01-01 00:00:00+00","2299-12-31 23:59:59.999999+00"}',
   '{-57896044618658097711785492504343953926634992332820282019728792003956564819968,57896044618658097711785492504343953926634992332820282019728792003956564819967}',
   '{0,340282366920938463463374607431768211455}', '{-9223372036854775808,9223372036854775807}',
   '{t,f}', '{-1.5,0,3.25}', '{x,y}', '{NULL,a,"",a}'),
  (2, '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}');
INSERT INTO wt_arr3 SELECT * FROM wt_arr3_src;
SELECT * FROM wt_rows('wt_arr3');
-- (the reader takes Decimal arrays as numeric[])
CREATE FOREIGN TABLE wt_arr3_r (id int, a_d32 date[], a_dt64 timestamp[], a_dt6 timestamptz[], a_i256 numeric[],
  a_u128 numeric[], a_dec38 numeric[], a_bool boolean[], a_bf real[], a_e16 text[], a_lcn text[])
  SERVER ch_wt OPTIONS (table 'wt_arr3');
SELECT s.id, (s.a_d32, s.a_dt64, s.a_dt6, s.a_i256, s.a_u128, s.a_dec38::numeric[], s.a_bool, s.a_bf, s.a_e16, s.a_lcn)
       IS NOT DISTINCT FROM (f.a_d32, f.a_dt64, f.a_dt6, f.a_i256, f.a_u128, f.a_dec38, f.a_bool, f.a_bf, f.a_e16, f.a_lcn) AS same
  FROM wt_arr3_src s LEFT JOIN wt_arr3_r f USING (id) ORDER BY s.id;
-- element checks: the ranges, the precision loss option on elements
INSERT INTO wt_arr3 (id, a_d32) VALUES (9, '{1899-12-31}');
INSERT INTO wt_arr3 (id, a_dt64) VALUES (9, '{"2020-01-01 00:00:00.0005"}');
INSERT INTO wt_arr3 (id, a_u128) VALUES (9, '{340282366920938463463374607431768211456}');
-- a real past the largest BFloat16 (3.3895314e38) is out of range (it was written as inf)
INSERT INTO wt_arr3 (id, a_bf) VALUES (9, '{3.3895314e38,3.4e38}');
ALTER FOREIGN TABLE wt_arr3 ALTER COLUMN a_dt64 OPTIONS (ADD datetime_precision_loss 'round');
INSERT INTO wt_arr3 (id, a_dt64) VALUES (3, '{"2020-01-01 00:00:00.0005"}');
SELECT clickhouse_raw_query('ch_wt', 'SELECT id, a_dt64 FROM regress_modern.wt_arr3 WHERE id >= 3 ORDER BY id');
DROP SERVER ch_wt CASCADE;
