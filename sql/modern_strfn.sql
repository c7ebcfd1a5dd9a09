-- ====================================================================
-- String functions sent on servers that have them (strfn) on the
-- ClickHouse 26.5 engine (chDB behind test/chdb/front.py, a test harness,
-- not a server): lpad, rpad, repeat, initcap, regexp_match, and
-- ClickHouse's own functions in a plain scan's SELECT list. The body,
-- shared with strfn.sql (18.16), is sql/include/strfn.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
CREATE SERVER ch_sf FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_sf;
\i sql/include/strfn.sql
DROP SERVER ch_sf CASCADE;
