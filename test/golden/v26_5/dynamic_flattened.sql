-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Dynamic with output_format_native_use_flattened_dynamic_and_json_serialization = 1 (FLATTENED layout):
-- UInt64 3, VarUInt type count, sorted type names, (type prefixes), one UInt8 discriminator per row
-- (NULL = type count, 4 here; no SharedVariant), then each type's dense values.
SELECT i,
  [CAST(toInt64(42) AS Dynamic), CAST('str' AS Dynamic), CAST(NULL AS Dynamic), CAST([toInt64(1), 2] AS Dynamic), CAST(toFloat64(3.5) AS Dynamic)][i + 1] AS d
FROM (SELECT arrayJoin([0, 1, 2, 3, 4]) AS i)
SETTINGS output_format_native_use_flattened_dynamic_and_json_serialization = 1
FORMAT Native
