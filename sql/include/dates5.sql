-- ====================================================================
-- dates5, shared by dates5.sql (ClickHouse 18.16) and modern_dates5.sql
-- (the 26.5 engine behind test/chdb/front.py, a test harness, not a
-- server). The caller has created server ch_d5 and set ch_db. Table d5:
-- w a Date read as timestamptz, d a Date read as date, u a DateTime read
-- as timestamptz; edge days (1970-01-01, leap days, 2100-02-28/03-01,
-- 2106-02-07, 2149-06-06, ISO week-53 years) and 200 seeded pseudo-random
-- rows over the full ranges. Every query runs on the foreign table and on
-- a local copy; d5_check says whether it was one Foreign Scan with
-- nothing above it (pushed) and whether the answers are equal (same; or
-- the same SQLSTATE raised by both).
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_d5', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.d5');
SELECT clickhouse_exec('ch_d5', 'CREATE TABLE ' || :'ch_db' || '.d5 (id Int32, w Date, d Date, u DateTime) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_d5', format('INSERT INTO %s.d5 SELECT number, toDate(e), toDate(e), toDateTime(toUInt32(e * 86400 + number * 3607 %% 86400)) FROM (SELECT number, [%s][number + 1] AS e FROM system.numbers LIMIT %s)',
         :'ch_db', string_agg((x - date '1970-01-01')::text, ', ' ORDER BY o), count(*)))
  FROM unnest(ARRAY['1970-01-01', '1970-01-02', '1970-01-04', '1970-01-05', '1972-02-29', '1972-03-01',
                    '2000-02-29', '2004-12-31', '2005-01-02', '2005-01-03', '2020-12-31', '2038-01-19',
                    '2100-02-28', '2100-03-01', '2104-02-29', '2105-12-31', '2106-02-06', '2106-02-07']::date[]) WITH ORDINALITY v(x, o);
-- days past DateTime's range (u: its last second)
SELECT clickhouse_exec('ch_d5', format('INSERT INTO %s.d5 SELECT 50 + number, toDate(e), toDate(e), toDateTime(4294967295) FROM (SELECT number, [%s][number + 1] AS e FROM system.numbers LIMIT %s)',
         :'ch_db', string_agg((x - date '1970-01-01')::text, ', ' ORDER BY o), count(*)))
  FROM unnest(ARRAY['2106-02-08', '2108-02-29', '2120-12-31', '2128-02-29', '2148-12-31', '2149-01-01',
                    '2149-06-05', '2149-06-06']::date[]) WITH ORDINALITY v(x, o);
-- 200 seeded pseudo-random days and instants over the full ranges
SELECT clickhouse_exec('ch_d5', 'INSERT INTO ' || :'ch_db' || '.d5 SELECT 100 + number, toDate(toUInt16((number * 40503 + 7) % 65536)), toDate(toUInt16((number * 7919 + 31) % 65536)), toDateTime(toUInt32((number * 2654435761 + 12345) % 4294967296)) FROM system.numbers LIMIT 200');
CREATE FOREIGN TABLE d5 (id int, w timestamptz, d date, u timestamptz) SERVER ch_d5 OPTIONS (table 'd5');
CREATE TABLE d5_l AS SELECT * FROM d5;
SELECT count(*), min(w), max(w), min(d), max(d), min(u), max(u) FROM d5_l;

\i sql/include/diff_check.sql
CREATE FUNCTION d5_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int, OUT err text)
  LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'd5', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|WindowAgg|Unique|Group|Filter)', false, true) $$;

-- ==== 1. the fixed to_char patterns of a timestamptz column over a Date:
-- each part from the day number (before: toHour(w, 'UTC') and the other
-- parts of the column itself, which 26.5 refuses for a Date, 42804, and
-- 18.16 answers 1970 for from 2106-02-08 on)
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM d5 WHERE to_char(w, 'YYYY-MM-DD HH24:MI:SS') = '2020-12-31 00:00:00';
SELECT c, k, (d5_check(format('SELECT id, to_char(%s, %L) FROM d5 GROUP BY 1, 2', c, k))).*
  FROM unnest(ARRAY['w', 'u']) c,
       unnest(ARRAY['YYYY', 'YYYY-MM', 'YYYY-MM-DD', 'YYYYMMDD', 'YYYY-MM-DD HH24:MI', 'YYYY-MM-DD HH24:MI:SS',
                    'HH24', 'HH24:MI', 'HH24:MI:SS']) WITH ORDINALITY v(k, o)
  ORDER BY c, o;
SELECT q, (d5_check(q)).* FROM (VALUES
  ('SELECT id FROM d5 WHERE to_char(w, ''YYYY-MM-DD HH24:MI:SS'') = ''2149-06-06 00:00:00'''),
  ('SELECT id FROM d5 WHERE to_char(w, ''HH24:MI'') = ''00:00'' AND to_char(w, ''YYYY'') >= ''2106'''),
  ('SELECT id FROM d5 WHERE to_char(u, ''YYYY-MM-DD HH24:MI:SS'') >= ''2106-02-07 06:28:15'''),
  ('SELECT to_char(w, ''YYYY-MM'') AS k, count(*) FROM d5 GROUP BY 1 ORDER BY 1')) v(q);
-- a join's condition names the raw column: kept local (Filter) there
SELECT q, (d5_check(q)).* FROM (VALUES
  ('SELECT x.id FROM d5 x JOIN d5 y ON x.id = y.id AND to_char(x.w, ''HH24'') < y.id::text'),
  ('SELECT x.id FROM d5 x JOIN d5 y ON x.id = y.id AND extract(hour FROM x.w) < y.id'),
  ('SELECT x.id FROM d5 x JOIN d5 y ON x.id = y.id AND to_char(x.w, ''YYYY-MM-DD HH24:MI:SS.US'') < y.id::text')) v(q);
-- the same over the DateTime column stays sent
SELECT q, (d5_check(q)).* FROM (VALUES
  ('SELECT x.id FROM d5 x JOIN d5 y ON x.id = y.id AND extract(hour FROM x.u) < y.id')) v(q);

-- ==== 3. date_part(text, date) (date_part(f, d::timestamp)) and
-- date_trunc(text, date) (date_trunc(f, d::timestamptz), under UTC) of a
-- date column: the day's parts, time of day 0
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, date_part('year', d), date_part('doy', d) FROM d5 GROUP BY 1, 2, 3;
EXPLAIN (VERBOSE, COSTS OFF) SELECT date_trunc('month', d) FROM d5 GROUP BY 1;
SELECT f, (d5_check(format('SELECT id, date_part(%L, d) FROM d5 GROUP BY 1, 2', f))).*
  FROM unnest(ARRAY['year', 'quarter', 'month', 'week', 'day', 'isoyear', 'decade', 'century', 'millennium',
                    'dow', 'isodow', 'doy', 'epoch', 'julian', 'second', 'milliseconds', 'microseconds'])
       WITH ORDINALITY v(f, o)
  ORDER BY o;
SELECT f, (d5_check(format('SELECT id, date_trunc(%L, d) FROM d5 GROUP BY 1, 2', f))).*
  FROM unnest(ARRAY['microseconds', 'milliseconds', 'second', 'minute', 'hour', 'day', 'week', 'month',
                    'quarter', 'year', 'decade', 'century', 'millennium']) WITH ORDINALITY v(f, o)
  ORDER BY o;
SELECT q, (d5_check(q)).* FROM (VALUES
  ('SELECT id FROM d5 WHERE date_part(''isoyear'', d) >= 2100 AND date_part(''week'', d) >= 52'),
  ('SELECT id FROM d5 WHERE date_part(''doy'', d) = 366'),
  ('SELECT id FROM d5 WHERE date_part(''dow'', d) = 0 OR date_part(''isodow'', d) = 1'),
  ('SELECT id FROM d5 WHERE date_trunc(''month'', d) = ''2149-06-01 00:00:00+00'''),
  ('SELECT id FROM d5 WHERE date_trunc(''week'', d) >= ''2106-02-01'''),
  ('SELECT id FROM d5 WHERE date_trunc(''year'', d) BETWEEN ''2000-01-01'' AND ''2100-01-01'''),
  ('SELECT date_trunc(''year'', d) AS y, count(*) FROM d5 GROUP BY 1 ORDER BY 1'),
  ('SELECT date_part(''month'', d) AS m, count(*) FROM d5 GROUP BY 1 ORDER BY 1'),
  ('SELECT id, date_trunc(''day'', d::timestamp) FROM d5 GROUP BY 1, 2'),
  ('SELECT id, extract(year FROM d), extract(week FROM d) FROM d5 GROUP BY 1, 2, 3')) v(q);
-- kept local: extract(doy/hour FROM d) (doy: 26.5's toDayOfYear of
-- 2299-12-31; hour: PostgreSQL raises for a date), a date's date_trunc
-- under another zone (its midnight is the session zone's)
SELECT q, (d5_check(q)).* FROM (VALUES
  ('SELECT id, extract(doy FROM d) FROM d5 GROUP BY 1, 2'),
  ('SELECT id, extract(hour FROM d) FROM d5 GROUP BY 1, 2')) v(q);
SET timezone = 'Europe/Berlin';
SELECT q, (d5_check(q)).* FROM (VALUES
  ('SELECT id, date_trunc(''month'', d) FROM d5 GROUP BY 1, 2'),
  ('SELECT id, date_part(''month'', d), date_part(''epoch'', d) FROM d5 GROUP BY 1, 2, 3')) v(q);
SET timezone = 'America/Sao_Paulo';
SELECT q, (d5_check(q)).* FROM (VALUES
  ('SELECT id, date_trunc(''day'', d) FROM d5 GROUP BY 1, 2'),
  ('SELECT id, date_part(''doy'', d) FROM d5 GROUP BY 1, 2')) v(q);
SET timezone = 'UTC';

DROP FUNCTION d5_check(text);
DROP TABLE d5_l;
DROP FOREIGN TABLE d5;
SELECT clickhouse_exec('ch_d5', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.d5');
