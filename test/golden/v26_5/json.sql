-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- JSON in the default Native serialization. Rows: {"a":1,"b":{"c":"x"}}, {"a":2,"d":[1,2]}, {}.
-- Observed layout (object V1): UInt64 0, VarUInt max_dynamic_paths, VarUInt path count, sorted path
-- names ('a', 'b.c', 'd'), each path's Dynamic prefix (V1, see dynamic.sql); data: each path's Dynamic
-- column, then the shared-data column (Array(Tuple(String, String)): here 3 zero offsets).
SELECT i,
  CAST(['{"a": 1, "b": {"c": "x"}}', '{"a": 2, "d": [1, 2]}', '{}'][i + 1] AS JSON) AS j
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native
