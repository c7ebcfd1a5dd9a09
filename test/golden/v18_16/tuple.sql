-- ClickHouse 18.16.1, HTTP FORMAT Native
-- Tuple(UInt8, String): one complete column per element.
SELECT i, [(toUInt8(1), 'x'), (toUInt8(2), '')][i + 1] AS t
FROM (SELECT arrayJoin([0, 1]) AS i)
FORMAT Native
