-- ====================================================================
-- String functions sent on servers that have them (strfn): lpad, rpad,
-- repeat, initcap, regexp_match, and ClickHouse's own functions in a plain
-- scan's SELECT list, on ClickHouse 18.16, which has no leftPad, repeat or
-- initcap (caps.string_pad, caps.initcap): those stay local here. The body,
-- shared with modern_strfn.sql (the 26.5 engine), is sql/include/strfn.sql.
-- Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_sf FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_sf;
\i sql/include/strfn.sql
DROP FUNCTION show_error(text);
DROP SERVER ch_sf CASCADE;
