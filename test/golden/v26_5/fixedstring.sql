-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- FixedString(3): 'abc', 'a' (zero padded), '' (all zero), 'a\0b', invalid UTF-8.
SELECT i,
  [toFixedString('abc', 3), toFixedString('a', 3), toFixedString('', 3), toFixedString('a\0b', 3), toFixedString('\xFF\xFE\xFD', 3)][i + 1] AS fs
FROM (SELECT arrayJoin([0, 1, 2, 3, 4]) AS i)
FORMAT Native
