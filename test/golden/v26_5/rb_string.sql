-- ClickHouse 26.5.1.1 (chDB), FORMAT RowBinary
-- RowBinary String (VarUInt length + bytes) and FixedString(3) (3 bytes).
SELECT
  ['', 'it''s "quoted"', 'a\0b', '\xFF\xFE', repeat('x', 200)][i + 1] AS s,
  [toFixedString('abc', 3), toFixedString('a', 3), toFixedString('', 3), toFixedString('a\0b', 3), toFixedString('xyz', 3)][i + 1] AS fs
FROM (SELECT arrayJoin([0, 1, 2, 3, 4]) AS i)
FORMAT RowBinary
