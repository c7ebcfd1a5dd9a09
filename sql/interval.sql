-- ====================================================================
-- timestamp, timestamptz and date +/- interval of columns sent with
-- PostgreSQL's answers (interval), on ClickHouse 18.16: DateTime columns
-- (1970-01-01 .. 2106-02-07 06:28:15; the timestamp columns' parts end
-- inside 2106-02-05, where they raise: README), Date. The body, shared
-- with modern_interval.sql (the 26.5 engine), is sql/include/interval.sql.
-- Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
\set ts_type 'DateTime(\'Europe/Berlin\')'
\set tn_type 'DateTime(\'America/New_York\')'
\set t2_type 'DateTime'
\set tu_type 'DateTime'
\set d_type 'Date'
\set lo '1970-01-02 00:00:00+00'
\set hi '2106-02-04 12:00:00+00'
\set tu_lo '1970-01-01 00:00:00+00'
\set tu_hi '2106-02-07 06:28:15+00'
\set d_hi '2149-06-06'
\i sql/include/interval.sql
