-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Variant(String, UInt64): discriminator mode prefix (UInt64 0), global discriminators (255 = NULL),
-- then the dense values of each variant in name-sorted order. Column v2 is declared as
-- Variant(UInt64, String) and is announced (and numbered) as Variant(String, UInt64).
SELECT i,
  [CAST('abc' AS Variant(String, UInt64)), CAST(toUInt64(42) AS Variant(String, UInt64)), NULL, CAST('' AS Variant(String, UInt64))][i + 1] AS v,
  [CAST(toUInt64(7) AS Variant(UInt64, String)), NULL, CAST('x' AS Variant(UInt64, String)), CAST(toUInt64(8) AS Variant(UInt64, String))][i + 1] AS v2
FROM (SELECT arrayJoin([0, 1, 2, 3]) AS i)
FORMAT Native
