-- ClickHouse 26.5.1.1 (chDB), FORMAT RowBinary
-- RowBinary Nullable: 00 + value, or 01 alone for NULL. Nullable(Nothing) is always 01.
SELECT
  [CAST(1 AS Nullable(Int32)), NULL, -1][i + 1] AS n_i32,
  [NULL, CAST('abc' AS Nullable(String)), ''][i + 1] AS n_str,
  NULL AS n
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT RowBinary
