-- ====================================================================
-- GROUP BY expressions, the HAVING split and partition-wise aggregation on
-- ClickHouse 18.16; the body, shared with modern_groupby.sql, is
-- sql/include/groupby.sql. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_gb FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE SERVER ch_gb2 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_gb;
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_gb2;
\i sql/include/groupby.sql
-- the end of DateTime's range on 18.16: its date parts are wrong in the last
-- days (toYear of 2106-02-07 06:28:15 is 1970 there), so a date part of a
-- timestamp column over those two days raises (22008) instead of
-- answering wrong (regress.dates holds 2106-02-07 06:28:15 in row 3)
SET timezone = 'America/New_York';
CREATE FOREIGN TABLE gb_end (id int, dt timestamp, dtz timestamp) SERVER ch_gb OPTIONS (table 'dates');
SELECT id, dt, dtz, extract(year FROM dt) AS y, extract(hour FROM dtz) AS h FROM gb_end ORDER BY id;
DO $$
BEGIN
  PERFORM id FROM gb_end WHERE extract(year FROM dt) = 2106;
  RAISE NOTICE 'no error';
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE '% %', SQLSTATE, left(SQLERRM, 42);
END $$;
-- timestamptz too (date parts in the session's zone, UTC): 18.16 said
-- 2106-02-07 06:28:15 is in 1970, so this found rows 1 and 3; then it
-- raised 22008; now (dates18) the parts come from the epoch on 18.16 and
-- it finds PostgreSQL's row 1
SET timezone = 'UTC';
CREATE FOREIGN TABLE gb_endz (id int, dt timestamptz) SERVER ch_gb OPTIONS (table 'dates');
DO $$
DECLARE
  ids int[];
BEGIN
  SELECT array_agg(id ORDER BY id) INTO ids FROM gb_endz WHERE extract(year FROM dt) < 2000;
  RAISE NOTICE 'rows %', ids;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE '% %', SQLSTATE, left(SQLERRM, 42);
END $$;
SELECT array_agg(id ORDER BY id) FROM gb_endz WHERE id < 3 AND extract(year FROM dt) < 2000;
SET timezone = 'America/New_York';
-- the rows before those days are answered
SELECT id, extract(year FROM dt), extract(week FROM dtz) FROM gb_end WHERE id < 3 AND extract(hour FROM dtz) >= 0 ORDER BY id;
-- a timestamp column over a ClickHouse Date (its midnight): the parts of
-- that midnight; from 2106-02-05 on they raise on 18.16 (row 3: 2149-06-06)
CREATE FOREIGN TABLE gb_bad (id int, d timestamp) SERVER ch_gb OPTIONS (table 'dates');
SELECT id, extract(year FROM d), extract(hour FROM d), extract(week FROM d) FROM gb_bad ORDER BY id;
SELECT id FROM gb_bad WHERE id < 3 AND extract(hour FROM d) = 0 AND extract(year FROM d) > 2000;
DO $$
BEGIN
  PERFORM id FROM gb_bad WHERE extract(year FROM d) > 2000;
  RAISE NOTICE 'no error';
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE '% %', SQLSTATE, left(SQLERRM, 42);
END $$;
-- a timestamp column over a String: refused when the query starts
CREATE FOREIGN TABLE gb_str (id int, s timestamp) SERVER ch_gb OPTIONS (table 'strings');
SELECT id FROM gb_str WHERE extract(hour FROM s) = 0;
RESET timezone;
DROP SERVER ch_gb CASCADE;
DROP SERVER ch_gb2 CASCADE;
