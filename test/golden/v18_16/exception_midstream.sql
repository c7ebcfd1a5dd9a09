-- ClickHouse 18.16.1, HTTP FORMAT Native
-- params: max_block_size=1000
-- A server exception after the response started (HTTP 200): 120 complete blocks of
-- 1000 rows, then the text "Code: 395, ...". 18.16 buffers about 1 MiB before
-- sending headers, so the failing row must come after that much output.
SELECT number, throwIf(number = 120000)
FROM system.numbers
FORMAT Native
