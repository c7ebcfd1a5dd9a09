-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Map(String, UInt64) and Map(String, Array(Nullable(String))): offsets, then all keys, then all values.
SELECT i,
  CAST([map('a', 1, 'b', 2), map(), map('c', 3)][i + 1] AS Map(String, UInt64)) AS m,
  CAST([map('k', ['v', NULL]), map(), map('e', [])][i + 1] AS Map(String, Array(Nullable(String)))) AS m_arr
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native
