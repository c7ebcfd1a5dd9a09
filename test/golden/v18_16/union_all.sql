-- ClickHouse 18.16.1, HTTP FORMAT Native
-- params: max_threads=1
-- UNION ALL of two one-row selects: two blocks.
SELECT CAST(NULL AS Nullable(Int32)) AS n
UNION ALL
SELECT 7
FORMAT Native
