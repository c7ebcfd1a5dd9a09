-- ====================================================================
-- Date parts, date_trunc and to_char of timestamptz and date columns on
-- ClickHouse 18.16 (dates18), computed from the epoch: toUInt32 of a
-- DateTime, toUInt16 of a Date, by the Gregorian calendar's integer
-- arithmetic, where 18.16's toYear() .. toSecond() end inside 2106-02-06
-- and answer 1970 for Dates from 2106-02-08 on. The body, shared with
-- modern_dates18.sql (the 26.5 engine), is sql/include/dates18.sql. Live.
-- ====================================================================
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
\set ch_db regress
CREATE SERVER ch_d18 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_d18;
\i sql/include/dates18.sql
DROP SERVER ch_d18 CASCADE;
