-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Dynamic in the default Native serialization. Rows: Int64 42, String 'str', NULL, Array(Int64) [1, 2], Float64 3.5.
-- Observed layout (structure V1): UInt64 1, VarUInt max_dynamic_types (4 here), VarUInt type count (4),
-- the type names sorted, then the inner Variant's prefix (UInt64 0 = basic discriminators); data:
-- one UInt8 discriminator per row over the sorted types PLUS 'SharedVariant' (here Array(Int64)=0,
-- Float64=1, Int64=2, SharedVariant=3, String=4; 255 = NULL), then each type's dense values in that order.
SELECT i,
  [CAST(toInt64(42) AS Dynamic), CAST('str' AS Dynamic), CAST(NULL AS Dynamic), CAST([toInt64(1), 2] AS Dynamic), CAST(toFloat64(3.5) AS Dynamic)][i + 1] AS d
FROM (SELECT arrayJoin([0, 1, 2, 3, 4]) AS i)
FORMAT Native
