-- ====================================================================
-- sum, avg and the variance family of numeric columns on ClickHouse
-- 18.16 (the body, shared with modern_numagg.sql, is
-- sql/include/numagg.sql): Decimal32/64 and integers sent, sums of
-- Decimal128 in limbs (numagg3: 18.16 has no Decimal256). Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_na FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_na;
\i sql/include/numagg.sql
DROP SERVER ch_na CASCADE;
