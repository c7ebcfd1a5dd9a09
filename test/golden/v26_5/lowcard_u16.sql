-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- LowCardinality(String) with 301 dictionary entries ('' + '0'..'299'): UInt16 indexes.
SELECT toLowCardinality(toString(number)) AS lc
FROM numbers(300)
FORMAT Native
