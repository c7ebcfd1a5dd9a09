-- ====================================================================
-- timestamp (without time zone) columns as grouping keys, DISTINCT
-- outputs, ORDER BY keys and min/max/count(DISTINCT) arguments sent with
-- PostgreSQL's answers (tskey), on ClickHouse 18.16: DateTime columns in
-- Europe/Berlin, America/New_York and UTC, a Date. The body, shared with
-- modern_tskey.sql (the 26.5 engine), is sql/include/tskey.sql. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
\set ts_type 'DateTime(\'Europe/Berlin\')'
\set tx_type 'DateTime(\'UTC\')'
\set tq_type 'Nullable(DateTime)'
\set lo '1970-01-02 00:00:00+00'
\set hi '2106-02-04 12:00:00+00'
\i sql/include/tskey.sql
