-- ClickHouse 18.16.1, HTTP FORMAT Native
-- FixedString(3): shorter values are right-padded with NUL bytes.
SELECT toFixedString(arrayJoin(['xy', 'abc', '', 'a\0']), 3) AS fs
FORMAT Native
