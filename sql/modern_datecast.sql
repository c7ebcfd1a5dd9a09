-- ====================================================================
-- ts::date compared with a date, sent as a range of ts (src/fdw/rewrite.c),
-- on the ClickHouse 26.5 engine (chDB behind test/chdb/front.py, a test
-- harness, not a server): DateTime64(6) from 1900 to 2299. The body, shared
-- with datecast.sql (18.16), is sql/include/datecast.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
\set ts_type 'Nullable(DateTime64(6))'
\set lo 1901
\set hi 2298
\i sql/include/datecast.sql
