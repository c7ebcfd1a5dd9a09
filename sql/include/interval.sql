-- ====================================================================
-- Body of interval.sql (ClickHouse 18.16) and modern_interval.sql (the
-- 26.5 engine behind test/chdb/front.py, a test harness, not a server):
-- timestamp, timestamptz and date +/- a constant interval of columns
-- (src/fdw/pushdown_interval.c), compared with constants, run-time values
-- and columns in WHERE, as grouping keys (timestamptz) and under
-- date_trunc() as grouping keys. Each construct is checked sent (one
-- Foreign Scan, nothing PostgreSQL computes over it) or kept local, and its
-- answer compared with a local copy of the same rows. The caller has set
-- :ch_port, :ch_db, :ts_type, :tn_type (timestamp columns in Europe/Berlin
-- and America/New_York), :t2_type (timestamp, UTC), :tu_type
-- (timestamptz), :d_type (date), :lo and :hi (the instants every column
-- holds and ClickHouse computes parts of), :tu_lo and :tu_hi (the first
-- and last instant of the timestamptz column), :d_hi (the last date).
-- ====================================================================
CREATE SERVER ch_iv FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_iv;
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SET intervalstyle = 'postgres';
\i sql/include/show_error.sql
SELECT clickhouse_exec('ch_iv', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.iv1');
SELECT clickhouse_exec('ch_iv', 'CREATE TABLE ' || :'ch_db' || '.iv1 (id Int32, ts ' || :'ts_type' ||
  ', tn Nullable(' || :'tn_type' || '), t2 ' || :'t2_type' || ', tu ' || :'tu_type' ||
  ', d ' || :'d_type' || ') ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE ivf (id int, ts timestamp, tn timestamp, t2 timestamp, tu timestamptz, d date)
  SERVER ch_iv OPTIONS (table 'iv1');
CREATE TABLE ivl (id int, ts timestamp, tn timestamp, t2 timestamp, tu timestamptz, d date);

-- the instants: month ends, leap days, the DST changes of Europe/Berlin
-- (2021-03-28 01:00 UTC: 02:00..03:00 does not exist; 2021-10-31 01:00 UTC:
-- 02:00..03:00 twice) and America/New_York (2021-03-14 07:00 UTC,
-- 2021-11-07 06:00 UTC), 1970-01-01, 2038-01-19, the ends (:lo, :hi) and
-- 2106-02-07 06:28:15 (the last DateTime) in the timestamptz column
CREATE TABLE iv_at (id int, e timestamptz);
INSERT INTO iv_at VALUES
  (1, '1970-01-01 00:00:00+00'), (2, '1970-01-01 00:00:01+00'), (3, '1970-01-31 23:00:00+00'),
  (4, '1972-02-29 12:00:00+00'), (5, '2000-01-31 10:00:00+00'), (6, '2000-02-29 23:59:59+00'),
  (7, '2000-03-31 00:00:00+00'), (8, '2021-03-14 06:30:00+00'), (9, '2021-03-14 07:30:00+00'),
  (10, '2021-11-07 05:30:00+00'), (11, '2021-11-07 06:30:00+00'), (12, '2021-03-28 00:30:00+00'),
  (13, '2021-03-28 01:30:00+00'), (14, '2021-10-31 00:30:00+00'), (15, '2021-10-31 01:30:00+00'),
  (16, '2023-01-31 12:34:56+00'), (17, '2024-01-31 23:59:59+00'), (18, '2024-02-29 00:00:00+00'),
  (19, '2024-12-31 23:00:00+00'), (20, '2038-01-19 03:14:07+00'), (21, '2038-01-19 03:14:08+00'),
  (22, '2100-02-28 12:00:00+00'), (23, '2105-12-31 23:59:59+00'), (24, '2106-02-04 00:00:00+00'),
  (25, :'lo'), (26, :'hi'), (27, :'tu_hi'), (28, '2021-03-27 01:30:00+00'),
  (29, '2021-02-28 01:30:00+00'), (30, '2021-10-30 01:30:00+00'), (31, '2021-11-06 06:30:00+00'),
  (32, '2021-10-31 00:59:59+00'), (33, :'tu_lo');
-- 300 seeded random instants between :lo and :hi (whole seconds: 18.16's
-- DateTime; with microseconds where the columns are DateTime64)
SELECT setseed(0.5);
INSERT INTO iv_at SELECT 100 + g, timestamptz :'lo' + (random() * (timestamptz :'hi' - timestamptz :'lo'))
  FROM generate_series(1, 300) g;
UPDATE iv_at SET e = date_trunc('second', e) WHERE :'ts_type' !~ '64';
-- ts/tn/t2: the wall time of the instant (clamped into :lo .. :hi), tn
-- NULL for every 7th row; tu: the instant; d: its UTC date (up to :d_hi)
INSERT INTO ivf SELECT id,
  greatest(least(e, :'hi'), :'lo') AT TIME ZONE 'Europe/Berlin',
  CASE WHEN id % 7 <> 0 THEN greatest(least(e, :'hi'), :'lo') AT TIME ZONE 'America/New_York' END,
  greatest(least(e, :'hi'), :'lo') AT TIME ZONE 'UTC',
  e,
  least((e AT TIME ZONE 'UTC')::date, date :'d_hi')
  FROM iv_at;
INSERT INTO ivf VALUES (999, '2000-01-31 00:00', NULL, '2000-01-31 00:00', '2000-01-31 00:00+00', :'d_hi');
INSERT INTO ivl SELECT * FROM ivf;
SELECT count(*), count(tn), min(tu) = timestamptz :'tu_lo', max(tu) = timestamptz :'tu_hi', max(d) = date :'d_hi'
  FROM ivl;

-- iv_rows(q): the rows as text, sorted, or the error as "SQLSTATE: message"
CREATE FUNCTION iv_rows(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
  EXECUTE format($f$SELECT coalesce(string_agg(t::text, ';' ORDER BY t::text COLLATE "C"), '(none)') FROM (%s) t$f$, q)
    INTO r;
  RETURN r;
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
-- iv_plan(q): the plan of q
CREATE FUNCTION iv_plan(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE plan text := ''; line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    plan := plan || line || E'\n';
  END LOOP;
  RETURN plan;
END $$;
-- iv_sent(q): one Foreign Scan and nothing over it (every line of the plan
-- the scan's: Output, Relations, Remote SQL), the interval form in its
-- Remote SQL (its lambdas, chfdw_i..., or a date's days in microseconds)
CREATE FUNCTION iv_sent(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE plan text := iv_plan(q);
BEGIN
  RETURN plan ~ '^Foreign Scan' AND plan ~ 'Remote SQL: [^\n]*(chfdw_i|86400000000)' AND
    NOT EXISTS (SELECT 1 FROM regexp_split_to_table(rtrim(plan, E'\n'), E'\n') l
                WHERE l !~ '^(Foreign Scan|  (Output|Relations|Remote SQL): )');
END $$;
-- iv_same(q): the same rows from the foreign table and the local copy
-- (NOTICE of both when not)
CREATE FUNCTION iv_same(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE r text := iv_rows(q); l text := iv_rows(replace(q, 'ivf', 'ivl'));
BEGIN
  IF r IS DISTINCT FROM l THEN
    RAISE NOTICE 'differs: %: % / local: %', q, left(r, 300), left(l, 300);
  END IF;
  RETURN r IS NOT DISTINCT FROM l;
END $$;
-- iv_check(q): sent and the same (one line: both true)
CREATE FUNCTION iv_check(q text, OUT sent boolean, OUT same boolean) LANGUAGE plpgsql AS $$
BEGIN
  sent := iv_sent(q);
  same := iv_same(q);
END $$;

-- ==== sent: the forms, EXPLAIN of each kind
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ivf WHERE ts + interval '1 month' > '2000-02-28';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ivf WHERE tu - interval '6 hours' >= now() - interval '7 days';
EXPLAIN (VERBOSE, COSTS OFF) SELECT date_trunc('day', ts - interval '6 hours') AS k, count(*) FROM ivf GROUP BY 1;
-- the analysts' form, with a run-time value on the right, was sent before
SELECT iv_plan('SELECT id FROM ivf WHERE tu >= now() - interval ''7 days''') ~ 'WHERE \(`tu` >= \$1\)' AS sent_before;

-- answers: Jan 31 + 1 month is Feb 29 (2000, 2024) or Feb 28 (2023),
-- '1 month 1 day' adds the month first, '1 day' then '1 month' differ
SELECT id, t2, t2 + interval '1 month' AS m, t2 + interval '1 month 1 day' AS md,
       (t2 + interval '1 day') + interval '1 month' AS dm, d + interval '1 month' AS dplus
  FROM ivl WHERE id IN (5, 16, 17, 18, 999) ORDER BY id;
SELECT q, (iv_check(q)).* FROM unnest(ARRAY[
  'SELECT id FROM ivf WHERE t2 + interval ''1 month'' = ''2000-02-29 10:00''',
  'SELECT id FROM ivf WHERE t2 + interval ''1 month'' = ''2024-02-29 23:59:59''',
  'SELECT id FROM ivf WHERE t2 + interval ''1 month'' = ''2023-02-28 12:34:56''',
  'SELECT id FROM ivf WHERE t2 + interval ''1 month 1 day'' = ''2000-03-01 10:00''',
  'SELECT id FROM ivf WHERE (t2 + interval ''1 day'') + interval ''1 month'' = ''2000-03-01 10:00''',
  'SELECT id FROM ivf WHERE (t2 + interval ''1 month'') + interval ''1 day'' = ''2000-03-01 10:00''',
  'SELECT id FROM ivf WHERE t2 - interval ''1 month'' < ''2000-01-01''',
  'SELECT id FROM ivf WHERE t2 + interval ''-1 month -1 day'' >= ''2024-01-28''',
  'SELECT id FROM ivf WHERE t2 + interval ''1 year -1 month +3 days -04:05:06.000007'' > ''2024-06-01''',
  'SELECT id FROM ivf WHERE interval ''1 month'' + t2 <= ''1970-03-01''',
  'SELECT id FROM ivf WHERE t2 + interval ''12 months'' <> t2 + interval ''1 year''',
  'SELECT id FROM ivf WHERE t2 + interval ''1 month'' > t2 + interval ''31 days''',
  'SELECT id FROM ivf WHERE t2 + interval ''1 hour'' > ts',
  'SELECT id FROM ivf WHERE ts - interval ''1 hour'' < tn',
  'SELECT id FROM ivf WHERE ts + interval ''1 day'' = ''2021-03-29 02:30''',
  'SELECT id FROM ivf WHERE ts + interval ''1 day'' = ''2021-03-28 02:30''',
  'SELECT id FROM ivf WHERE ts + interval ''1 month'' BETWEEN ''2021-03-28'' AND ''2021-03-29''',
  'SELECT id FROM ivf WHERE tn + interval ''1 day'' = ''2021-03-14 02:30''',
  'SELECT id FROM ivf WHERE tn - interval ''1 day'' >= ''2021-11-06 01:30''',
  'SELECT id FROM ivf WHERE id > 0 AND tn + interval ''1 hour'' > ''2021-01-01''',
  'SELECT id FROM ivf WHERE NOT (tn + interval ''1 hour'' > ''2021-01-01'')',
  'SELECT id FROM ivf WHERE tn + interval ''1 hour'' > ''2021-01-01'' OR id = 1',
  'SELECT id FROM ivf WHERE d + interval ''1 month'' = ''2024-03-29''',
  'SELECT id FROM ivf WHERE d - interval ''1 day 1 hour'' < ''2000-01-30''',
  'SELECT id FROM ivf WHERE d + interval ''1 month'' > t2',
  'SELECT id FROM ivf WHERE d + interval ''1 day'' > date ''2024-02-29''',
  'SELECT id FROM ivf WHERE t2 + interval ''1 day'' >= d',
  'SELECT id FROM ivf WHERE tu + interval ''1 month'' = ''2000-02-29 10:00+00''',
  'SELECT id FROM ivf WHERE tu - interval ''1 month 1 day'' < ''1970-01-01 00:00:00+00''',
  'SELECT id FROM ivf WHERE tu + interval ''100 years'' > ''2200-01-01+00''',
  'SELECT id FROM ivf WHERE tu + interval ''1 month'' > tu + interval ''30 days''',
  'SELECT id FROM ivf WHERE tu + interval ''1 day'' > tu',
  'SELECT id FROM ivf WHERE tu - interval ''6 hours'' < now()',
  'SELECT id FROM ivf WHERE tu + interval ''1 month'' > now() - interval ''10 years''',
  'SELECT id FROM ivf WHERE tu + interval ''0.5 seconds'' > ''2038-01-19 03:14:07.6+00''',
  'SELECT id FROM ivf WHERE t2 + interval ''0.000001 seconds'' > ''2038-01-19 03:14:07''',
  'SELECT id FROM ivf WHERE t2 + interval ''1 month'' - interval ''1 month'' <> t2',
  'SELECT date_trunc(''day'', ts - interval ''6 hours'') AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT date_trunc(''hour'', tn + interval ''1 day'') AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT date_trunc(''week'', t2 + interval ''3 days'') AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT date_trunc(''month'', d + interval ''1 month'') AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT date_trunc(''quarter'', t2 - interval ''1 month'') AS k, min(id) FROM ivf GROUP BY 1',
  'SELECT date_trunc(''year'', t2 + interval ''11 months'') AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT date_trunc(''decade'', t2) AS k0, date_trunc(''century'', t2 + interval ''1 year'') AS k, count(*) FROM ivf GROUP BY 1, 2',
  'SELECT date_trunc(''millennium'', d - interval ''1 day'') AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT date_trunc(''second'', tu + interval ''0.5 seconds'') AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT date_trunc(''milliseconds'', tu - interval ''0.0005 seconds'') AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT date_trunc(''minute'', tu + interval ''1 month'') AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT date_trunc(''microseconds'', tu - interval ''1 day'') AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT tu + interval ''1 month'' AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT tu - interval ''1 year 2 months 3 days 04:05:06.789'' AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT tu + interval ''1 hour'' AS k, max(id) FROM ivf WHERE tu + interval ''1 hour'' > ''2000-01-01+00'' GROUP BY 1',
  'SELECT date_trunc(''day'', tu - interval ''6 hours'') AS k, count(*) FROM ivf GROUP BY 1 HAVING count(*) > 1'
]) q;
-- extract()/date_part() of sums: the integer fields (in WHERE, as keys)
SELECT q, (iv_check(q)).* FROM unnest(ARRAY[
  'SELECT id FROM ivf WHERE extract(year FROM t2 + interval ''1 day'') = 2000',
  'SELECT id FROM ivf WHERE extract(month FROM ts + interval ''1 month'') = 3 AND extract(day FROM ts + interval ''1 month'') = 28',
  'SELECT id FROM ivf WHERE date_part(''day'', d + interval ''1 month'') = 29',
  'SELECT id FROM ivf WHERE extract(hour FROM tn - interval ''30 minutes'') = 1',
  'SELECT id FROM ivf WHERE extract(dow FROM tu + interval ''1 day'') = 0',
  'SELECT extract(isodow FROM t2 - interval ''1 day'') AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT extract(doy FROM t2 + interval ''1 month'') AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT extract(quarter FROM d - interval ''1 month'') AS k, extract(minute FROM tu + interval ''90 seconds'') AS k2, count(*) FROM ivf GROUP BY 1, 2',
  'SELECT date_part(''decade'', t2 + interval ''5 years'') AS k, date_part(''century'', tu + interval ''1 year'') AS k2, count(*) FROM ivf GROUP BY 1, 2',
  'SELECT extract(millennium FROM d + interval ''100 years'') AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT date_part(''year'', tu - interval ''1 month'') AS k, count(*) FROM ivf GROUP BY 1'
]) q;
SELECT extract(doy FROM t2 + interval '1 month') AS doy, extract(dow FROM t2 + interval '1 month') AS dow,
       extract(isodow FROM t2 + interval '1 month') AS isodow, count(*)
  FROM ivf WHERE id IN (5, 16, 17, 18, 19) GROUP BY 1, 2, 3 ORDER BY 1, 2;
SELECT extract(doy FROM t2 + interval '1 month') AS doy, extract(dow FROM t2 + interval '1 month') AS dow,
       extract(isodow FROM t2 + interval '1 month') AS isodow, count(*)
  FROM ivl WHERE id IN (5, 16, 17, 18, 19) GROUP BY 1, 2, 3 ORDER BY 1, 2;

-- a grouping key's text sorts as time: ORDER BY of the key (and DESC)
SELECT iv_sent('SELECT date_trunc(''month'', t2 + interval ''1 month'') AS k, count(*) FROM ivf GROUP BY 1 ORDER BY 1 DESC') AS sent,
       iv_plan('SELECT date_trunc(''month'', t2 + interval ''1 month'') AS k, count(*) FROM ivf GROUP BY 1 ORDER BY 1 DESC') ~ 'ORDER BY [^\n]* DESC' AS remote_order;
SELECT date_trunc('month', t2 + interval '1 month') AS k, count(*) FROM ivf GROUP BY 1 ORDER BY 1 DESC LIMIT 3;
SELECT date_trunc('month', t2 + interval '1 month') AS k, count(*) FROM ivl GROUP BY 1 ORDER BY 1 DESC LIMIT 3;
-- values of the keys at the edges (printed, and equal to the local copy's)
SELECT tu + interval '1 month' AS k, count(*) FROM ivf WHERE id IN (1, 5, 17, 20, 25, 26, 27) GROUP BY 1 ORDER BY 1;
SELECT tu + interval '1 month' AS k, count(*) FROM ivl WHERE id IN (1, 5, 17, 20, 25, 26, 27) GROUP BY 1 ORDER BY 1;
SELECT date_trunc('day', d + interval '1 month 1 day') AS k, count(*) FROM ivf WHERE id IN (1, 5, 17, 18, 27, 999) GROUP BY 1 ORDER BY 1;
SELECT date_trunc('day', d + interval '1 month 1 day') AS k, count(*) FROM ivl WHERE id IN (1, 5, 17, 18, 27, 999) GROUP BY 1 ORDER BY 1;
-- the last instants: 2106-02-07 06:28:15 + 1 hour is no DateTime, nor
-- before 1970 (here computed in Int64, exactly)
SELECT q, (iv_check(q)).* FROM unnest(ARRAY[
  'SELECT id FROM ivf WHERE tu + interval ''1 hour'' > ''2106-02-07 07:00+00''',
  'SELECT id FROM ivf WHERE tu - interval ''1 second'' < ''1970-01-01+00''',
  'SELECT id FROM ivf WHERE tu + interval ''1 month'' >= ''2106-03-07+00''',
  'SELECT id FROM ivf WHERE d + interval ''1 day'' > ''2106-02-08''',
  'SELECT date_trunc(''hour'', tu + interval ''1 hour'') AS k, count(*) FROM ivf WHERE id IN (1, 26, 27) GROUP BY 1',
  'SELECT date_trunc(''day'', d + interval ''1 day'') AS k, count(*) FROM ivf WHERE id IN (1, 25, 27) GROUP BY 1'
]) q;

-- the range end of a timestamp column's parts: on 18.16 toYear() ..
-- toSecond() end inside 2106-02-06 and the column markers raise (22008)
-- from 2106-02-05 on (README: the dates rows); DateTime64 holds 2299-12-31
SELECT clickhouse_exec('ch_iv', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.iv2');
SELECT clickhouse_exec('ch_iv', 'CREATE TABLE ' || :'ch_db' || '.iv2 (id Int32, t2 ' || :'t2_type' ||
  ') ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE iv2f (id int, t2 timestamp) SERVER ch_iv OPTIONS (table 'iv2');
INSERT INTO iv2f VALUES (1, (timestamptz :'tu_hi' - interval '1 day') AT TIME ZONE 'UTC');
SELECT iv_sent('SELECT id FROM iv2f WHERE t2 + interval ''1 month'' > ''2000-01-01''') AS sent,
       iv_rows('SELECT id, t2, t2 + interval ''1 month'' AS m FROM iv2f WHERE t2 + interval ''1 month'' > ''2000-01-01''') AS rows;

-- ==== timestamptz in other zones: microseconds alone are an absolute
-- shift (sent); months and days are the session zone's wall time (kept
-- local), as date_trunc of timestamptz (its truncation is the zone's)
SET timezone = 'America/New_York';
SELECT q, (iv_check(q)).* FROM unnest(ARRAY[
  'SELECT id FROM ivf WHERE tu + interval ''1 hour'' > ''2021-03-14 02:30''',
  'SELECT id FROM ivf WHERE tu - interval ''25:00:00'' <= ''2021-11-06 01:30''',
  'SELECT id FROM ivf WHERE tu + interval ''6 hours'' < now()',
  'SELECT tu + interval ''2 hours'' AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT id FROM ivf WHERE ts + interval ''1 month'' > ''2021-03-28''',
  'SELECT date_trunc(''day'', tn + interval ''1 day'') AS k, count(*) FROM ivf GROUP BY 1'
]) q;
-- (+ 1 day in New York is 23 hours after row 8: computed in UTC it would
-- find no row)
SELECT iv_rows('SELECT id FROM ivf WHERE tu + interval ''1 day'' = ''2021-03-15 01:30''') AS local_rows;
SELECT q, iv_sent(q) AS sent, iv_same(q) AS same FROM unnest(ARRAY[
  'SELECT id FROM ivf WHERE tu + interval ''1 day'' = ''2021-03-15 01:30''',
  'SELECT id FROM ivf WHERE tu + interval ''1 day'' > ''2021-03-14 02:30''',
  'SELECT id FROM ivf WHERE tu + interval ''1 month'' > ''2021-03-14 02:30''',
  'SELECT tu + interval ''1 day'' AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT date_trunc(''day'', tu + interval ''1 hour'') AS k, count(*) FROM ivf GROUP BY 1'
]) q;
-- the days of a DST change: + 1 day keeps the wall time (23 or 25 hours)
SELECT id, tu, tu + interval '1 day' AS plus_day, tu + interval '24 hours' AS plus_24h
  FROM ivl WHERE id IN (8, 10) ORDER BY id;
SET timezone = 'Europe/Berlin';
SELECT q, (iv_check(q)).* FROM unnest(ARRAY[
  'SELECT id FROM ivf WHERE tu + interval ''30 minutes'' > ''2021-03-28 03:00''',
  'SELECT id FROM ivf WHERE tu - interval ''1 hour'' BETWEEN ''2021-10-31 02:00'' AND ''2021-10-31 03:00'''
]) q;
SELECT q, iv_sent(q) AS sent, iv_same(q) AS same FROM unnest(ARRAY[
  'SELECT id FROM ivf WHERE tu + interval ''1 day'' > ''2021-03-28 02:30''',
  'SELECT id FROM ivf WHERE tu - interval ''1 month'' < ''2021-10-31 02:30'''
]) q;
-- a plan made under UTC with months does not run in another zone
SET timezone = 'UTC';
PREPARE p1 AS SELECT id FROM ivf WHERE tu + interval '1 month' = '2000-02-29 10:00+00';
EXECUTE p1;
SET timezone = 'Europe/Berlin';
SELECT field, value FROM show_error('EXECUTE p1') WHERE field IN ('sqlstate', 'message');
DEALLOCATE p1;
SET timezone = 'UTC';

-- ==== kept local, and why: an interval that is no constant (a column,
-- a parameter: its parts are not known), larger than 800 years (results
-- outside the years 1100 .. 3100, and PostgreSQL's own "timestamp out of
-- range" further on), a timestamp against a timestamptz (converted in the
-- session zone), infinity, a plain (non-key) value in the SELECT list, a
-- timestamp +/- interval as a whole grouping key (aggregates.c takes a
-- key of type timestamp only when it is date_trunc), inside other
-- functions, extract() of second, epoch and the other fractional fields
-- of a sum (Decimals: see the dates rows), IS NULL of a sum (a value outside a
-- comparison or a key)
SELECT q, iv_sent(q) AS sent, iv_same(q) AS same FROM unnest(ARRAY[
  'SELECT id FROM ivf WHERE t2 + (id || '' days'')::interval > ''2000-01-01''',
  'SELECT id FROM ivf WHERE t2 + interval ''801 years'' > ''2000-01-01''',
  'SELECT id FROM ivf WHERE t2 + interval ''400 years'' + interval ''401 years'' > ''2000-01-01''',
  'SELECT id FROM ivf WHERE t2 - interval ''300000 days'' > ''1000-01-01''',
  'SELECT id FROM ivf WHERE t2 + interval ''1 day'' > ''2000-01-01 00:00+00''::timestamptz',
  'SELECT id FROM ivf WHERE t2 + interval ''1 day'' < ''infinity''',
  'SELECT id FROM ivf WHERE tu + interval ''1 day'' < ''-infinity''',
  'SELECT id, t2 + interval ''1 day'' FROM ivf',
  'SELECT t2 + interval ''1 day'' AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT id FROM ivf WHERE extract(epoch FROM t2 + interval ''1 day'') > 0',
  'SELECT id FROM ivf WHERE extract(second FROM t2 + interval ''1 day'') > 0',
  'SELECT id FROM ivf WHERE (t2 + interval ''1 day'')::date = ''2000-02-01''',
  'SELECT date_trunc(''day'', t2 + interval ''1 day'', ''UTC'') AS k, count(*) FROM ivf GROUP BY 1',
  'SELECT max(t2 + interval ''1 day'') FROM ivf',
  'SELECT id FROM ivf WHERE tn + interval ''1 hour'' IS NULL'
]) q;
SET plan_cache_mode = force_generic_plan;
PREPARE p2(interval) AS SELECT id FROM ivf WHERE t2 + $1 > '2024-01-01';
SELECT iv_plan('EXECUTE p2(''1 day'')') ~ 'Filter:' AS local_param;
DEALLOCATE p2;
RESET plan_cache_mode;
-- PostgreSQL's own range error stays PostgreSQL's (computed locally)
SELECT field, value FROM show_error($$SELECT id FROM ivf WHERE t2 + interval '300000 years' > '2000-01-01'$$)
  WHERE field IN ('sqlstate', 'message');

-- ==== 300 seeded random (column, interval, session zone) cases: 210
-- comparisons, 60 date_trunc and 30 extract/date_part grouping keys, each
-- sent and equal to the local copy
CREATE FUNCTION iv_random(n int, OUT cases int, OUT sent int, OUT same int) LANGUAGE plpgsql AS $$
DECLARE
  cols text[] := ARRAY['ts', 'tn', 't2', 'tu', 'd'];
  zones text[] := ARRAY['UTC', 'Europe/Berlin', 'America/New_York'];
  ops text[] := ARRAY['=', '<>', '<', '<=', '>', '>='];
  fields text[] := ARRAY['microseconds', 'milliseconds', 'second', 'minute', 'hour', 'day', 'week',
                         'month', 'quarter', 'year', 'decade', 'century', 'millennium'];
  c text; z text; iv text; q text; other text; k text; i int; pure boolean; ts timestamptz;
BEGIN
  cases := 0; sent := 0; same := 0;
  FOR i IN 1 .. n LOOP
    c := cols[1 + floor(random() * 5)::int];
    z := zones[1 + floor(random() * 3)::int];
    pure := random() < 0.3;
    iv := CASE WHEN pure THEN '' ELSE format('%s months %s days ', floor(random() * 61)::int - 30,
                                            floor(random() * 81)::int - 40) END ||
          format('%s:%s:%s.%s', floor(random() * 49)::int - 24, floor(random() * 60)::int,
                 floor(random() * 60)::int, lpad(floor(random() * 1000000)::int::text, 6, '0'));
    PERFORM set_config('timezone', CASE WHEN c = 'tu' AND NOT pure THEN 'UTC' ELSE z END, false);
    IF i % 10 = 3 THEN
      k := (ARRAY['year', 'quarter', 'month', 'day', 'hour', 'minute', 'dow', 'isodow', 'doy', 'decade',
                  'century', 'millennium'])[1 + floor(random() * 12)::int];
      IF c = 'tu' THEN PERFORM set_config('timezone', 'UTC', false); END IF;
      q := format(CASE WHEN random() < 0.5 THEN 'SELECT extract(%s FROM %s %s interval %L) AS k, count(*), min(id) FROM ivf GROUP BY 1'
                       ELSE 'SELECT date_part(%L, %s %s interval %L) AS k, count(*), min(id) FROM ivf GROUP BY 1' END,
                  k, c, CASE WHEN random() < 0.5 THEN '+' ELSE '-' END, iv);
    ELSIF i % 5 = 0 THEN
      k := fields[1 + floor(random() * 13)::int];
      IF c = 'tu' THEN PERFORM set_config('timezone', 'UTC', false); END IF;
      q := format('SELECT date_trunc(%L, %s %s interval %L) AS k, count(*), min(id) FROM ivf GROUP BY 1',
                  k, c, CASE WHEN random() < 0.5 THEN '+' ELSE '-' END, iv);
    ELSE
      SELECT e INTO ts FROM iv_at ORDER BY random() LIMIT 1;
      ts := greatest(least(ts + (random() - 0.5) * interval '60 days', '2105-01-01+00'), '1971-01-01+00');
      other := CASE floor(random() * 3)::int
        WHEN 0 THEN CASE WHEN c = 'tu' THEN quote_literal(ts::text) || '::timestamptz'
                         ELSE quote_literal((ts AT TIME ZONE 'UTC')::text) || '::timestamp' END
        WHEN 1 THEN CASE WHEN c = 'tu' THEN 'tu' ELSE (ARRAY['ts', 'tn', 't2', 'd'])[1 + floor(random() * 4)::int] END
        ELSE CASE WHEN c = 'tu' THEN 'tu + interval ''1 month''' ELSE 't2 - interval ''1 day 02:00''' END END;
      IF c = 'tu' AND other = 'tu + interval ''1 month''' THEN
        PERFORM set_config('timezone', 'UTC', false);
      END IF;
      q := format('SELECT id FROM ivf WHERE %s %s interval %L %s %s', c,
                  CASE WHEN random() < 0.5 THEN '+' ELSE '-' END, iv, ops[1 + floor(random() * 6)::int], other);
    END IF;
    cases := cases + 1;
    IF iv_sent(q) THEN sent := sent + 1; ELSE RAISE NOTICE 'not sent (%): %', current_setting('timezone'), q; END IF;
    IF iv_same(q) THEN same := same + 1; END IF;
  END LOOP;
  PERFORM set_config('timezone', 'UTC', false);
END $$;
SELECT setseed(0.25);
SELECT * FROM iv_random(300);

-- ==== (tscol) plain timestamp columns compared with constants, dates,
-- run-time values and columns: their wall time's microseconds from the
-- parts in the column's zone (a DateTime's instants do not order as their
-- wall times where a DST change repeats an hour); timestamptz and
-- timestamp columns against dates and timestamps (rewrite.c: the date's
-- or the timestamp's start in the session zone, a run-time value).
-- Before, every one of these ran in PostgreSQL (a Filter over the scan).
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ivf WHERE ts >= '2021-10-31 02:30';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ivf WHERE tu >= date '2021-10-31';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ivf WHERE tn::date = date '2021-11-07';
-- iv_sent2(q): one Foreign Scan and nothing over it
CREATE FUNCTION iv_sent2(q text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE plan text := iv_plan(q);
BEGIN
  RETURN plan ~ '^Foreign Scan' AND
    NOT EXISTS (SELECT 1 FROM regexp_split_to_table(rtrim(plan, E'\n'), E'\n') l
                WHERE l !~ '^(Foreign Scan|  (Output|Relations|Remote SQL): )');
END $$;
-- the wall times at the DST changes (02:30 missing in Berlin on
-- 2021-03-28, twice on 2021-10-31; 01:30 twice in New York on 2021-11-07),
-- a fraction, the ends, dates, infinity of dates and a date past
-- timestamp's range (the date side is clamped: it compares with every
-- value as it does)
CREATE TABLE iv_vals (v text);
INSERT INTO iv_vals VALUES ('timestamp ''2021-03-28 02:30'''), ('timestamp ''2021-10-31 02:30'''),
  ('timestamp ''2021-10-31 02:00'''), ('timestamp ''2021-11-07 01:30'''),
  ('timestamp ''2000-02-29 23:59:59.5'''), ('timestamp ''1970-01-01 00:00'''),
  ('timestamp ''2106-02-04 00:00'''), ('date ''2021-10-31'''), ('date ''2024-02-29'''),
  ('date ''infinity'''), ('date ''-infinity'''), ('date ''294277-01-01''');
CREATE FUNCTION iv_tscol(zones text[]) RETURNS TABLE (zone text, cases int, sent int, same int)
LANGUAGE plpgsql AS $$
DECLARE q text; z text;
BEGIN
  FOREACH z IN ARRAY zones LOOP
    PERFORM set_config('timezone', z, false);
    zone := z; cases := 0; sent := 0; same := 0;
    FOR q IN
      SELECT format(f, c, o, v) FROM unnest(ARRAY['ts', 'tn', 't2', 'tu']) c,
        unnest(ARRAY['=', '<>', '<', '<=', '>', '>=']) o, iv_vals,
        unnest(ARRAY['SELECT id FROM ivf WHERE %1$s %2$s %3$s',
                     'SELECT id FROM ivf WHERE %3$s %2$s %1$s',
                     'SELECT id FROM ivf WHERE NOT (%1$s %2$s %3$s) OR id = 5',
                     'SELECT id FROM ivf WHERE %1$s::date %2$s (%3$s)::date']) f
      WHERE NOT (v ~ 'infinity|294277' AND f ~ '::date')
    LOOP
      cases := cases + 1;
      IF iv_sent2(q) THEN sent := sent + 1; ELSE RAISE NOTICE 'not sent (%): %', z, q; END IF;
      IF iv_same(q) THEN same := same + 1; END IF;
    END LOOP;
    RETURN NEXT;
  END LOOP;
  PERFORM set_config('timezone', 'UTC', false);
END $$;
SELECT * FROM iv_tscol(ARRAY['UTC', 'Europe/Berlin', 'America/New_York']);
-- two columns of other zones
SELECT q, (iv_check(q)).* FROM unnest(ARRAY[
  'SELECT id FROM ivf WHERE ts < tn',
  'SELECT id FROM ivf WHERE ts >= t2',
  'SELECT id FROM ivf WHERE t2 = d',
  'SELECT id FROM ivf WHERE tn <> ts + interval ''1 hour''']) q;
-- run-time values: generic plans' parameters (a timestamp, a date, NULL,
-- infinity) under Berlin and New York
SET plan_cache_mode = force_generic_plan;
PREPARE iv_p1(timestamp) AS SELECT count(*) FROM ivf WHERE ts > $1;
PREPARE iv_l1(timestamp) AS SELECT count(*) FROM ivl WHERE ts > $1;
PREPARE iv_p2(date) AS SELECT count(*) FROM ivf WHERE tn <= $1 OR tu >= $1;
PREPARE iv_l2(date) AS SELECT count(*) FROM ivl WHERE tn <= $1 OR tu >= $1;
PREPARE iv_p3(timestamp) AS SELECT count(*) FROM ivf WHERE tu < $1;
PREPARE iv_l3(timestamp) AS SELECT count(*) FROM ivl WHERE tu < $1;
SELECT iv_plan('EXECUTE iv_p1(''2021-10-31 02:30'')') ~ '^Foreign Scan' AS p1_sent,
       iv_plan('EXECUTE iv_p2(''2021-10-31'')') ~ '^Foreign Scan' AS p2_sent,
       iv_plan('EXECUTE iv_p3(''2021-10-31 02:30'')') ~ '^Foreign Scan' AS p3_sent;
SET timezone = 'Europe/Berlin';
EXECUTE iv_p1('2021-10-31 02:30'); EXECUTE iv_l1('2021-10-31 02:30');
EXECUTE iv_p1('infinity'); EXECUTE iv_l1('infinity');
EXECUTE iv_p1('-infinity'); EXECUTE iv_l1('-infinity');
EXECUTE iv_p1(NULL); EXECUTE iv_l1(NULL);
EXECUTE iv_p2('2021-10-31'); EXECUTE iv_l2('2021-10-31');
EXECUTE iv_p2('infinity'); EXECUTE iv_l2('infinity');
EXECUTE iv_p3('2021-10-31 02:30'); EXECUTE iv_l3('2021-10-31 02:30');
EXECUTE iv_p3('2021-03-28 02:30'); EXECUTE iv_l3('2021-03-28 02:30');
SET timezone = 'America/New_York';
EXECUTE iv_p3('2021-11-07 01:30'); EXECUTE iv_l3('2021-11-07 01:30');
EXECUTE iv_p2('2021-11-07'); EXECUTE iv_l2('2021-11-07');
SET timezone = 'UTC';
DEALLOCATE ALL;
RESET plan_cache_mode;
-- stays local: a timestamp column against a timestamptz value (PostgreSQL
-- converts the column's wall time in the session zone), infinity of
-- timestamps, IS DISTINCT FROM, IN lists
SELECT q, iv_sent2(q) AS sent, iv_same(q) AS same FROM unnest(ARRAY[
  'SELECT id FROM ivf WHERE ts < timestamptz ''2021-10-31 01:30+00''',
  'SELECT id FROM ivf WHERE ts < timestamp ''infinity''',
  'SELECT id FROM ivf WHERE ts IS DISTINCT FROM timestamp ''2021-10-31 02:30''',
  'SELECT id FROM ivf WHERE ts IN (timestamp ''2021-10-31 02:30'', timestamp ''2000-01-31 00:00'')']) q;
DROP FUNCTION iv_tscol(text[]), iv_sent2(text);
DROP TABLE iv_vals;
RESET timezone;
RESET datestyle;
RESET intervalstyle;
DROP FUNCTION iv_random(int), iv_check(text), iv_same(text), iv_sent(text), iv_plan(text), iv_rows(text);
DROP FUNCTION show_error(text);
DROP TABLE ivl, iv_at;
SELECT clickhouse_exec('ch_iv', 'DROP TABLE ' || :'ch_db' || '.iv1');
SELECT clickhouse_exec('ch_iv', 'DROP TABLE ' || :'ch_db' || '.iv2');
DROP SERVER ch_iv CASCADE;
