-- ====================================================================
-- More function pushdown on the ClickHouse 26.5 engine (chDB behind
-- test/chdb/front.py, a test harness, not a server) (fnmore). The body,
-- shared with functions_more.sql (18.16), is sql/include/functions_more.sql;
-- then DateTime64 values outside DateTime's range.
-- Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_fm FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_fm;
\i sql/include/functions_more.sql

-- ==== to_char of DateTime64 values before 1970 and after 2106: sent, exact
SELECT clickhouse_exec('ch_fm', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.fm64');
SELECT clickhouse_exec('ch_fm', 'CREATE TABLE ' || :'ch_db' || '.fm64 (id Int32, d Nullable(Date32), ts Nullable(DateTime64(6, ''UTC''))) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_fm', 'INSERT INTO ' || :'ch_db' || '.fm64 VALUES
  (1, NULL, NULL), (2, ''1900-01-01'', ''1900-01-01 00:00:00''),
  (3, ''2299-12-31'', ''2299-12-31 23:59:59.999999''), (4, ''1969-12-31'', ''1969-12-31 23:59:59.5''),
  (5, ''1950-06-15'', ''1950-06-15 10:09:08.000001''), (6, ''2200-02-29'', ''2200-03-01 01:02:03'')');
CREATE FOREIGN TABLE fm64 (id int, d date, ts timestamptz) SERVER ch_fm OPTIONS (table 'fm64');
CREATE TABLE fm64_l AS SELECT * FROM fm64;
SELECT * FROM fm64_l ORDER BY id;
SELECT c.* FROM unnest(ARRAY[
  'to_char(ts, ''YYYY'')', 'to_char(ts, ''YYYY-MM'')', 'to_char(ts, ''YYYY-MM-DD'')',
  'to_char(ts, ''YYYYMMDD'')', 'to_char(ts, ''YYYY-MM-DD HH24:MI'')',
  'to_char(ts, ''YYYY-MM-DD HH24:MI:SS'')', 'to_char(ts, ''HH24'')', 'to_char(ts, ''HH24:MI'')',
  'to_char(ts, ''HH24:MI:SS'')'
]) e, fm_one(e, 'fm64') c;
DROP TABLE fm64_l;
DROP FUNCTION show_error(text), fm_one(text, text), fm_rand(text);
DROP SERVER ch_fm CASCADE;
