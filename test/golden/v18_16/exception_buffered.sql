-- ClickHouse 18.16.1, HTTP FORMAT Native
-- params: max_block_size=1000
-- expect-http: 500
-- The same failure before 1 MiB of output: the whole result was still buffered,
-- so the server answers HTTP 500 and the body is only the exception text.
SELECT number, throwIf(number = 100000)
FROM system.numbers
FORMAT Native
