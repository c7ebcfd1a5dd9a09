-- ====================================================================
-- (probes) Plan-time capability probes that never fail planning, and
-- FULL JOINs of LowCardinality columns, on ClickHouse 18.16. The body,
-- shared with modern_probes.sql (the 26.5 engine), is
-- sql/include/probes.sql. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
\set lc_settings 'allow_experimental_low_cardinality_type=1'
\set has_json false
\set json_type String
\set json_t 'concat(''{"a": '', toString(i), ''}'')'
\set json_u '''{}'''
\i sql/include/probes.sql
