-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Empty result: the Native output is empty (0 bytes), no header block.
SELECT toUInt8(1) AS a WHERE 0
FORMAT Native
