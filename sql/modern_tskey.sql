-- ====================================================================
-- timestamp (without time zone) columns as grouping keys, DISTINCT
-- outputs, ORDER BY keys and min/max/count(DISTINCT) arguments sent with
-- PostgreSQL's answers (tskey), on the ClickHouse 26.5 engine (chDB behind
-- test/chdb/front.py, a test harness, not a server): a DateTime64(6) in
-- Europe/Berlin with microseconds from 1900 to 2299, DateTime columns, a
-- Date and a Date32. The body, shared with tskey.sql (18.16), is
-- sql/include/tskey.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
\set ts_type 'DateTime64(6, \'Europe/Berlin\')'
\set tx_type 'Date32'
\set tq_type 'Nullable(DateTime64(3))'
\set lo '1970-01-02 00:00:00+00'
\set hi '2106-02-04 12:00:00+00'
\i sql/include/tskey.sql
