-- ClickHouse 18.16.1, HTTP FORMAT Native
-- Nullable of Int32, UInt8, String and Date with NULLs in various rows.
SELECT i,
  [NULL, toInt32(7), NULL, toInt32(-1)][i + 1] AS ni32,
  [toUInt8(1), NULL, NULL, toUInt8(255)][i + 1] AS nu8,
  [NULL, 'abc', '', NULL][i + 1] AS ns,
  [toDate('2019-01-02'), NULL, toDate(0), NULL][i + 1] AS nd
FROM (SELECT arrayJoin([0, 1, 2, 3]) AS i)
FORMAT Native
