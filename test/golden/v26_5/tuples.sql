-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Tuple(UInt8, String), named Tuple(a UInt8, b String), and a tuple holding a LowCardinality
-- (its version prefix comes before the tuple's element streams).
SELECT i,
  CAST([(1, 'x'), (2, '')][i + 1] AS Tuple(UInt8, String)) AS t,
  CAST([(3, 'y'), (4, 'zz')][i + 1] AS Tuple(a UInt8, b String)) AS nt,
  CAST([(5, 'p'), (6, 'q')][i + 1] AS Tuple(UInt8, LowCardinality(String))) AS t_lc
FROM (SELECT arrayJoin([0, 1]) AS i)
FORMAT Native
