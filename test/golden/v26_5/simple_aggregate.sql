-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- SimpleAggregateFunction(sum, UInt64) read from an AggregatingMergeTree table (bytes = UInt64).
-- setup: CREATE TABLE simple_agg_t (k UInt8, s SimpleAggregateFunction(sum, UInt64)) ENGINE = AggregatingMergeTree ORDER BY k
-- setup: INSERT INTO simple_agg_t VALUES (1, 10), (2, 7)
-- setup: INSERT INTO simple_agg_t VALUES (1, 5)
SELECT k, s FROM simple_agg_t FINAL ORDER BY k
FORMAT Native
