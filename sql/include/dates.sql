-- ====================================================================
-- date_trunc() and the date parts second, milliseconds, microseconds,
-- epoch, dow, isodow, doy of timestamp columns (in the column's own zone,
-- any session TimeZone) and of timestamptz columns (session TimeZone UTC),
-- shared by dates.sql (ClickHouse 18.16) and modern_dates.sql (the 26.5
-- engine behind test/chdb/front.py, a test harness, not a server).
-- The caller has created server ch_dt and the ClickHouse table dts (id,
-- t: a DateTime in Europe/Berlin (DST changes), u: a DateTime (UTC), n: a
-- Nullable DateTime in America/New_York, d: a Date, x1 and x2: further
-- columns of the engine's wider types (DateTime64, Date32 on 26.5)) with
-- edge rows (1970-01-01, leap days, the DST changes, 2105-12-31, the
-- last day each type's date parts reach) and seeded pseudo-random rows.
-- Every query runs on the foreign table and on a local copy of the same
-- rows; dt_check says whether it was one Foreign Scan with nothing above it
-- (pushed) and whether the answers are equal (same; and in order where the
-- query orders totally).
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET extra_float_digits = 0;
SET timezone = 'America/Sao_Paulo';
CREATE FOREIGN TABLE dts (id int, t timestamp, u timestamptz, ut timestamp, n timestamp,
                          d timestamp, x1 timestamp, x2 timestamp)
  SERVER ch_dt OPTIONS (table 'dts');
ALTER FOREIGN TABLE dts ALTER COLUMN ut OPTIONS (ADD column_name 'u');
CREATE TABLE dts_l AS SELECT * FROM dts;
SELECT count(*), count(DISTINCT t), min(t), max(t), min(x1), max(x1), count(n) FROM dts_l;

-- dt_check(query, ordered): pushed (one Foreign Scan, nothing above it but
-- Limit) and same (the foreign and local answers as sorted multisets and,
-- if ordered, in order; or the same SQLSTATE raised by both, in err)
\i sql/include/diff_check.sql
CREATE FUNCTION dt_check(q text, ordered boolean DEFAULT false, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'dts', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|WindowAgg|Unique|Group|Filter)', ordered, true) $$;

-- ==== what is sent (EXPLAIN shows the Remote SQL; the markers of the
-- columns are resolved when the query starts: the zone, the fraction)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT date_trunc('hour', t), count(*) FROM dts GROUP BY 1 ORDER BY 1;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM dts WHERE extract(second FROM t) > 30 AND date_part('dow', x1) = 0;

-- ==== date_trunc of every field, as grouping keys (and ORDER BY them): all
-- thirteen of a column in one query, then the coarser ones alone (their
-- groups hold many rows)
SELECT c AS col, ck.*
  FROM unnest(ARRAY['t', 'ut', 'n', 'd', 'x1', 'x2']) c,
       LATERAL (SELECT string_agg(format('date_trunc(%L, %s)', f, c), ', ' ORDER BY o) AS k,
                       string_agg(o::text, ', ' ORDER BY o) AS n
                  FROM unnest(ARRAY['microseconds', 'milliseconds', 'second', 'minute', 'hour', 'day',
                                    'week', 'month', 'quarter', 'year', 'decade', 'century',
                                    'millennium']) WITH ORDINALITY u(f, o)) l,
       LATERAL dt_check(format('SELECT %s, count(*) FROM dts GROUP BY %s ORDER BY %s', k, n, n), true) ck
  ORDER BY 1;
SELECT f AS field, c AS col, ck.*
  FROM unnest(ARRAY['day', 'week', 'month', 'quarter', 'year', 'decade', 'century', 'millennium']) f,
       unnest(ARRAY['t', 'n', 'x1', 'x2']) c,
       LATERAL dt_check(format('SELECT date_trunc(%L, %s), count(*), min(id) FROM dts GROUP BY 1 ORDER BY 1', f, c), true) ck
  ORDER BY 1, 2;
-- descending, NULLs first, under LIMIT (top groups); with HAVING
SELECT * FROM dt_check('SELECT date_trunc(''day'', n), count(*) FROM dts GROUP BY 1 ORDER BY 1 DESC NULLS FIRST LIMIT 5', true);
SELECT * FROM dt_check('SELECT date_trunc(''month'', x1) AS m, sum(id) FROM dts GROUP BY 1 HAVING count(*) > 1 ORDER BY m', true);
-- with other keys
SELECT * FROM dt_check('SELECT date_trunc(''week'', t), extract(isodow FROM t), extract(hour FROM t), count(*) FROM dts GROUP BY 1, 2, 3 ORDER BY 1, 2, 3', true);

-- ==== the date parts: date_part (double precision) and the integer fields
-- of extract (numeric) as grouping keys; extract's second, milliseconds
-- and epoch (numeric with PostgreSQL's scale: Decimals in ClickHouse) in
-- WHERE, not as keys (18.16 crashed grouping
-- by such a Decimal)
SELECT c AS col, ck.*
  FROM unnest(ARRAY['t', 'ut', 'n', 'd', 'x1', 'x2']) c,
       LATERAL (SELECT string_agg(format('date_part(%L, %s)', f, c), ', ' ORDER BY o) AS k,
                       string_agg(o::text, ', ' ORDER BY o) AS n
                  FROM unnest(ARRAY['second', 'milliseconds', 'microseconds', 'epoch', 'dow',
                                    'isodow', 'doy']) WITH ORDINALITY u(f, o)) l,
       LATERAL dt_check(format('SELECT %s, count(*) FROM dts GROUP BY %s', k, n)) ck
  ORDER BY 1;
SELECT f AS field, c AS col, ck.*
  FROM unnest(ARRAY['second', 'dow', 'doy']) f, unnest(ARRAY['t', 'x1', 'x2']) c,
       LATERAL dt_check(format('SELECT date_part(%L, %s), count(*) FROM dts GROUP BY 1', f, c)) ck
  ORDER BY 1, 2;
SELECT c AS col, ck.*
  FROM unnest(ARRAY['t', 'ut', 'n', 'd', 'x1', 'x2']) c,
       LATERAL dt_check(format('SELECT extract(microseconds FROM %1$s), extract(dow FROM %1$s), extract(isodow FROM %1$s), extract(doy FROM %1$s), count(*) FROM dts GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4', c), true) ck
  ORDER BY 1;
SELECT f AS field, c AS col, ck.*
  FROM unnest(ARRAY['isodow', 'doy']) f, unnest(ARRAY['t', 'n', 'x1']) c,
       LATERAL dt_check(format('SELECT extract(%s FROM %s), count(*) FROM dts GROUP BY 1 ORDER BY 1', f, c), true) ck
  ORDER BY 1, 2;
-- extract's numeric values equal PostgreSQL's exactly: the rows found by
-- the local values of every 15th row
SELECT f AS field, c AS col, ck.*
  FROM unnest(ARRAY['second', 'milliseconds', 'epoch']) f,
       unnest(ARRAY['t', 'ut', 'n', 'd', 'x1', 'x2']) c,
       LATERAL (SELECT string_agg(DISTINCT format('extract(%s FROM %s) = %s', f, c, x), ' OR ') AS v FROM (SELECT id, CASE f WHEN 'second' THEN extract(second FROM r) WHEN 'milliseconds' THEN extract(milliseconds FROM r) ELSE extract(epoch FROM r) END AS x FROM dts_l, LATERAL (SELECT CASE c WHEN 't' THEN t WHEN 'ut' THEN ut WHEN 'n' THEN n WHEN 'd' THEN d WHEN 'x1' THEN x1 ELSE x2 END AS r) rr) s WHERE id % 15 = 0 AND x IS NOT NULL) l,
       LATERAL dt_check(format('SELECT id FROM dts WHERE %s', v)) ck
  ORDER BY 1, 2;
SELECT q, ck.* FROM (VALUES
  ('SELECT id FROM dts WHERE extract(second FROM t) >= 30.5'),
  ('SELECT id FROM dts WHERE extract(milliseconds FROM x1) < 1000 OR extract(dow FROM x2) = 6'),
  ('SELECT id FROM dts WHERE extract(epoch FROM n) < 1000000000'),
  ('SELECT id FROM dts WHERE date_part(''epoch'', x1) > 1000000000 AND (extract(doy FROM t) = 59 OR extract(doy FROM t) = 60 OR extract(doy FROM t) = 366)'),
  ('SELECT id FROM dts WHERE extract(isodow FROM d) = 7 OR extract(microseconds FROM x1) = 0'),
  ('SELECT extract(dow FROM t) AS w, count(*) FROM dts WHERE extract(doy FROM t) > 100 GROUP BY 1 ORDER BY 1')
) v(q), LATERAL dt_check(q) ck;
-- kept local: extract's numeric second, milliseconds, epoch as a key
SELECT * FROM dt_check('SELECT extract(epoch FROM t), count(*) FROM dts GROUP BY 1');

-- ==== timestamptz columns: sent under UTC only
SET timezone = 'UTC';
SELECT f AS field, ck.*
  FROM unnest(ARRAY['microseconds', 'second', 'minute', 'hour', 'day', 'week', 'month',
                    'quarter', 'year', 'decade', 'century', 'millennium']) f,
       LATERAL dt_check(format('SELECT date_trunc(%L, u), extract(%s FROM u), count(*) FROM dts GROUP BY 1, 2 ORDER BY 1, 2', f, CASE WHEN f IN ('week', 'decade', 'century', 'millennium') THEN 'isodow' ELSE 'microseconds' END), true) ck
  ORDER BY 1;
SELECT * FROM dt_check('SELECT id FROM dts WHERE extract(dow FROM u) = 0 AND date_part(''second'', u) > 0');
SELECT * FROM dt_check('SELECT date_part(''epoch'', u), extract(doy FROM u), count(*) FROM dts GROUP BY 1, 2');
EXPLAIN (VERBOSE, COSTS OFF)
SELECT date_trunc('month', u), count(*) FROM dts GROUP BY 1;

-- ==== (tsdate) ts::date and date(ts) as grouping keys (and ORDER BY them),
-- and count(DISTINCT), min and max of them and of date_trunc:
-- the wall date of a timestamp column in its zone (any session zone), of a
-- timestamptz column under UTC; sent as the date's text from the wall
-- time's parts (the range ends, DST changes, 1970-01-01 and the random rows
-- of dts), read as date
SELECT q, ck.* FROM (VALUES
  ('SELECT t::date, count(*) FROM dts GROUP BY 1 ORDER BY 1'),
  ('SELECT date(n), count(*), min(id) FROM dts GROUP BY 1 ORDER BY 1 DESC NULLS FIRST'),
  ('SELECT u::date, count(*) FROM dts GROUP BY 1 ORDER BY 1'),
  ('SELECT ut::date, d::date, count(*) FROM dts GROUP BY 1, 2 ORDER BY 1, 2'),
  ('SELECT x1::date, x2::date, count(*) FROM dts GROUP BY 1, 2 ORDER BY 1, 2'),
  ('SELECT u::date, extract(hour FROM u), count(*) FROM dts GROUP BY 1, 2 ORDER BY 1, 2'),
  ('SELECT u::date, count(*) FROM dts WHERE id > 5 GROUP BY 1 HAVING count(*) > 1 ORDER BY 2 DESC, 1 LIMIT 5'),
  ('SELECT count(DISTINCT t::date), min(u::date), max(date(n)), count(DISTINCT date_trunc(''hour'', x1)) FROM dts'),
  ('SELECT extract(year FROM t) AS y, count(DISTINCT x2::date), min(date_trunc(''month'', t)), max(date_trunc(''day'', u)), min(d::date) FROM dts GROUP BY 1 ORDER BY 1'),
  ('SELECT count(DISTINCT date_trunc(''week'', n)) FILTER (WHERE id % 2 = 0), max(x1::date) FILTER (WHERE id > 1000) FROM dts')
) v(q), LATERAL dt_check(q, true) ck;
-- as DISTINCT outputs (rows compared as multisets)
SELECT q, ck.* FROM (VALUES
  ('SELECT DISTINCT t::date FROM dts'),
  ('SELECT DISTINCT date(n), x2::date FROM dts WHERE id > 3'),
  ('SELECT DISTINCT date_trunc(''month'', u) FROM dts')
) v(q), LATERAL dt_check(q) ck;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT u::date, count(*) FROM dts GROUP BY 1 ORDER BY 1;

-- ==== kept local, with the reason
SET timezone = 'America/Sao_Paulo';
-- a timestamptz in another session zone (ClickHouse cannot represent the
-- local times of DateTimes near 1970 there)
SELECT * FROM dt_check('SELECT date_trunc(''day'', u), count(*) FROM dts GROUP BY 1');
SELECT * FROM dt_check('SELECT id FROM dts WHERE extract(dow FROM u) = 0');
-- (tsdate) a timestamptz's date in another session zone; ts::date computed
-- on (its value travels as text: only a whole grouping key or DISTINCT
-- output is sent), compared with another column
SELECT * FROM dt_check('SELECT u::date, count(*) FROM dts GROUP BY 1');
SELECT * FROM dt_check('SELECT DISTINCT u::date FROM dts');
SELECT * FROM dt_check('SELECT t::date + 1, count(*) FROM dts GROUP BY 1');
SELECT * FROM dt_check('SELECT id FROM dts WHERE t::date = n::date');
-- date_trunc computed on: its value travels as text, so only a whole
-- grouping key, or one compared with a constant (the first and the last
-- query here, sent since tochar: sql/include/tochar.sql), is sent (the
-- grouping of date_trunc of an expression stays local too)
SELECT * FROM dt_check('SELECT id FROM dts WHERE date_trunc(''day'', t) = ''2000-02-29''');
SELECT * FROM dt_check('SELECT date_trunc(''day'', t) + interval ''1 hour'', count(*) FROM dts GROUP BY 1');
SELECT * FROM dt_check('SELECT date_trunc(''day'', t + interval ''1 hour''), count(*) FROM dts GROUP BY 1');
SELECT * FROM dt_check('SELECT count(*) FROM dts GROUP BY date_trunc(''day'', t) HAVING date_trunc(''day'', t) > ''2000-01-01''');
-- fields PostgreSQL refuses for date_trunc or that are not sent
SELECT * FROM dt_check('SELECT extract(julian FROM t), count(*) FROM dts GROUP BY 1');
SELECT * FROM dt_check('SELECT extract(timezone FROM u), count(*) FROM dts GROUP BY 1');
SELECT * FROM dt_check('SELECT date_trunc(''dow'', t), count(*) FROM dts GROUP BY 1');

DROP TABLE dts_l;
DROP FUNCTION dt_check(text, boolean);
RESET timezone;
RESET datestyle;
RESET extra_float_digits;
