-- ====================================================================
-- dates5 on ClickHouse 18.16: the fixed to_char patterns of a timestamptz
-- column over a Date computed from the day number, join conditions over
-- such columns kept local, date_part(text, date) and date_trunc(text,
-- date) of date columns sent. The body, shared with modern_dates5.sql
-- (the 26.5 engine), is sql/include/dates5.sql. Live.
-- ====================================================================
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
\set ch_db regress
CREATE SERVER ch_d5 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_d5;
\i sql/include/dates5.sql
RESET timezone;
RESET datestyle;
DROP SERVER ch_d5 CASCADE;
