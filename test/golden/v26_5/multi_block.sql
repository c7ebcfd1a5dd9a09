-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- 3000 rows in blocks of 1000 (three consecutive Native blocks).
SELECT toUInt16(number) AS n
FROM numbers(3000)
SETTINGS max_block_size = 1000
FORMAT Native
