-- ====================================================================
-- Casts of text columns to smallint/integer/bigint, make_date() and date
-- +/- integer sent with PostgreSQL's answers and errors (casts), on
-- ClickHouse 18.16 (Date up to 2106-02-07 there: no Date32). The body,
-- shared with modern_casts.sql (the 26.5 engine), is sql/include/casts.sql.
-- Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
\set str_type 'Nullable(String)'
\set date_type 'Date'
\i sql/include/casts.sql
