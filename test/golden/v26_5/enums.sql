-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Enum8 / Enum16 with quotes, commas, '=' and parentheses in labels; see how the type string escapes them.
SELECT i,
  CAST([-128, 0, 127][i + 1] AS Enum8('a' = -128, 'it\'s' = 0, 'x,y = (z)' = 127)) AS e8,
  CAST([-32768, 1, 32767][i + 1] AS Enum16('neg' = -32768, 'q"uote\'s\\' = 1, 'max' = 32767)) AS e16
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native
