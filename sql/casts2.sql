-- ====================================================================
-- Pre-filters of local conditions casting text columns to date or
-- numeric (casts2, src/fdw/prefilter.c), on ClickHouse 18.16 (Date:
-- 1970-01-01 .. 2106-02-07 for the pre-filter's dates). The body, shared
-- with modern_casts2.sql (the 26.5 engine), is sql/include/casts2.sql.
-- Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
\set str_type 'Nullable(String)'
\set lo_year 1970
\set hi_year 2106
\i sql/include/casts2.sql
