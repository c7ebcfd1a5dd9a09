-- ClickHouse 26.5.1.1 (chDB), FORMAT RowBinary
-- RowBinary Array: VarUInt element count, then the elements.
SELECT
  CAST([[1, 2, 3], [], [255]][i + 1] AS Array(UInt8)) AS a_u8,
  CAST([[['a', 'b'], []], [], [['c']]][i + 1] AS Array(Array(String))) AS a_a_str,
  CAST([[NULL, 1], [], [-1, NULL]][i + 1] AS Array(Nullable(Int32))) AS a_n_i32
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT RowBinary
