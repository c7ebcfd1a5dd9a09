-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- LowCardinality(String) with 65601 dictionary entries ('' + '0'..'65599') in ONE block
-- (max_block_size raised above the default 65409): UInt32 indexes.
SELECT toLowCardinality(toString(number)) AS lc
FROM numbers(65600)
SETTINGS max_block_size = 100000
FORMAT Native
