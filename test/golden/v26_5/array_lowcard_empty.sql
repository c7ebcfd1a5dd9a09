-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Array(LowCardinality(String)) whose rows are all empty: the LowCardinality version prefix is
-- still written but its data part (flags, dictionary, keys) is omitted.
SELECT CAST([] AS Array(LowCardinality(String))) AS a_lc
FROM numbers(2)
FORMAT Native
