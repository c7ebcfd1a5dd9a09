-- ClickHouse 18.16.1, HTTP FORMAT Native
-- params: max_block_size=65536
-- 200000 rows in several blocks (65536, 65536, 65536, 3392).
SELECT number
FROM system.numbers
LIMIT 200000
FORMAT Native
