-- ====================================================================
-- Body of datecast.sql (ClickHouse 18.16) and modern_datecast.sql (the 26.5
-- engine behind test/chdb/front.py, a test harness, not a server):
-- `ts::date op D` / `date(ts) op D` of a timestamptz column, sent as the
-- range of ts it stands for (src/fdw/rewrite.c): ts >= S AND ts < N with
-- S and N D's and D + 1's starts in the session zone, computed when the
-- query starts. Each condition is checked sent (no Filter in EXPLAIN) and
-- its answer compared with a local copy, under zones with DST changes
-- (also one that skips midnight: America/Sao_Paulo until 2019), far east
-- and west ones, for constants, current_date, a generic plan's parameter,
-- NULL, infinities and dates far outside ClickHouse's range; then 300
-- seeded random ones. The caller has set :ch_port, :ch_db, :ts_type (the
-- ClickHouse type of column ts) and :lo / :hi (the years its rows span).
-- ====================================================================
CREATE SERVER ch_dc FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_dc;
SET datestyle = 'ISO, YMD';
SET timezone = 'UTC';
SELECT clickhouse_exec('ch_dc', 'DROP TABLE IF EXISTS ' || :'ch_db' || '.dc1');
SELECT clickhouse_exec('ch_dc', 'CREATE TABLE ' || :'ch_db' || '.dc1 (id Int32, ts ' || :'ts_type' ||
  ') ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE dc1 (id int, ts timestamptz) SERVER ch_dc OPTIONS (table 'dc1');
-- rows: the local midnights of every zone below +- 1 second and +- 1 hour
-- around their DST changes and on ordinary days, the range's ends, NULLs
-- and seeded random instants
SELECT setseed(0.17);
CREATE TABLE dc1_l AS
WITH zones(z) AS (VALUES ('UTC'), ('Europe/Berlin'), ('America/Sao_Paulo'), ('America/New_York'),
                         ('Asia/Kolkata'), ('Pacific/Kiritimati'), ('Pacific/Pago_Pago'), ('Australia/Lord_Howe')),
     days(d) AS (VALUES ('2018-11-04'::date), ('2018-11-03'), ('2019-02-16'), ('2019-02-17'), ('2019-03-31'),
                        ('2019-10-27'), ('2019-03-10'), ('2019-11-03'), ('2020-02-29'), ('2020-03-01'),
                        ('2000-01-01'), ('1999-12-31'), ('2038-01-19')),
     offs(o) AS (VALUES (interval '0'), ('-1 second'), ('1 second'), ('-1 hour'), ('1 hour'),
                        ('-30 minutes'), ('23 hours 59 minutes 59 seconds')),
     pts AS (
       SELECT (d::timestamp AT TIME ZONE z) + o AS ts FROM zones, days, offs
       UNION ALL SELECT make_timestamptz(:lo, 1, 1, 0, 0, 1, 'UTC')
       UNION ALL SELECT make_timestamptz(:hi, 12, 31, 23, 59, 58, 'UTC')
       UNION ALL SELECT make_timestamptz(:lo, 1, 1, 0, 0, 1, 'UTC') + random() * (make_timestamptz(:hi, 12, 31, 0, 0, 0, 'UTC') - make_timestamptz(:lo, 1, 1, 0, 0, 1, 'UTC'))
         FROM generate_series(1, 400)
       UNION ALL SELECT NULL FROM generate_series(1, 3))
SELECT (row_number() OVER ())::int AS id, date_trunc('second', ts) AS ts FROM pts;
INSERT INTO dc1 SELECT * FROM dc1_l;
SELECT count(*), count(ts) FROM dc1;

-- dc_sent(cond): sent (one Foreign Scan without a Filter); dc_diff(cond):
-- the ids the foreign table and the local copy disagree on (none: '')
CREATE FUNCTION dc_sent(cond text) RETURNS bool LANGUAGE plpgsql AS $$
DECLARE l text; r bool := true;
BEGIN
  FOR l IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM dc1 WHERE ' || cond LOOP
    IF l ~ '^\s*Filter:' OR l !~ '^\s*(Foreign Scan|Output|Remote SQL)' THEN r := false; END IF;
  END LOOP;
  RETURN r;
END $$;
CREATE FUNCTION dc_diff(cond text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
  EXECUTE format($f$SELECT coalesce(string_agg(id::text || s, ',' ORDER BY id), '')
    FROM ((SELECT id, '+' s FROM dc1 WHERE %1$s EXCEPT ALL SELECT id, '+' FROM dc1_l WHERE %1$s)
          UNION ALL (SELECT id, '-' FROM dc1_l WHERE %1$s EXCEPT ALL SELECT id, '-' FROM dc1 WHERE %1$s)) x$f$, cond)
    INTO r;
  RETURN r;
END $$;

-- the Remote SQL of each form, and what PostgreSQL computes when the query
-- starts (Remote SQL Sent)
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM dc1 WHERE ts::date = '2019-03-31';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM dc1 WHERE date(ts) <> '2019-03-31';
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM dc1 WHERE ts::date < current_date AND '2000-01-01' <= ts::date;
CREATE FUNCTION dc_sql_sent(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
  FOR l IN EXECUTE 'EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
    IF l ~ 'Remote SQL Sent' THEN RETURN NEXT l; END IF;
  END LOOP;
END $$;
SET timezone = 'Europe/Berlin';
SELECT * FROM dc_sql_sent($$SELECT id FROM dc1 WHERE ts::date = '2019-03-31'$$);
SELECT * FROM dc_sql_sent($$SELECT id FROM dc1 WHERE ts::date >= '0500-01-01' AND ts::date <= 'infinity'$$);
SELECT count(*) FROM dc1 WHERE ts::date = '2019-03-31';
SELECT count(*) FROM dc1_l WHERE ts::date = '2019-03-31';

-- every zone x operator x date (constants, current_date, NULL, infinities,
-- dates outside ClickHouse's and timestamptz's ranges), as a constant and
-- as a generic plan's parameter, both orders of the operands
CREATE FUNCTION dc_matrix() RETURNS TABLE (cases int, sent int, mismatches text)
LANGUAGE plpgsql AS $f$
DECLARE
  z text; op text; v text; cond text; n int := 0; ns int := 0; bad text := ''; d text;
  a bigint; b bigint;
BEGIN
  FOREACH z IN ARRAY ARRAY['UTC', 'Europe/Berlin', 'America/Sao_Paulo', 'America/New_York',
      'Asia/Kolkata', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Australia/Lord_Howe'] LOOP
    EXECUTE format('SET LOCAL timezone = %L', z);
    FOREACH op IN ARRAY ARRAY['=', '<>', '<', '<=', '>', '>='] LOOP
      FOREACH v IN ARRAY ARRAY['''2018-11-04''::date', '''2019-02-16''::date', '''2019-03-31''::date',
          '''2019-10-27''::date', '''2020-02-29''::date', '''1999-12-31''::date', 'current_date',
          'current_date - 10000', 'NULL::date', '''infinity''::date', '''-infinity''::date',
          '''0500-01-01''::date', '''4000-01-01 BC''::date', '''300000-01-01''::date',
          '''5874897-12-31''::date'] LOOP
        FOREACH cond IN ARRAY ARRAY[format('ts::date %s %s', op, v), format('%s %s date(ts)', v, op)] LOOP
          n := n + 1;
          IF dc_sent(cond) THEN ns := ns + 1; END IF;
          d := dc_diff(cond);
          IF d <> '' THEN bad := bad || format('[%s] %s: %s; ', z, cond, d); END IF;
        END LOOP;
        -- a generic plan's parameter
        EXECUTE format('PREPARE dc_q(date) AS SELECT count(*) FROM dc1 WHERE ts::date %s $1', op);
        SET LOCAL plan_cache_mode = force_generic_plan;
        EXECUTE format('EXECUTE dc_q(%s)', v) INTO a;
        DEALLOCATE dc_q;
        EXECUTE format('SELECT count(*) FROM dc1_l WHERE ts::date %s %s', op, v) INTO b;
        n := n + 1;
        IF a <> b THEN bad := bad || format('[%s] param %s %s: %s/%s; ', z, op, v, a, b); END IF;
      END LOOP;
    END LOOP;
  END LOOP;
  RETURN QUERY SELECT n, ns, bad;
END $f$;
SELECT * FROM dc_matrix();

-- a cached plan run under another zone computes its range there
SET timezone = 'UTC';
PREPARE dc_z AS SELECT count(*) FROM dc1 WHERE ts::date = '2019-03-31';
EXECUTE dc_z;
SELECT count(*) FROM dc1_l WHERE ts::date = '2019-03-31';
SET timezone = 'Pacific/Kiritimati';
EXECUTE dc_z;
SELECT count(*) FROM dc1_l WHERE ts::date = '2019-03-31';
DEALLOCATE dc_z;

-- inside OR / NOT / with other conditions, and in a grouped query
SET timezone = 'America/New_York';
SELECT dc_sent(c), dc_diff(c) FROM (VALUES
  ('ts::date = ''2019-03-10'' OR ts::date = ''2019-11-03'''),
  ('NOT (ts::date < ''2019-03-10'')'),
  ('ts::date BETWEEN ''2019-03-10'' AND ''2019-11-03'' AND id % 2 = 0')) v(c);
EXPLAIN (VERBOSE, COSTS OFF) SELECT ts::date IS NULL, count(*) FROM dc1 WHERE ts::date >= '2019-01-01' GROUP BY 1;
SELECT count(*) FROM dc1 WHERE ts::date >= '2019-01-01';
SELECT count(*) FROM dc1_l WHERE ts::date >= '2019-01-01';

-- what stays local: a date from another column, a volatile one, timestamp
-- (without time zone) and date columns' own casts
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM dc1 WHERE ts::date = (ts + interval '1 day')::date;
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM dc1 WHERE ts::date = (now() + random() * interval '1 day')::date;

-- 300 seeded random conditions (zone, operator, constant date near the rows)
SELECT setseed(0.42);
CREATE FUNCTION dc_random() RETURNS TABLE (cases int, sent int, mismatches text)
LANGUAGE plpgsql AS $f$
DECLARE
  zones text[] := ARRAY['UTC', 'Europe/Berlin', 'America/Sao_Paulo', 'America/New_York',
      'Asia/Kolkata', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Australia/Lord_Howe'];
  ops text[] := ARRAY['=', '<>', '<', '<=', '>', '>='];
  i int; cond text; n int := 0; ns int := 0; bad text := ''; d text; dt date;
BEGIN
  FOR i IN 1..300 LOOP
    EXECUTE format('SET LOCAL timezone = %L', zones[1 + floor(random() * 8)::int]);
    SELECT (ts AT TIME ZONE 'UTC')::date + (floor(random() * 3)::int - 1) INTO dt
      FROM dc1_l WHERE ts IS NOT NULL ORDER BY random() LIMIT 1;
    cond := format('ts::date %s %L', ops[1 + floor(random() * 6)::int], dt);
    n := n + 1;
    IF dc_sent(cond) THEN ns := ns + 1; END IF;
    d := dc_diff(cond);
    IF d <> '' THEN bad := bad || format('%s: %s; ', cond, d); END IF;
  END LOOP;
  RETURN QUERY SELECT n, ns, bad;
END $f$;
SELECT * FROM dc_random();

RESET timezone;
DROP FUNCTION dc_random(), dc_matrix(), dc_sent(text), dc_diff(text), dc_sql_sent(text);
DROP TABLE dc1_l;
SELECT clickhouse_exec('ch_dc', 'DROP TABLE ' || :'ch_db' || '.dc1');
DROP SERVER ch_dc CASCADE;
