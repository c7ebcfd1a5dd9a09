-- ====================================================================
-- ts::date compared with a date, sent as a range of ts (src/fdw/rewrite.c),
-- on ClickHouse 18.16 (DateTime: 1970 .. 2106). The body, shared with
-- modern_datecast.sql (the 26.5 engine), is sql/include/datecast.sql. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
\set ts_type 'Nullable(DateTime)'
\set lo 1971
\set hi 2105
\i sql/include/datecast.sql
