-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- UInt8..UInt64 and Int8..Int64 at 0 (row 0), the minimum (row 1) and the maximum (row 2).
SELECT i,
  [toUInt8(0), toUInt8(0), toUInt8(255)][i + 1] AS u8,
  [toUInt16(0), toUInt16(0), toUInt16(65535)][i + 1] AS u16,
  [toUInt32(0), toUInt32(0), toUInt32(4294967295)][i + 1] AS u32,
  [toUInt64(0), toUInt64(0), toUInt64('18446744073709551615')][i + 1] AS u64,
  [toInt8(0), toInt8(-128), toInt8(127)][i + 1] AS i8,
  [toInt16(0), toInt16(-32768), toInt16(32767)][i + 1] AS i16,
  [toInt32(0), toInt32(-2147483648), toInt32(2147483647)][i + 1] AS i32,
  [toInt64(0), toInt64('-9223372036854775808'), toInt64('9223372036854775807')][i + 1] AS i64
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native
