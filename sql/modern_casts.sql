-- ====================================================================
-- Casts of text columns to smallint/integer/bigint, make_date() and date
-- +/- integer sent with PostgreSQL's answers and errors (casts), on the
-- ClickHouse 26.5 engine (chDB behind test/chdb/front.py, a test harness,
-- not a server): column s LowCardinality(Nullable(String)), dates in
-- Date32 (1900-01-01 .. 2299-12-31). The body, shared with casts.sql
-- (18.16), is sql/include/casts.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
\set str_type 'LowCardinality(Nullable(String))'
\set date_type 'Date32'
\i sql/include/casts.sql
