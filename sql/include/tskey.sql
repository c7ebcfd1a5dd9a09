-- ====================================================================
-- Body of tskey.sql (ClickHouse 18.16) and modern_tskey.sql (the 26.5
-- engine behind test/chdb/front.py, a test harness, not a server): plain
-- timestamp (without time zone) columns as grouping keys, DISTINCT
-- outputs, ORDER BY keys (also with LIMIT) and arguments of count,
-- count(DISTINCT), min and max (tskey, src/fdw/pushdown_dates.c). A
-- DateTime holds an instant; PostgreSQL sees its wall time in the column's
-- zone, and where a DST change repeats an hour two instants read as one
-- wall time and sort the other way round. Each construct is checked sent
-- (one Foreign Scan, nothing PostgreSQL computes over it) and its answer
-- compared with a local copy (in order where the query orders); what stays
-- local is checked local. The caller has set :ch_port, :ch_db, :ts_type
-- (Europe/Berlin: DateTime on 18.16, DateTime64(6) on 26.5), :tx_type
-- (a second type declared timestamp: DateTime('UTC') on 18.16, Date32 on
-- 26.5), :tq_type (a Nullable one in UTC: DateTime on 18.16,
-- DateTime64(3) on 26.5, there also 60 years before 1970 for every third
-- row), :lo and :hi (the instants every column holds and ClickHouse
-- computes parts of).
-- ====================================================================
CREATE SERVER ch_tk FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_tk;
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
\i sql/include/diff_check.sql
SELECT clickhouse_exec('ch_tk', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.tk1');
-- ts: :ts_type in Europe/Berlin; tb: DateTime in Europe/Berlin; tn:
-- Nullable DateTime in America/New_York; t2: DateTime naming no zone (read
-- in UTC); td: a Date; tx: :tx_type; g, s: grouping columns
SELECT clickhouse_exec('ch_tk', 'CREATE TABLE ' || :'ch_db' || '.tk1 (id Int32, g Int32, s String, ts ' ||
  :'ts_type' || ', tb DateTime(''Europe/Berlin''), tn Nullable(DateTime(''America/New_York'')), t2 DateTime, ' ||
  'td Date, tx ' || :'tx_type' || ', tq ' || :'tq_type' || ') ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE tk1 (id int, g int, s text, ts timestamp, tb timestamp, tn timestamp, t2 timestamp,
  td timestamp, tx timestamp, tq timestamp) SERVER ch_tk OPTIONS (table 'tk1');
-- the same table to write it: the zoned columns as timestamptz (their
-- instants: a wall time written as timestamp names one instant only, so
-- the repeated hour's second instant could not be written), the Date (and
-- Date32) as date
CREATE FOREIGN TABLE tk1w (id int, g int, s text, ts timestamptz, tb timestamptz, tn timestamptz, t2 timestamp,
  td date, tx timestamp, tq timestamp) SERVER ch_tk OPTIONS (table 'tk1');
CREATE FOREIGN TABLE tk1d (id int, g int, s text, ts timestamptz, tb timestamptz, tn timestamptz, t2 timestamp,
  td date, tx date, tq timestamp) SERVER ch_tk OPTIONS (table 'tk1');

-- the instants: every 10 minutes through both DST changes of Europe/Berlin
-- in 2021 (2021-03-28 01:00 UTC: 02:00 .. 03:00 does not exist; 2021-10-31
-- 01:00 UTC: 02:00 .. 03:00 twice) and America/New_York's fall change
-- (2021-11-07 06:00 UTC: 01:00 .. 02:00 twice), month ends, 1970-01-02,
-- 2038-01-19, the ends :lo and :hi, and 300 seeded random ones between them
CREATE TABLE tk_at (id int, e timestamptz);
INSERT INTO tk_at SELECT g, timestamptz '2021-10-30 23:00:00+00' + g * interval '10 minutes'
  FROM generate_series(1, 24) g;
INSERT INTO tk_at SELECT 30 + g, timestamptz '2021-03-27 23:30:00+00' + g * interval '10 minutes'
  FROM generate_series(1, 15) g;
INSERT INTO tk_at SELECT 50 + g, timestamptz '2021-11-07 04:30:00+00' + g * interval '10 minutes'
  FROM generate_series(1, 18) g;
INSERT INTO tk_at VALUES (71, '1970-01-02 00:00:00+00'), (72, '2000-02-29 23:59:59+00'),
  (73, '2000-03-01 00:00:00+00'), (74, '2038-01-19 03:14:07+00'), (75, '2038-01-19 03:14:08+00'),
  (76, '2024-12-31 23:00:00+00'), (77, :'lo'), (78, :'hi'), (79, '2021-10-31 00:30:00+00'),
  (80, '2021-10-31 01:30:00+00');
SELECT setseed(0.31);
INSERT INTO tk_at SELECT 100 + g, timestamptz :'lo' + (random() * (timestamptz :'hi' - timestamptz :'lo'))
  FROM generate_series(1, 300) g;
UPDATE tk_at SET e = date_trunc('second', e) WHERE :'ts_type' !~ '64';
-- rows: each instant (tn NULL for every 7th row, t2 its wall time in UTC,
-- td its UTC date, tx its UTC wall time or date), g in 0 .. 4, s in 4 values
SELECT CASE WHEN :'tx_type' ~ 'Date32' THEN 'tk1d' ELSE 'tk1w' END AS tk_w \gset
INSERT INTO :tk_w SELECT id, id % 5, (ARRAY['a', 'b', 'c', ''])[1 + id % 4],
  e, date_trunc('second', e), CASE WHEN id % 7 <> 0 THEN date_trunc('second', e) END,
  date_trunc('second', e) AT TIME ZONE 'UTC', (e AT TIME ZONE 'UTC')::date,
  CASE WHEN :'tx_type' ~ 'Date32' THEN (e AT TIME ZONE 'UTC')::date ELSE date_trunc('second', e) AT TIME ZONE 'UTC' END,
  CASE WHEN id % 11 = 0 THEN NULL
       WHEN :'tq_type' ~ '64' AND id % 3 = 0 THEN date_trunc('milliseconds', e - interval '60 years') AT TIME ZONE 'UTC'
       WHEN :'tq_type' ~ '64' THEN date_trunc('milliseconds', e) AT TIME ZONE 'UTC'
       ELSE date_trunc('second', e) AT TIME ZONE 'UTC' END
  FROM tk_at;
-- a duplicate of a repeated wall time from the other instant of it, and a row of NULL tn
INSERT INTO :tk_w SELECT 999, 4, 'a', ts, tb, NULL, t2, td, tx, tq FROM :tk_w WHERE id = 80;
CREATE TABLE tk1_l AS SELECT * FROM tk1;
SELECT count(*), count(tn), count(DISTINCT tb) AS tb_walls, min(ts) = (timestamptz :'lo' AT TIME ZONE 'Europe/Berlin') AS lo_ok
  FROM tk1_l;
-- the instants ClickHouse holds: more distinct DateTimes than wall times
-- (the repeated hour), so grouping the raw column would differ
SELECT rtrim(clickhouse_raw_query('ch_tk', 'SELECT uniqExact(tb) FROM ' || :'ch_db' || '.tk1'), E'\n') AS tb_instants;

CREATE FUNCTION tk_check(q text, ordered boolean DEFAULT false, OUT pushed boolean, OUT same boolean,
  OUT nrows int, OUT err text) LANGUAGE sql AS $$
  SELECT * FROM diff_check(q, 'tk1', '(Sort|Aggregate|Unique|Group|Hash|WindowAgg|Subquery Scan|Result)', ordered) $$;
CREATE FUNCTION tk_plan(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE plan text := ''; line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    plan := plan || line || E'\n';
  END LOOP;
  RETURN plan;
END $$;

-- ==== the forms sent: the wall time's text (EXPLAIN shows the parts' text;
-- the SQL sent is concat(toString(col, 'zone'), '') over a DateTime in
-- another zone where the server has Date32, the column itself over a
-- DateTime in UTC or a Date); on 18.16 a DateTime in another zone stays
-- local (below: the range ends)
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, tb FROM tk1 ORDER BY tb DESC LIMIT 3;
EXPLAIN (VERBOSE, COSTS OFF) SELECT t2, count(*) FROM tk1 GROUP BY t2;
SELECT tk_plan('SELECT tb, count(*) FROM tk1 GROUP BY tb') ~ 'GROUP BY concat\(toString' AS tb_key_text,
       tk_plan('SELECT td, min(t2) FROM tk1 GROUP BY td') ~ 'Remote SQL: .*toDayOfMonth' AS td_key_text;
-- what EXPLAIN ANALYZE says was sent over the DateTime columns
CREATE FUNCTION tk_sent(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
  FOR l IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF l ~ 'Remote SQL Sent' THEN RETURN NEXT btrim(l); END IF;
  END LOOP;
END $$;
SELECT * FROM tk_sent('SELECT id, tb, t2 FROM tk1 ORDER BY tb DESC, t2 LIMIT 3');
SELECT * FROM tk_sent('SELECT td, max(t2), count(DISTINCT tn) FROM tk1 GROUP BY td ORDER BY td LIMIT 2');
-- tq: the column itself as a key (a DateTime, or a DateTime64 in UTC), but
-- under min/max a DateTime64 is its text (26.5's JIT min/max)
SELECT * FROM tk_sent('SELECT tq, count(*), min(tq) FROM tk1 GROUP BY tq ORDER BY tq LIMIT 2');

-- ==== every column: GROUP BY, ORDER BY (whole table and with LIMIT, both
-- directions and NULL placements), DISTINCT, count/min/max/count(DISTINCT)
SELECT c, f, (tk_check(replace(f, '{X}', c), f ~ 'ORDER BY')).*
  FROM unnest(ARRAY['ts', 'tb', 'tn', 't2', 'td', 'tx', 'tq']) c,
       unnest(ARRAY[
         'SELECT {X}, count(*) FROM tk1 GROUP BY {X}',
         'SELECT {X}, count(*), min(id) FROM tk1 GROUP BY {X} HAVING count(*) > 1',
         'SELECT {X}, g, count(*) FROM tk1 GROUP BY {X}, g',
         'SELECT {X}, count(*) FROM tk1 GROUP BY {X} ORDER BY {X}',
         'SELECT {X}, count(*) FROM tk1 GROUP BY {X} ORDER BY {X} DESC NULLS LAST LIMIT 20',
         'SELECT id, {X} FROM tk1 ORDER BY {X}, id',
         'SELECT id, {X} FROM tk1 ORDER BY {X} DESC, id',
         'SELECT id, {X} FROM tk1 ORDER BY {X} NULLS FIRST, id LIMIT 30',
         'SELECT id, {X} FROM tk1 ORDER BY {X} DESC NULLS LAST, id LIMIT 30',
         'SELECT id, {X} FROM tk1 WHERE id < 60 ORDER BY {X}, id LIMIT 25',
         'SELECT DISTINCT {X} FROM tk1',
         'SELECT DISTINCT {X} FROM tk1 ORDER BY {X}',
         'SELECT DISTINCT {X}, g FROM tk1',
         'SELECT DISTINCT date_trunc(''hour'', {X}), g FROM tk1',
         'SELECT count({X}), count(DISTINCT {X}), min({X}), max({X}) FROM tk1',
         'SELECT count(DISTINCT {X}) FILTER (WHERE id % 2 = 0), min({X}) FILTER (WHERE g = 1), max({X}) FILTER (WHERE id < 60) FROM tk1',
         'SELECT g, count({X}), count(DISTINCT {X}), min({X}), max({X}) FROM tk1 GROUP BY g',
         'SELECT g, max({X}) FROM tk1 GROUP BY g ORDER BY max({X}) DESC, g LIMIT 3',
         'SELECT s, min({X}) FROM tk1 GROUP BY s ORDER BY 2 NULLS FIRST, 1',
         'SELECT min({X}), max({X}) FROM tk1 WHERE id > 100000',
         'SELECT g, min({X}) FROM tk1 WHERE id BETWEEN 1 AND 24 GROUP BY g HAVING max({X}) IS NOT NULL'
       ]) f;

-- ==== the DST hour itself: rows 79 and 80 are 02:30 in Berlin twice
SELECT id, tb, t2 FROM tk1_l WHERE id IN (79, 80, 999) ORDER BY id;
SELECT (tk_check('SELECT tb, count(*) FROM tk1 WHERE id IN (79, 80, 999) GROUP BY tb')).*;
SELECT tb, count(*) FROM tk1 WHERE id IN (79, 80, 999) GROUP BY tb;
SELECT (tk_check('SELECT id, tb FROM tk1 WHERE id BETWEEN 1 AND 24 ORDER BY tb, id LIMIT 24', true)).*;
SELECT id, tb FROM tk1 WHERE id BETWEEN 7 AND 18 ORDER BY tb, id;

-- ==== kept local, and why: a window's PARTITION BY / ORDER BY of a
-- timestamp column, a join's output (a join's SQL does not resolve the
-- column's zone), a String declared timestamp (no wall-time parts)
SELECT q, (tk_check(q)).pushed AS pushed, (tk_check(q)).same AS same FROM unnest(ARRAY[
  'SELECT id, row_number() OVER (PARTITION BY tb ORDER BY id) FROM tk1',
  'SELECT id, rank() OVER (ORDER BY tb) FROM tk1',
  'SELECT a.tb, count(*) FROM tk1 a JOIN tk1 b ON a.id = b.id GROUP BY a.tb',
  'SELECT a.id, b.tb FROM tk1 a JOIN tk1 b ON a.id = b.id ORDER BY b.tb, a.id'
]) q;
SELECT clickhouse_exec('ch_tk', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.tk2');
SELECT clickhouse_exec('ch_tk', 'CREATE TABLE ' || :'ch_db' || '.tk2 (id Int32, w Nullable(String)) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE tk2 (id int, w timestamp) SERVER ch_tk OPTIONS (table 'tk2');
INSERT INTO tk2 VALUES (1, '2021-10-31 02:30'), (2, '2021-10-31 02:10'), (3, NULL);
CREATE TABLE tk2_l AS SELECT * FROM tk2;
SELECT (diff_check('SELECT w, count(*) FROM tk2 GROUP BY w', 'tk2', '(Aggregate|Sort)')).*;
SELECT (diff_check('SELECT id, w FROM tk2 ORDER BY w', 'tk2', '(Aggregate|Sort)', true)).*;

-- ==== the range ends: on 18.16 the parts (and toString) of a DateTime in
-- Europe/Berlin end inside 2106-02-05, where a key of them would raise
-- 22008 over a value PostgreSQL reads, so such a column stays local there
-- (its keys sent on 26.5); a DateTime in UTC is the column itself and reads
-- to its last second on both
SELECT clickhouse_exec('ch_tk', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.tk3');
SELECT clickhouse_exec('ch_tk', 'CREATE TABLE ' || :'ch_db' || '.tk3 (id Int32, tb DateTime(''Europe/Berlin''), t2 DateTime) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_tk', 'INSERT INTO ' || :'ch_db' || '.tk3 VALUES (1, 4294967295, 4294967295), (2, 0, 0), (3, 86400, 86400)');
CREATE FOREIGN TABLE tk3 (id int, tb timestamp, t2 timestamp) SERVER ch_tk OPTIONS (table 'tk3');
CREATE TABLE tk3_l AS SELECT * FROM tk3;
SELECT (diff_check('SELECT t2, count(*) FROM tk3 GROUP BY t2', 'tk3', '(Aggregate|Sort)')).*;
SELECT (diff_check('SELECT id, t2 FROM tk3 ORDER BY t2 DESC', 'tk3', '(Aggregate|Sort)', true)).*;
SELECT min(t2), max(t2) FROM tk3;
\set VERBOSITY terse
SELECT max(tb) FROM tk3;
SELECT id FROM tk3 ORDER BY tb LIMIT 1;
\set VERBOSITY default
SELECT max(tb) FROM tk3 WHERE id > 1;

-- ==== (tsfast) a DateTime in UTC against a constant or run-time value in
-- WHERE: its epoch seconds against the value's whole seconds, which the
-- primary key can use (a server with force_primary_key = 1 runs it; the
-- microseconds' form it replaces was refused there); every other column
-- keeps the microseconds' form (the Remote SQL shows it, Remote SQL Sent
-- the form sent)
SELECT clickhouse_exec('ch_tk', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.tk4');
SELECT clickhouse_exec('ch_tk', 'CREATE TABLE ' || :'ch_db' || '.tk4 (t2 DateTime, tu DateTime(''UTC''), tb DateTime(''Europe/Berlin''), id Int32) ENGINE = MergeTree ORDER BY t2 SETTINGS index_granularity = 64');
CREATE FOREIGN TABLE tk4 (t2 timestamp, tu timestamp, tb timestamp, id int) SERVER ch_tk OPTIONS (table 'tk4');
CREATE FOREIGN TABLE tk4w (t2 timestamp, tu timestamp, tb timestamptz, id int) SERVER ch_tk OPTIONS (table 'tk4');
INSERT INTO tk4w SELECT t2, tx, tb AT TIME ZONE 'Europe/Berlin', id FROM tk1_l WHERE :'tx_type' !~ 'Date32';
INSERT INTO tk4w SELECT t2, t2, tb AT TIME ZONE 'Europe/Berlin', id FROM tk1_l WHERE :'tx_type' ~ 'Date32';
INSERT INTO tk4w VALUES ('2106-02-07 06:28:15', '2106-02-07 06:28:15', '2106-02-04 00:00:00+00', 1001),
  ('1970-01-01 00:00:00', '1970-01-01 00:00:00', '1970-01-02 00:00:00+00', 1002);
CREATE TABLE tk4_l AS SELECT * FROM tk4;
SELECT * FROM tk_sent('SELECT id FROM tk4 WHERE t2 > ''2021-10-31 01:30:00.5''');
SELECT * FROM tk_sent('SELECT id FROM tk4 WHERE ''2021-10-31'' <= tu AND tb < ''2021-11-01''');
CREATE SERVER ch_tk_pk FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db', settings 'force_primary_key=1');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_tk_pk;
CREATE FOREIGN TABLE tk4pk (t2 timestamp, tu timestamp, tb timestamp, id int) SERVER ch_tk_pk OPTIONS (table 'tk4');
SELECT count(*) FROM tk4pk WHERE t2 >= '2021-10-31 00:00' AND t2 < '2021-11-01';
SELECT count(*) FROM tk4pk WHERE t2 = '2021-10-31 01:30:00';
\set VERBOSITY terse
SELECT count(*) FROM tk4pk WHERE tb >= '2021-10-31 00:00';
\set VERBOSITY default
-- every operator, both orders, constants with and without a fraction, a
-- date, the ends, NULL and run-time values (a generic plan's parameter),
-- under NOT and OR, each sent and equal to the local copy
CREATE TABLE tk_fast AS
SELECT format(f, c, o, v) AS q FROM unnest(ARRAY['t2', 'tu', 'tb']) c,
  unnest(ARRAY['=', '<>', '<', '<=', '>', '>=']) o,
  unnest(ARRAY['timestamp ''2021-10-31 01:30:00''', 'timestamp ''2021-10-31 01:30:00.5''',
               'timestamp ''2021-10-31 01:29:59.999999''', 'date ''2021-10-31''',
               'timestamp ''2106-02-07 06:28:15''', 'timestamp ''1970-01-01 00:00:00''',
               'timestamp ''1969-12-31 23:59:59.5''', 'timestamp ''0500-01-01''']) v,
  unnest(ARRAY['SELECT id FROM tk4 WHERE %1$s %2$s %3$s', 'SELECT id FROM tk4 WHERE %3$s %2$s %1$s',
               'SELECT id FROM tk4 WHERE NOT (%1$s %2$s %3$s) OR id = 5']) f;
SELECT count(*) AS cases, count(*) FILTER (WHERE r.pushed) AS sent, count(*) FILTER (WHERE r.same) AS same
  FROM tk_fast, LATERAL diff_check(q, 'tk4', '(Aggregate|Sort|Filter)') r;
SELECT q, r.* FROM tk_fast, LATERAL diff_check(q, 'tk4', '(Aggregate|Sort|Filter)') r WHERE NOT (r.pushed AND r.same);
SET plan_cache_mode = force_generic_plan;
PREPARE tk_p(timestamp) AS SELECT count(*) FROM tk4 WHERE t2 > $1 AND $1 <= tu;
PREPARE tk_pl(timestamp) AS SELECT count(*) FROM tk4_l WHERE t2 > $1 AND $1 <= tu;
EXECUTE tk_p('2021-10-31 01:30:00.5');
EXECUTE tk_pl('2021-10-31 01:30:00.5');
EXECUTE tk_p('2021-10-31 01:30:00');
EXECUTE tk_pl('2021-10-31 01:30:00');
EXECUTE tk_p(NULL);
EXECUTE tk_p('infinity');
EXECUTE tk_pl('infinity');
EXECUTE tk_p('-infinity');
EXECUTE tk_pl('-infinity');
SELECT * FROM tk_sent('EXECUTE tk_p(''2021-10-31 01:30:00'')');
DEALLOCATE tk_p;
DEALLOCATE tk_pl;
RESET plan_cache_mode;

-- ==== 150 seeded random queries: a column, a form, a filter, a limit (a
-- sort with no LIMIT over a few rows PostgreSQL may choose to do itself)
SELECT setseed(0.77);
CREATE TABLE tk_rand AS
SELECT n, c, replace(replace(replace(f, '{X}', c), '{W}', w), '{L}', l) AS q, f ~ 'ORDER BY' AS ordered
FROM (SELECT n,
        (ARRAY['ts', 'tb', 'tn', 't2', 'td', 'tx', 'tq'])[1 + floor(random() * 7)::int] AS c,
        (ARRAY['SELECT {X}, count(*) FROM tk1 {W} GROUP BY {X} ORDER BY {X} DESC NULLS LAST {L}',
               'SELECT {X}, g, count(*) FROM tk1 {W} GROUP BY {X}, g ORDER BY {X}, g {L}',
               'SELECT id, {X} FROM tk1 {W} ORDER BY {X}, id {L}',
               'SELECT id, {X} FROM tk1 {W} ORDER BY {X} DESC NULLS FIRST, id DESC {L}',
               'SELECT DISTINCT {X} FROM tk1 {W} ORDER BY {X} {L}',
               'SELECT g, min({X}), max({X}), count(DISTINCT {X}) FROM tk1 {W} GROUP BY g ORDER BY g',
               'SELECT s, max({X}) FILTER (WHERE g < 3), count({X}) FROM tk1 {W} GROUP BY s ORDER BY s',
               'SELECT min({X}), max({X}), count(DISTINCT {X}) FROM tk1 {W}'])[1 + floor(random() * 8)::int] AS f,
        (ARRAY['', 'WHERE id < 60', 'WHERE g = 2', 'WHERE id > 100', 'WHERE id BETWEEN 1 AND 24',
               'WHERE s = ''a'''])[1 + floor(random() * 6)::int] AS w,
        (ARRAY['LIMIT 1000', 'LIMIT 1', 'LIMIT 7', 'LIMIT 40'])[1 + floor(random() * 4)::int] AS l
      FROM generate_series(1, 150) n) s;
-- per column (on 18.16 ts, tb and tn stay local, on 26.5 ts: see above)
CREATE TABLE tk_res AS SELECT n, c, q, r.* FROM tk_rand, LATERAL tk_check(q, ordered) r;
SELECT c, count(*) AS queries, count(*) FILTER (WHERE pushed) AS sent, count(*) FILTER (WHERE same) AS same
  FROM tk_res GROUP BY c ORDER BY c;
SELECT n, q, pushed, same, err FROM tk_res WHERE NOT same ORDER BY n;

DROP TABLE tk_rand, tk_res, tk_fast, tk_at, tk1_l, tk2_l, tk3_l, tk4_l;
DROP FUNCTION tk_check(text, boolean), tk_plan(text), tk_sent(text);
RESET datestyle;
RESET timezone;
DROP SERVER ch_tk_pk CASCADE;
DROP SERVER ch_tk CASCADE;
