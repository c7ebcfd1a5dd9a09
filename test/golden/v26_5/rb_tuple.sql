-- ClickHouse 26.5.1.1 (chDB), FORMAT RowBinary
-- RowBinary Tuple: elements in order, no framing; named tuples identical.
SELECT
  CAST([(1, 'x'), (2, '')][i + 1] AS Tuple(UInt8, String)) AS t,
  CAST([(3, 'y'), (4, 'zz')][i + 1] AS Tuple(a UInt8, b String)) AS nt
FROM (SELECT arrayJoin([0, 1]) AS i)
FORMAT RowBinary
