-- ClickHouse 18.16.1, HTTP FORMAT Native
-- Enum8/Enum16 with quotes, parentheses, commas and '=' in labels.
SELECT i,
  CAST(['a', 'it\'s', 'q"(,)='][i + 1] AS Enum8('a' = 1, 'it\'s' = -2, 'q"(,)=' = 127)) AS e8,
  CAST(['x', 'y', 'z'][i + 1] AS Enum16('x' = -1000, 'y' = 1000, 'z' = -32768)) AS e16
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native
