-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- JSON with output_format_native_write_json_as_string = 1: the type string stays 'JSON'; the data is
-- a UInt64 prefix 1 (object serialization "STRING") followed by an ordinary String column.
SELECT i,
  CAST(['{"a": 1, "b": {"c": "x"}}', '{"a": 2, "d": [1, 2]}', '{}'][i + 1] AS JSON) AS j
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
SETTINGS output_format_native_write_json_as_string = 1
FORMAT Native
