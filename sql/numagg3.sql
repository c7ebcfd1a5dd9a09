-- ====================================================================
-- (numagg3) sums of Decimal128 columns declared numeric on ClickHouse
-- 18.16 (no Decimal256): sent in 32-bit limbs that PostgreSQL recombines
-- exactly (the body, shared with modern_numagg3.sql, is
-- sql/include/numagg3.sql). Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_n3 FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_n3;
\i sql/include/numagg3.sql

DROP FUNCTION n3_check(text);
DROP FUNCTION n3_ordered(text);
DROP TABLE n3_l;
DROP FOREIGN TABLE n3;
DROP SERVER ch_n3 CASCADE;
