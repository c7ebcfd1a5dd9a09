-- ====================================================================
-- timestamp, timestamptz and date +/- interval of columns sent with
-- PostgreSQL's answers (interval), on the ClickHouse 26.5 engine (chDB
-- behind test/chdb/front.py, a test harness, not a server): DateTime64(6)
-- columns with microseconds (1900-01-01 .. 2299-12-31 23:59:59.999999 in
-- UTC; in another zone the first and last day raise: README), Date32. The
-- body, shared with interval.sql (18.16), is sql/include/interval.sql.
-- Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
\set ts_type 'DateTime64(6, \'Europe/Berlin\')'
\set tn_type 'DateTime64(6, \'America/New_York\')'
\set t2_type 'DateTime64(6)'
\set tu_type 'DateTime64(6)'
\set d_type 'Date32'
\set lo '1900-01-02 00:00:00+00'
\set hi '2299-12-30 12:00:00+00'
\set tu_lo '1900-01-01 00:00:00+00'
\set tu_hi '2299-12-31 23:59:59.999999+00'
\set d_hi '2299-12-31'
\i sql/include/interval.sql
