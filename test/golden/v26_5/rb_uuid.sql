-- ClickHouse 26.5.1.1 (chDB), FORMAT RowBinary
-- RowBinary UUID: same half-swapped 16 bytes as Native.
SELECT [toUUID('00112233-4455-6677-8899-aabbccddeeff'), toUUID('00000000-0000-0000-0000-000000000000')][i + 1] AS u
FROM (SELECT arrayJoin([0, 1]) AS i)
FORMAT RowBinary
