-- ClickHouse 18.16.1, HTTP FORMAT Native
-- params: allow_experimental_low_cardinality_type=1
-- LowCardinality(String) with more than 256 dictionary entries: UInt16 keys (flags 0x601).
SELECT toLowCardinality(toString(number)) AS lc
FROM system.numbers
LIMIT 300
FORMAT Native
