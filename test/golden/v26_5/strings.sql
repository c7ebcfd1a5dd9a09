-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- String rows: empty, quotes, an embedded NUL byte, invalid UTF-8 (ff fe), UTF-8 text,
-- and a 200-byte value (2-byte VarUInt length c8 01).
SELECT i,
  ['', 'it''s "quoted" \\ back', 'a\0b', '\xFF\xFE', 'héllo ✓', repeat('x', 200)][i + 1] AS s
FROM (SELECT arrayJoin([0, 1, 2, 3, 4, 5]) AS i)
FORMAT Native
