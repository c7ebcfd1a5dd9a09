-- ====================================================================
-- Body of answers.sql (ClickHouse 18.16) and modern_answers.sql (the 26.5
-- engine behind test/chdb/front.py, a test harness, not a server): answers
-- that were wrong (issue 12, item 9). The caller has created server ch_ans
-- and set :ch_db. The ClickHouse tables are created here.
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SET extra_float_digits = 0;
CREATE FUNCTION ans_explain_analyze(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    RETURN NEXT regexp_replace(line, 'chfdw-[0-9]+-[0-9]+-[0-9]+', 'chfdw-<pid>-<time>-<n>');
  END LOOP;
END $$;

-- ==== a Tuple declared as a composite type: element by element, in order
SELECT clickhouse_exec('ch_ans', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.ans_tup');
SELECT clickhouse_exec('ch_ans', 'CREATE TABLE ' || :'ch_db' || '.ans_tup (id UInt8, t Tuple(Int32, String, Float32), n Tuple(a Int8, b Tuple(String, Nullable(Int64)))) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_ans', 'INSERT INTO ' || :'ch_db' || '.ans_tup VALUES (1, (0, ''0'', 1), (1, (''x'', NULL))), (2, (5, ''a,b'', 2.5), (-2, (''it\''s "q" \\ (1,2)'', 7))), (3, (-1, '''', -0.5), (0, ('''', -9223372036854775808)))');
CREATE TYPE ans_t3 AS (a int, b text, c real);
CREATE TYPE ans_in AS (s text, n bigint);
CREATE TYPE ans_n AS (a smallint, b ans_in);
-- read_as 'string' (what pg_clickhouse's tests declare) is not needed, and
-- no longer makes ClickHouse send the SQL-quoted text of toString()
CREATE FOREIGN TABLE ans_tup (id int, t ans_t3 OPTIONS (read_as 'string'), n ans_n)
  SERVER ch_ans;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM ans_tup;
SELECT * FROM ans_tup ORDER BY id;
-- the fields are the values, without quotes
SELECT id, (t).a, (t).b, length((t).b) AS len, (t).c FROM ans_tup ORDER BY id;
-- nested tuples, NULL from a Nullable element
SELECT id, (n).a, ((n).b).s, ((n).b).n, ((n).b).n IS NULL AS n_null FROM ans_tup ORDER BY id;
-- a condition on a field is evaluated by PostgreSQL
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ans_tup WHERE (t).b = 'a,b';
SELECT id FROM ans_tup WHERE (t).b = 'a,b';
SELECT id FROM ans_tup WHERE t = ROW(0, '0', 1)::ans_t3;
-- a dropped attribute of the composite is skipped (and NULL)
CREATE TYPE ans_td AS (a int, x int, b text, c real);
ALTER TYPE ans_td DROP ATTRIBUTE x;
CREATE FOREIGN TABLE ans_tup_d (id int, t ans_td) SERVER ch_ans OPTIONS (table 'ans_tup');
SELECT * FROM ans_tup_d ORDER BY id;
-- as text (read_as 'string') it is still ClickHouse's own text
CREATE FOREIGN TABLE ans_tup_text (id int, t text OPTIONS (read_as 'string')) SERVER ch_ans
  OPTIONS (table 'ans_tup');
SELECT * FROM ans_tup_text ORDER BY id;
-- errors: a composite with another number of attributes (the hint shows one
-- that fits), an element that does not read as its attribute's type, a
-- composite over something that is not a Tuple
CREATE TYPE ans_t2 AS (a int, b text);
CREATE TYPE ans_tu AS (a int, b uuid, c real);
CREATE FOREIGN TABLE ans_tup_bad (id int, t ans_t2, n ans_tu OPTIONS (column_name 't'),
  i ans_t2 OPTIONS (column_name 'id')) SERVER ch_ans OPTIONS (table 'ans_tup');
SELECT t FROM ans_tup_bad;
SELECT n FROM ans_tup_bad;
SELECT i FROM ans_tup_bad;

-- ==== date and time over DateTime: the wall time in the column's zone, in
-- every session TimeZone (as timestamp is read, as ClickHouse's toDate())
SELECT clickhouse_exec('ch_ans', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.ans_dt');
SELECT clickhouse_exec('ch_ans', 'CREATE TABLE ' || :'ch_db' || '.ans_dt (id UInt8, dt DateTime, dtz DateTime(''Asia/Tokyo''), d Date) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_ans', 'INSERT INTO ' || :'ch_db' || '.ans_dt SELECT 1, toDateTime(''1990-01-01 02:00:00'', ''UTC''), toDateTime(''1990-01-01 02:00:00'', ''Asia/Tokyo''), toDate(''1990-01-01'')');
SELECT clickhouse_exec('ch_ans', 'INSERT INTO ' || :'ch_db' || '.ans_dt SELECT 2, toDateTime(''1990-01-01 20:00:00'', ''UTC''), toDateTime(''1990-01-01 20:00:00'', ''Asia/Tokyo''), toDate(''1990-01-01'')');
SELECT clickhouse_exec('ch_ans', 'INSERT INTO ' || :'ch_db' || '.ans_dt SELECT 3, toDateTime(''2000-01-01 10:01:02'', ''UTC''), toDateTime(''2000-01-01 10:01:02'', ''Asia/Tokyo''), toDate(''2000-01-01'')');
SELECT clickhouse_exec('ch_ans', 'INSERT INTO ' || :'ch_db' || '.ans_dt SELECT 4, toDateTime(''1990-01-02 00:00:00'', ''UTC''), toDateTime(''1990-01-02 00:00:00'', ''Asia/Tokyo''), toDate(''1990-01-02'')');
-- what ClickHouse says (toDate / toString of the time) for each row
SELECT clickhouse_raw_query('ch_ans', 'SELECT id, toDate(dt), toDate(dtz), substring(toString(dt), 12), substring(toString(dtz), 12) FROM ' || :'ch_db' || '.ans_dt ORDER BY id');
CREATE FOREIGN TABLE ans_dt (id int, dt date, dtz date,
  t time OPTIONS (column_name 'dt'), tz time OPTIONS (column_name 'dtz'),
  t0 time(0) OPTIONS (column_name 'dt'), ts timestamp OPTIONS (column_name 'dt'),
  tsz timestamp OPTIONS (column_name 'dtz'), d date) SERVER ch_ans;
SELECT * FROM ans_dt ORDER BY id;
CREATE TABLE ans_dt_local AS SELECT * FROM ans_dt;
SET timezone = 'PST8PDT';
SELECT * FROM ans_dt ORDER BY id;
SET timezone = 'Asia/Tokyo';
SELECT * FROM ans_dt ORDER BY id;
-- the same answers in every zone: no difference from the UTC copy
SELECT count(*) FROM (SELECT * FROM ans_dt EXCEPT SELECT * FROM ans_dt_local) s;
SET timezone = 'PST8PDT';
SELECT count(*) FROM (SELECT * FROM ans_dt EXCEPT SELECT * FROM ans_dt_local) s;

-- a time column's conditions are evaluated by PostgreSQL
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ans_dt WHERE t = '10:01:02';
SELECT id FROM ans_dt WHERE t = '10:01:02';
SELECT id FROM ans_dt WHERE tz = '10:01:02';
SELECT id FROM ans_dt WHERE t0 >= '20:00' ORDER BY id;
SET timezone = 'Asia/Tokyo';
SELECT id FROM ans_dt WHERE t = '10:01:02';

-- a date column's conditions are sent, with the date of a DateTime in its
-- zone (a plain Date stays itself): ClickHouse answers as PostgreSQL would
SET timezone = 'PST8PDT';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ans_dt WHERE dt = '1990-01-01';
SELECT * FROM ans_explain_analyze($$SELECT id FROM ans_dt WHERE dt = '1990-01-01' AND dtz <= '1990-01-01' AND d = '1990-01-01'$$);
SELECT id FROM ans_dt WHERE dt = '1990-01-01' ORDER BY id;
SELECT id FROM ans_dt_local WHERE dt = '1990-01-01' ORDER BY id;
SELECT id FROM ans_dt WHERE dtz = '1990-01-01' ORDER BY id;
SELECT id FROM ans_dt_local WHERE dtz = '1990-01-01' ORDER BY id;
SELECT id FROM ans_dt WHERE dt <= '1990-01-01' ORDER BY id;
SELECT id FROM ans_dt_local WHERE dt <= '1990-01-01' ORDER BY id;
SELECT id FROM ans_dt WHERE dtz > '1990-01-01' AND dtz < '2000-01-01' ORDER BY id;
SELECT id FROM ans_dt_local WHERE dtz > '1990-01-01' AND dtz < '2000-01-01' ORDER BY id;
SELECT id FROM ans_dt WHERE dt = d ORDER BY id;
SELECT id FROM ans_dt_local WHERE dt = d ORDER BY id;
-- grouped and aggregated in ClickHouse, by the date
EXPLAIN (VERBOSE, COSTS OFF) SELECT dt, count(*) FROM ans_dt GROUP BY dt;
SELECT dt, count(*) FROM ans_dt GROUP BY dt ORDER BY dt;
SELECT dt, count(*) FROM ans_dt_local GROUP BY dt ORDER BY dt;
SELECT dtz, count(*), min(id) FROM ans_dt GROUP BY dtz ORDER BY dtz;
SELECT count(DISTINCT dt), count(DISTINCT dtz), max(dt) FROM ans_dt;
SELECT count(DISTINCT dt), count(DISTINCT dtz), max(dt) FROM ans_dt_local;
-- a run-time value and a date column in one condition
PREPARE ans_q(date) AS SELECT id FROM ans_dt WHERE dtz = $1 ORDER BY id;
EXECUTE ans_q('1990-01-01');
EXECUTE ans_q('1990-01-02');
DEALLOCATE ans_q;
-- ... and on every rescan (a correlated subquery: one scan, run per outer row)
SELECT l.d, (SELECT array_agg(id ORDER BY id) FROM ans_dt WHERE dtz = l.d) AS ids
  FROM (VALUES (date '1990-01-01'), (date '1990-01-02'), (date '1999-12-31')) l(d) ORDER BY 1;
-- a mutation's condition too
CREATE FOREIGN TABLE ans_dt_mut (id int, dt date, dtz date) SERVER ch_ans OPTIONS (table 'ans_dt');
EXPLAIN (VERBOSE, COSTS OFF) DELETE FROM ans_dt_mut WHERE dt = '1990-01-01';
DELETE FROM ans_dt_mut WHERE dt = '1990-01-01';
SELECT id FROM ans_dt ORDER BY id;
-- the remote types are looked up once per transaction: a column that is a
-- Date, then (in a later transaction) a DateTime, is sent as each
SELECT clickhouse_exec('ch_ans', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.ans_dt2');
SELECT clickhouse_exec('ch_ans', 'CREATE TABLE ' || :'ch_db' || '.ans_dt2 (id UInt8, c Date) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_ans', 'INSERT INTO ' || :'ch_db' || '.ans_dt2 VALUES (1, ''1990-01-01'')');
CREATE FOREIGN TABLE ans_dt2 (id int, c date) SERVER ch_ans;
SELECT * FROM ans_explain_analyze($$SELECT id FROM ans_dt2 WHERE c = '1990-01-01'$$);
SELECT clickhouse_exec('ch_ans', 'DROP TABLE ' || :'ch_db' || '.ans_dt2');
SELECT clickhouse_exec('ch_ans', 'CREATE TABLE ' || :'ch_db' || '.ans_dt2 (id UInt8, c DateTime) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_ans', 'INSERT INTO ' || :'ch_db' || '.ans_dt2 SELECT 1, toDateTime(''1990-01-01 02:00:00'', ''UTC'')');
SELECT * FROM ans_explain_analyze($$SELECT id FROM ans_dt2 WHERE c = '1990-01-01'$$);
SELECT id, c FROM ans_dt2 WHERE c = '1990-01-01';
RESET timezone;
SET timezone = 'UTC';
