-- ====================================================================
-- (lcfix) Grouped, DISTINCT and windowed queries over LowCardinality
-- columns on ClickHouse 18.16, and aggregates over joins that use no
-- column. The body, shared with modern_lcfix.sql (the 26.5 engine), is
-- sql/include/lcfix.sql. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
\set lc_settings 'allow_experimental_low_cardinality_type=1'
\i sql/include/lcfix.sql
