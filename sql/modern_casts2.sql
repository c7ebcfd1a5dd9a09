-- ====================================================================
-- Pre-filters of local conditions casting text columns to date or
-- numeric (casts2, src/fdw/prefilter.c), on the ClickHouse 26.5 engine
-- (chDB behind test/chdb/front.py, a test harness, not a server): column s
-- LowCardinality(Nullable(String)), the pre-filter's dates in Date32
-- (1900-01-01 .. 2299-12-31). The body, shared with casts2.sql (18.16),
-- is sql/include/casts2.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
\set str_type 'LowCardinality(Nullable(String))'
\set lo_year 1900
\set hi_year 2299
\i sql/include/casts2.sql
