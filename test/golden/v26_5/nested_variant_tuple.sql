-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Tuple(i Int32, v Variant(Int32, String)): the Variant prefix (UInt64 discriminators mode) comes
-- before the Int32 data. Refused (CH_ERR_UNSUPPORTED).
SELECT i,
  CAST(tuple(toInt32(i), [CAST(toInt32(5) AS Variant(Int32, String)), CAST('str' AS Variant(Int32, String)), CAST(NULL AS Variant(Int32, String))][i + 1]) AS Tuple(i Int32, v Variant(Int32, String))) AS tv
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native
