-- ====================================================================
-- (lcfix) Grouped, DISTINCT and windowed queries over LowCardinality
-- columns on the ClickHouse 26.5 engine (chDB behind test/chdb/front.py,
-- a test harness, not a server), and aggregates over joins that use no
-- column. The body, shared with lcfix.sql (18.16), is
-- sql/include/lcfix.sql. Live.
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
\set ch_db regress_modern
\set lc_settings 'allow_suspicious_low_cardinality_types=1'
\i sql/include/lcfix.sql
