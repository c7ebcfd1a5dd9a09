-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- JSON with output_format_native_use_flattened_dynamic_and_json_serialization = 1 (FLATTENED layout):
-- UInt64 3, VarUInt path count, sorted path names, each path's FLATTENED Dynamic prefix (its own
-- UInt64 3, type count, type names), then each path's Dynamic data; no shared-data column.
SELECT i,
  CAST(['{"a": 1, "b": {"c": "x"}}', '{"a": 2, "d": [1, 2]}', '{}'][i + 1] AS JSON) AS j
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
SETTINGS output_format_native_use_flattened_dynamic_and_json_serialization = 1
FORMAT Native
