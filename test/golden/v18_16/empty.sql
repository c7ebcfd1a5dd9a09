-- ClickHouse 18.16.1, HTTP FORMAT Native
-- An empty result: the body is empty (no header block over HTTP).
SELECT number
FROM system.numbers
LIMIT 0
FORMAT Native
