-- ClickHouse 18.16.1, HTTP FORMAT Native
-- A bare NULL: Nullable(Nothing), null map 01 then the placeholder byte '0'.
SELECT NULL AS n
FORMAT Native
