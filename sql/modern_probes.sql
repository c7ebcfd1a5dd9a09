-- ====================================================================
-- (probes) Plan-time capability probes that never fail planning, and
-- FULL JOINs of LowCardinality columns, on the ClickHouse 26.5 engine
-- (chDB behind test/chdb/front.py, a test harness, not a server). The
-- body, shared with probes.sql (18.16), is sql/include/probes.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
\set lc_settings 'allow_suspicious_low_cardinality_types=1'
\set has_json true
\set json_type 'Map(String, Int64)'
\set json_t 'if(i % 3 = 0, map(''a'', toInt64(i)), map(''b'', toInt64(1)))'
\set json_u 'map(''c'', toInt64(i))'
\i sql/include/probes.sql
