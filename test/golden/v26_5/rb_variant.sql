-- ClickHouse 26.5.1.1 (chDB), FORMAT RowBinary
-- RowBinary Variant(String, UInt64): one discriminator byte (255 = NULL) then the value.
SELECT [CAST('abc' AS Variant(String, UInt64)), CAST(toUInt64(42) AS Variant(String, UInt64)), NULL][i + 1] AS v
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT RowBinary
