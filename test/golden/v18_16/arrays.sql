-- ClickHouse 18.16.1, HTTP FORMAT Native
-- Arrays with empty rows: Array(UInt8), Array(Array(UInt8)), Array(Nullable(UInt8)),
-- Array(String), and a column whose arrays are all empty.
SELECT i,
  [[1, 2], [], [3]][i + 1] AS a_u8,
  CAST(['[[1,2],[3]]', '[]', '[[],[4]]'][i + 1] AS Array(Array(UInt8))) AS a_a_u8,
  [[NULL, 1], [], [NULL]][i + 1] AS a_n_u8,
  [['a', ''], [], ['bc']][i + 1] AS a_s,
  emptyArrayUInt8() AS a_empty
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native
