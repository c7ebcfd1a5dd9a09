-- ====================================================================
-- to_char(value, 'format') of timestamp, timestamptz and date columns,
-- shared by tochar.sql (ClickHouse 18.16) and modern_tochar.sql (the 26.5
-- engine behind test/chdb/front.py, a test harness, not a server).
-- The caller has created server ch_tc and the ClickHouse table tcs (id,
-- t: a DateTime in Europe/Berlin (DST changes), u: a DateTime read as
-- timestamptz, n: a Nullable DateTime in America/New_York, d: a Date, x1
-- and x2: a date-time and a date of the engine's widest types) with edge
-- rows (1970-01-01, midnight and noon, leap days, the years around ISO
-- week 53, the DST changes, the last days each type's parts reach) and
-- seeded pseudo-random rows. Every query runs on the foreign table and on
-- a local copy of the same rows; tc_check says whether it was one Foreign
-- Scan with nothing above it (pushed) and whether the answers are equal
-- (same; or the same SQLSTATE raised by both).
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
CREATE FOREIGN TABLE tcs (id int, t timestamp, u timestamptz, n timestamp, d date, x1 timestamp, x2 date)
  SERVER ch_tc OPTIONS (table 'tcs');
CREATE TABLE tcs_l AS SELECT * FROM tcs;
SELECT count(*), count(n), min(t), max(t), min(d), max(d), min(x1), max(x1), min(x2), max(x2) FROM tcs_l;

\i sql/include/diff_check.sql
CREATE FUNCTION tc_check(q text, ordered boolean DEFAULT false, OUT pushed boolean, OUT same boolean, OUT nrows int,
    OUT err text) LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'tcs', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|WindowAgg|Unique|Group|Filter)', ordered, true) $$;
-- every column at once, row by row (grouped by id and the values)
-- (the columns sent on this engine: setting tc.cols, set by the caller)
CREATE FUNCTION tc_all(f text, cols text DEFAULT current_setting('tc.cols')) RETURNS text LANGUAGE sql AS $$
  SELECT format('SELECT id, %s FROM tcs GROUP BY %s',
                string_agg(format('to_char(%s, %L)', c, f), ', ' ORDER BY o),
                string_agg((o + 1)::text, ', ' ORDER BY o) || ', 1')
    FROM unnest(string_to_array(cols, ',')) WITH ORDINALITY u(c, o) $$;

-- ==== what is sent: the parts bound once by lambdas, the derived values
-- (day of year, day number, ISO day of week, ISO year and week) by
-- calendar arithmetic; the column markers are resolved when the query
-- starts (the zone, the range guards)
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM tcs WHERE to_char(t, 'YYYY-MM') = '2000-02';
EXPLAIN (VERBOSE, COSTS OFF)
SELECT to_char(d, 'FMDay, DD "of" Mon'), count(*) FROM tcs GROUP BY 1;

-- ==== every keyword alone, of every column (timestamptz and date under UTC);
-- the weekday and ISO keywords, which share their derived values, and the
-- lower-case spellings of the numeric ones in formats of several
SELECT k AS keyword, ck.*
  FROM unnest(ARRAY['YYYY', 'YYY', 'YY', 'Y', 'Y,YYY', 'MM', 'DD', 'DDD', 'W', 'WW', 'Q', 'CC', 'J',
                    'HH24', 'HH12', 'HH', 'MI', 'SS', 'MS', 'US', 'FF1', 'FF2', 'FF3', 'FF4', 'FF5',
                    'FF6', 'SSSS', 'SSSSS', 'AM', 'PM', 'A.M.', 'P.M.', 'am', 'pm', 'a.m.', 'p.m.',
                    'AD', 'BC', 'A.D.', 'B.C.', 'ad', 'bc', 'a.d.', 'b.c.', 'MONTH', 'Month', 'month',
                    'MON', 'Mon', 'mon', 'RM', 'rm',
                    'D ID', 'DAY|Day|day', 'DY Dy dy', 'IYYY IYY IY I', 'IW IDDD',
                    'iyyy iyy iy i iw iddd id d', 'day dy', 'yyyy yyy yy y y,yyy',
                    'mm dd ddd w ww q cc j', 'hh24 hh12 hh mi ss ms us ff3 ff6 ssss sssss']) WITH ORDINALITY v(k, o),
       LATERAL tc_check(tc_all(k)) ck
  ORDER BY o;
-- with FM (no padding: numbers, names; none for MS, US, FFn, as PostgreSQL)
SELECT k AS keyword, ck.*
  FROM unnest(ARRAY['FMYYYY FMYYY FMYY', 'FMIYY FMIY FMIW FMIDDD', 'FMMM FMDD FMDDD FMWW',
                    'FMCC FMD FMQ FMJ', 'FMHH24 FMHH12 FMHH', 'FMMI FMSS', 'FMMS FMUS FMFF2',
                    'FMMONTH|FMMonth|fmmonth', 'FMDAY|FMDay|fmday', 'FMMon FMDy', 'FMRM|fmrm', 'fmdd']) WITH ORDINALITY v(k, o),
       LATERAL tc_check(tc_all(k)) ck
  ORDER BY o;
-- formats as analysts write them, quoted text and \" included
SELECT k AS format, ck.*
  FROM unnest(ARRAY['YYYY-MM-DD', 'YYYY-MM-DD HH24:MI:SS.US', 'YYYY-MM-DD"T"HH24:MI:SS.MS',
                    'Dy, DD Mon YYYY HH24:MI:SS', 'FMMonth FMDD, YYYY', 'FMDay, FMDD FMMonth YYYY',
                    'IYYY-"W"IW-ID', '"Q"Q YYYY', 'HH12:MI AM', 'FMHH12:MI a.m.', 'YYYYMMDD',
                    'DD.MM.YY', 'MM/DD/YYYY', 'Mon-YY', 'SSSSS.US', '"day" DDD "of" YYYY', 'RM.YYYY',
                    'YYYY "\"quoted\"" \"-\"', '"a\\b" DD', '"unterminated DD', 'CC "century"',
                    'Y,YYY BC', 'HH24MISS', 'MONTHDD', 'DDMonthYYYY']) WITH ORDINALITY v(k, o),
       LATERAL tc_check(tc_all(k)) ck
  ORDER BY o;

-- ==== in WHERE and as grouping keys with aggregates (timestamptz and date
-- columns: on 18.16 from the epoch since dates18, local before)
SELECT q, ck.* FROM (VALUES
  ('SELECT id FROM tcs WHERE to_char(t, ''Dy'') = ''Sat'''),
  ('SELECT id FROM tcs WHERE to_char(x1, ''HH24:MI'') >= ''12:00'' AND to_char(d, ''MM'') = ''02'''),
  ('SELECT id FROM tcs WHERE to_char(n, ''YYYY'') IS NULL'),
  ('SELECT id FROM tcs WHERE to_char(x2, ''IYYY-IW'') = ''2004-53'' OR to_char(x2, ''IYYY-IW'') = ''2009-53'' OR to_char(x2, ''IYYY-IW'') = ''1970-01'''),
  ('SELECT to_char(t, ''YYYY-MM'') AS m, count(*), min(id) FROM tcs GROUP BY 1 ORDER BY 1'),
  ('SELECT to_char(u, ''Day'') AS w, count(*) FROM tcs GROUP BY 1 ORDER BY 1'),
  ('SELECT to_char(x1, ''YYYY'') AS y, to_char(x1, ''Q'') AS q, count(*) FROM tcs GROUP BY 1, 2 ORDER BY 1, 2')
) v(q), LATERAL tc_check(q) ck;

-- ==== timestamp columns in their own zone, in any session zone
SET timezone = 'America/Sao_Paulo';
SELECT k AS format, ck.*
  FROM unnest(ARRAY['YYYY-MM-DD HH24:MI:SS', 'IYYY-IW-ID Dy', 'HH12 AM SSSS', 'FMMonth J DDD']) WITH ORDINALITY v(k, o),
       LATERAL tc_check(tc_all(k, current_setting('tc.cols_any_zone'))) ck
  ORDER BY o;

-- ==== kept local, with the reason
-- timestamptz, and date (read as date::timestamptz), in another session zone
SELECT * FROM tc_check('SELECT id, to_char(u, ''YYYY-MM-DD'') FROM tcs GROUP BY 1, 2');
SELECT * FROM tc_check('SELECT id, to_char(d, ''YYYY-MM-DD'') FROM tcs GROUP BY 1, 2');
SET timezone = 'UTC';
-- keywords not sent: time zones (TZ, OF, TZH), FX; the TH and SP suffixes,
-- the TM prefix; FM before no keyword; a letter outside quotes that is no
-- keyword; non-ASCII literal text; an empty format (PostgreSQL: NULL)
SELECT k AS format, ck.*
  FROM unnest(ARRAY['YYYY TZ', 'OF', 'HH24 TZH', 'FXYYYY', 'DDTH', 'DDth', 'DDSP', 'TMMonth',
                    'YYYY FM-', 'YYYY x', 'Year YYYY', 'YYYY é', '']) WITH ORDINALITY v(k, o),
       LATERAL tc_check(tc_all(k)) ck
  ORDER BY o;
-- a format that is not a constant; an expression of the column; another cast
SELECT * FROM tc_check('SELECT id, to_char(t, CASE WHEN id > 5 THEN ''YYYY'' ELSE ''MM'' END) FROM tcs GROUP BY 1, 2');
SELECT * FROM tc_check('SELECT id, to_char(t + interval ''1 hour'', ''YYYY-MM-DD HH24'') FROM tcs GROUP BY 1, 2');
SELECT * FROM tc_check('SELECT id, to_char(t::timestamptz, ''YYYY-MM-DD HH24'') FROM tcs GROUP BY 1, 2');

-- ==== date_trunc compared with a constant (WHERE): date_trunc's text
-- against the constant's in the same form; constants at the truncated
-- values of rows (equal), with fractions of a second (never equal), on
-- either side, BETWEEN; timestamp columns and (UTC) timestamptz
SELECT f AS field, c AS col, ck.*
  FROM unnest(ARRAY['microseconds', 'milliseconds', 'second', 'minute', 'hour', 'day', 'week', 'month',
                    'quarter', 'year', 'decade', 'century', 'millennium']) f,
       unnest(ARRAY['t', 'u', 'n', 'x1']) c,
       LATERAL (SELECT (array_agg(r ORDER BY id))[5]::text AS v1,
                       ((array_agg(r ORDER BY id))[120] + interval '0.5 second')::text AS v2,
                       (array_agg(r ORDER BY id))[200]::text AS v3,
                       ((array_agg(r ORDER BY id))[200] + interval '3 years 0.25 second')::text AS v4,
                       (array_agg(r ORDER BY id))[250]::text AS v5,
                       ((array_agg(r ORDER BY id))[250] + interval '7 years')::text AS v6
                  FROM (SELECT id, date_trunc(f, CASE c WHEN 't' THEN t WHEN 'u' THEN u AT TIME ZONE 'UTC' WHEN 'n' THEN n ELSE x1 END) AS r
                          FROM tcs_l WHERE CASE c WHEN 'n' THEN n ELSE t END IS NOT NULL) s) l,
       LATERAL tc_check(format('SELECT id FROM tcs WHERE date_trunc(%1$L, %2$s) = %3$L OR %4$L > date_trunc(%1$L, %2$s) OR date_trunc(%1$L, %2$s) BETWEEN %5$L AND %6$L OR (date_trunc(%1$L, %2$s) <> %7$L AND date_trunc(%1$L, %2$s) >= %7$L AND date_trunc(%1$L, %2$s) <= %8$L)',
         f, c, v1, v2, v3, v4, v5, v6)) ck
  ORDER BY 1, 2;
EXPLAIN (VERBOSE, COSTS OFF)
SELECT id FROM tcs WHERE date_trunc('month', t) BETWEEN '2000-01-01' AND '2000-06-01 00:00:00.5';
SELECT q, ck.* FROM (VALUES
  ('SELECT id FROM tcs WHERE date_trunc(''day'', t) = ''2000-02-29'''),
  ('SELECT id FROM tcs WHERE date_trunc(''hour'', x1) >= ''2020-03-29 01:00:00'' AND date_trunc(''hour'', x1) < ''2020-03-29 04:00'''),
  ('SELECT id FROM tcs WHERE NOT (date_trunc(''week'', n) > ''2005-01-03'')'),
  ('SELECT date_trunc(''month'', t), count(*) FROM tcs WHERE date_trunc(''year'', t) <> ''2000-01-01'' GROUP BY 1 HAVING date_trunc(''month'', t) > ''1999-01-01 00:00:00.000001'''),
  ('SELECT id FROM tcs WHERE date_trunc(''second'', x1) = ''1969-12-31 23:59:59'' OR date_trunc(''milliseconds'', x1) = ''1950-06-15 12:34:56.789'''),
  ('SELECT id FROM tcs WHERE date_trunc(''day'', u) = ''2016-01-03 00:00:00+00''')
) v(q), LATERAL tc_check(q) ck;
-- kept local: other constants (years of five digits, infinity), another
-- type, IN lists, IS DISTINCT FROM
SELECT q, ck.* FROM (VALUES
  ('SELECT id FROM tcs WHERE date_trunc(''day'', t) < ''infinity'''),
  ('SELECT id FROM tcs WHERE date_trunc(''day'', t) < ''10000-01-01'''),
  ('SELECT id FROM tcs WHERE date_trunc(''day'', t) = ''2000-02-29''::timestamptz'),
  ('SELECT id FROM tcs WHERE date_trunc(''day'', t) IN (''2000-02-29'', ''2020-02-29'')'),
  ('SELECT id FROM tcs WHERE date_trunc(''day'', t) IS DISTINCT FROM ''2000-02-29''')
) v(q), LATERAL tc_check(q) ck;
SET timezone = 'America/Sao_Paulo';
-- timestamp columns in any session zone; timestamptz stays local
SELECT q, ck.* FROM (VALUES
  ('SELECT id FROM tcs WHERE date_trunc(''day'', t) >= ''2020-10-25'' OR date_trunc(''month'', n) = ''2005-01-01'''),
  ('SELECT id FROM tcs WHERE date_trunc(''day'', u) >= ''2020-10-25''')
) v(q), LATERAL tc_check(q) ck;
SET timezone = 'UTC';

-- ==== random formats (fixed seed): keywords (with FM at random), separators
-- and quoted text joined at random; adjacent pieces may merge into other
-- keywords ('Y' 'YYY' is 'YYYY'), parsed alike on both sides
SELECT setseed(0.1717);
CREATE TEMP TABLE tc_random AS
SELECT g, (SELECT string_agg(CASE WHEN random() < 0.3
                    THEN (ARRAY['-', ' ', ':', '/', '.', ',', '"at" ', '"W"', '''', '"x\"y"', ' | ', '_'])[1 + floor(random() * 12)::int]
                    ELSE CASE WHEN random() < 0.3 THEN 'FM' ELSE '' END ||
                      (ARRAY['YYYY', 'YY', 'Y', 'Y,YYY', 'IYYY', 'IY', 'MM', 'DD', 'DDD', 'IDDD', 'D',
                             'ID', 'W', 'WW', 'IW', 'Q', 'CC', 'J', 'HH24', 'HH12', 'MI', 'SS', 'MS',
                             'US', 'FF4', 'SSSS', 'AM', 'p.m.', 'AD', 'MONTH', 'Month', 'mon', 'Day',
                             'DY', 'dy', 'RM', 'rm', 'iw', 'yyyy', 'hh'])[1 + floor(random() * 40)::int]
                    END, '' ORDER BY s)
             FROM generate_series(1, 1 + g % 5) s) AS f
  FROM generate_series(1, 30) g;
CREATE TEMP TABLE tc_random_checked AS SELECT g, f, c.* FROM tc_random, LATERAL tc_check(tc_all(f)) c;
SELECT count(*) AS formats, count(*) FILTER (WHERE pushed) AS pushed, count(*) FILTER (WHERE same) AS same,
       sum(nrows) AS rows_compared
  FROM tc_random_checked;
-- any not sent or not equal (none expected)
SELECT * FROM tc_random_checked WHERE NOT (pushed AND same) ORDER BY g;
-- a few of the formats
SELECT g, f FROM tc_random_checked WHERE g % 5 = 4 ORDER BY g;

DROP TABLE tc_random_checked;
DROP TABLE tc_random;
DROP TABLE tcs_l;
DROP FUNCTION tc_all(text, text);
DROP FUNCTION tc_check(text, boolean);
RESET timezone;
RESET datestyle;
