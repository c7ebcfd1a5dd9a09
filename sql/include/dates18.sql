-- ====================================================================
-- Date parts, date_trunc and to_char of timestamptz and date columns
-- computed from the epoch (dates18), shared by dates18.sql (ClickHouse
-- 18.16) and modern_dates18.sql (the 26.5 engine behind test/chdb/front.py,
-- a test harness, not a server). The caller has created server ch_d18 and
-- set ch_db. Table d18: u a DateTime and w a Date, both read as timestamptz
-- (session TimeZone UTC), d a Date read as date; edge rows over the whole
-- of each type (1970-01-01 00:00:00, leap days, 2038-01-19, 2100-02-28 and
-- 03-01, 2105-12-31, 2106-02-04 .. 2106-02-07 06:28:15, Date up to
-- 2149-06-06, ISO week-53 years) and 300 seeded pseudo-random rows over
-- the full ranges. Every query runs on the foreign table and on a local
-- copy of the same rows; d18_check says whether it was one Foreign Scan
-- with nothing above it (pushed) and whether the answers are equal (same;
-- or the same SQLSTATE raised by both).
-- ====================================================================
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_d18', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.d18');
SELECT clickhouse_exec('ch_d18', 'CREATE TABLE ' || :'ch_db' || '.d18 (id Int32, u DateTime, w Date, d Date) ENGINE = MergeTree ORDER BY id');
-- edge instants (UTC), w and d on the same day
SELECT clickhouse_exec('ch_d18', format('INSERT INTO %s.d18 SELECT number, toDateTime(e), toDate(intDiv(e, 86400)), toDate(intDiv(e, 86400)) FROM (SELECT number, [%s][number + 1] AS e FROM system.numbers LIMIT %s)',
         :'ch_db', string_agg(extract(epoch FROM x)::bigint::text, ', ' ORDER BY o), count(*)))
  FROM unnest(ARRAY['1970-01-01 00:00:00', '1970-01-01 00:00:01', '1970-01-01 23:59:59', '1970-01-04 12:00:00',
                    '1970-01-05 00:00:00', '1972-02-29 12:00:00', '1972-03-01 00:00:00', '1976-12-31 23:59:59',
                    '2000-02-29 23:59:59', '2000-03-01 00:00:00', '2004-12-31 12:00:00', '2005-01-02 23:59:59',
                    '2005-01-03 00:00:00', '2009-12-31 18:00:00', '2010-01-03 12:00:00', '2015-12-31 00:00:00',
                    '2016-01-03 23:00:00', '2020-12-31 00:00:00', '2021-01-03 12:00:00', '2038-01-19 03:14:07',
                    '2038-01-19 03:14:08', '2099-12-31 23:59:59', '2100-01-01 00:00:00', '2100-02-28 12:00:00',
                    '2100-03-01 00:00:00', '2104-02-29 12:00:00', '2105-12-31 23:59:59', '2106-01-03 00:00:00',
                    '2106-01-04 00:00:00', '2106-02-04 00:00:00', '2106-02-04 23:59:59', '2106-02-05 00:00:00',
                    '2106-02-06 12:34:56', '2106-02-07 00:00:00', '2106-02-07 06:28:15']::timestamptz[]) WITH ORDINALITY v(x, o);
-- edge dates up to a Date's last day (u: the last second of DateTime)
SELECT clickhouse_exec('ch_d18', format('INSERT INTO %s.d18 SELECT 50 + number, toDateTime(4294967295), toDate(e), toDate(e) FROM (SELECT number, [%s][number + 1] AS e FROM system.numbers LIMIT %s)',
         :'ch_db', string_agg((x - date '1970-01-01')::text, ', ' ORDER BY o), count(*)))
  FROM unnest(ARRAY['2106-02-08', '2106-12-31', '2108-02-29', '2110-01-03', '2115-12-31', '2116-01-03',
                    '2120-12-31', '2121-01-02', '2128-02-29', '2132-12-31', '2133-01-01', '2148-12-31',
                    '2149-01-01', '2149-01-04', '2149-06-05', '2149-06-06']::date[]) WITH ORDINALITY v(x, o);
-- 300 seeded pseudo-random instants and days over the full ranges
SELECT clickhouse_exec('ch_d18', 'INSERT INTO ' || :'ch_db' || '.d18 SELECT 100 + number, toDateTime(toUInt32((number * 2654435761 + 12345) % 4294967296)), toDate(toUInt16((number * 40503 + 7) % 65536)), toDate(toUInt16((number * 7919 + 31) % 65536)) FROM system.numbers LIMIT 300');
CREATE FOREIGN TABLE d18 (id int, u timestamptz, w timestamptz, d date) SERVER ch_d18 OPTIONS (table 'd18');
CREATE TABLE d18_l AS SELECT * FROM d18;
-- the types' limits as the server holds them (DateTime: UInt32 seconds,
-- Date: UInt16 days, both from 1970-01-01)
SELECT count(*), min(u), max(u), min(w), max(w), min(d), max(d) FROM d18_l;

\i sql/include/diff_check.sql
CREATE FUNCTION d18_check(q text, OUT pushed boolean, OUT same boolean, OUT nrows int, OUT err text)
  LANGUAGE sql AS $$ SELECT * FROM diff_check(q, 'd18', '(Join|Nested Loop|SubPlan|Hash|Materialize|Aggregate|Sort|WindowAgg|Unique|Group|Filter)', false, true) $$;
-- the SQL sent (EXPLAIN ANALYZE's Remote SQL Sent)
CREATE FUNCTION d18_sent(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF line ~ 'Remote SQL Sent' THEN RETURN NEXT btrim(line); END IF;
  END LOOP;
END $$;

-- ==== what is sent: EXPLAIN shows the forms of servers with Date32; a
-- server without it (18.16) is sent the parts from the epoch (toUInt32 of
-- a DateTime, toUInt16 of a Date) when the scan starts
EXPLAIN (VERBOSE, COSTS OFF) SELECT id, extract(year FROM u), extract(week FROM d) FROM d18 GROUP BY 1, 2, 3;
SELECT d18_sent('SELECT id, extract(hour FROM u), extract(dow FROM d) FROM d18 GROUP BY 1, 2, 3');
SELECT d18_sent('SELECT id, extract(isoyear FROM w) FROM d18 GROUP BY 1, 2');
SELECT d18_sent('SELECT id FROM d18 WHERE to_char(u, ''MM'') = ''02''');

-- ==== extract and date_part of every field of the timestamptz columns
-- (a DateTime and a Date), as grouping keys; extract's numeric second,
-- milliseconds and epoch in WHERE (not keys: README)
SELECT c, f, ck.*
  FROM unnest(ARRAY['u', 'w']) c,
       unnest(ARRAY['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'isoyear', 'decade',
                    'century', 'millennium', 'microseconds', 'dow', 'isodow', 'doy']) WITH ORDINALITY v(f, o),
       LATERAL d18_check(format('SELECT id, extract(%s FROM %s), date_part(%L, %s) FROM d18 GROUP BY 1, 2, 3', f, c, f, c)) ck
  ORDER BY c, o;
SELECT c, f, ck.*
  FROM unnest(ARRAY['u', 'w']) c, unnest(ARRAY['second', 'milliseconds', 'epoch']) WITH ORDINALITY v(f, o),
       LATERAL d18_check(format('SELECT id, date_part(%L, %s) FROM d18 GROUP BY 1, 2', f, c)) ck
  ORDER BY c, o;
SELECT q, ck.* FROM (VALUES
  ('SELECT id FROM d18 WHERE extract(second FROM u) >= 30'),
  ('SELECT id FROM d18 WHERE extract(epoch FROM u) > 4294771200'),
  ('SELECT id FROM d18 WHERE extract(year FROM u) = 2106 AND extract(month FROM u) = 2'),
  ('SELECT id FROM d18 WHERE extract(dow FROM u) = 0 OR extract(isodow FROM w) = 1'),
  ('SELECT extract(year FROM u) AS y, count(*) FROM d18 GROUP BY 1 ORDER BY 1'),
  ('SELECT extract(week FROM w) AS k, count(*), min(id) FROM d18 GROUP BY 1 HAVING count(*) > 1 ORDER BY 1')) v(q), LATERAL d18_check(q) ck;

-- ==== extract of every field of the date column
SELECT f, ck.*
  FROM unnest(ARRAY['year', 'quarter', 'month', 'week', 'day', 'dow', 'isodow', 'isoyear', 'decade',
                    'century', 'millennium', 'epoch', 'julian']) WITH ORDINALITY v(f, o),
       LATERAL d18_check(format('SELECT id, extract(%s FROM d) FROM d18 GROUP BY 1, 2', f)) ck
  ORDER BY o;
SELECT q, ck.* FROM (VALUES
  ('SELECT id FROM d18 WHERE extract(year FROM d) >= 2106 AND extract(week FROM d) = 53'),
  ('SELECT extract(isoyear FROM d) AS y, count(*) FROM d18 GROUP BY 1 ORDER BY 1')) v(q), LATERAL d18_check(q) ck;

-- ==== date_trunc of the timestamptz columns, as grouping keys and
-- compared with constants
SELECT c, f, ck.*
  FROM unnest(ARRAY['u', 'w']) c,
       unnest(ARRAY['microseconds', 'milliseconds', 'second', 'minute', 'hour', 'day', 'week', 'month',
                    'quarter', 'year', 'decade', 'century', 'millennium']) WITH ORDINALITY v(f, o),
       LATERAL d18_check(format('SELECT id, date_trunc(%L, %s) FROM d18 GROUP BY 1, 2', f, c)) ck
  ORDER BY c, o;
SELECT q, ck.* FROM (VALUES
  ('SELECT id FROM d18 WHERE date_trunc(''day'', u) = ''2106-02-07 00:00:00+00'''),
  ('SELECT id FROM d18 WHERE date_trunc(''week'', u) >= ''2106-02-01'''),
  ('SELECT id FROM d18 WHERE date_trunc(''month'', w) BETWEEN ''2100-02-01'' AND ''2100-03-01'''),
  ('SELECT date_trunc(''year'', w) AS y, count(*) FROM d18 GROUP BY 1 ORDER BY 1')) v(q), LATERAL d18_check(q) ck;

-- ==== to_char of the three columns: every keyword, as grouping keys
SELECT c, k, ck.*
  FROM unnest(ARRAY['u', 'w', 'd']) c,
       unnest(ARRAY['YYYY YYY YY Y Y,YYY', 'IYYY IYY IY I', 'MM DD DDD IDDD D ID', 'W WW IW Q CC J',
                    'HH24 HH12 HH MI SS MS US FF1 FF6 SSSS SSSSS', 'AM pm A.M. p.m. AD bc',
                    'MONTH Month month MON Mon mon', 'DAY Day day DY Dy dy RM rm',
                    'FMDD FMMM FMIW FMHH12 FMDay FMMonth', 'YYYY-MM-DD"T"HH24:MI:SS',
                    'IYYY-"W"IW-ID']) WITH ORDINALITY v(k, o),
       LATERAL d18_check(format('SELECT id, to_char(%s, %L) FROM d18 GROUP BY 1, 2', c, k)) ck
  ORDER BY c, o;
SELECT q, ck.* FROM (VALUES
  ('SELECT id FROM d18 WHERE to_char(u, ''YYYY-MM-DD'') = ''2106-02-07'''),
  ('SELECT id FROM d18 WHERE to_char(d, ''IYYY-IW'') LIKE ''%-53'''),
  ('SELECT to_char(w, ''Dy'') AS k, count(*) FROM d18 GROUP BY 1 ORDER BY 1'),
  ('SELECT to_char(d, ''YYYY-MM'') AS k, count(*) FROM d18 WHERE to_char(d, ''YYYY'') >= ''2149'' GROUP BY 1 ORDER BY 1')) v(q), LATERAL d18_check(q) ck;

-- ==== still local: another session zone, expressions
SET timezone = 'Europe/Berlin';
SELECT q, ck.* FROM (VALUES
  ('SELECT id, extract(hour FROM u) FROM d18 GROUP BY 1, 2'),
  ('SELECT id, to_char(u, ''HH24'') FROM d18 GROUP BY 1, 2')) v(q), LATERAL d18_check(q) ck;
SET timezone = 'UTC';
SELECT q, ck.* FROM (VALUES
  ('SELECT id, extract(year FROM u + interval ''1 day'') FROM d18 GROUP BY 1, 2')) v(q), LATERAL d18_check(q) ck;

DROP FUNCTION d18_check(text);
DROP FUNCTION d18_sent(text);
DROP TABLE d18_l;
DROP FOREIGN TABLE d18;
SELECT clickhouse_exec('ch_d18', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.d18');
RESET timezone;
RESET datestyle;
