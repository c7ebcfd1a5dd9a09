-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- DateTime64(3), DateTime64(6, 'UTC'), DateTime64(9): Int64 ticks since the epoch, may be negative.
-- Rows: 0; 1 tick before the epoch (-1); 2019-01-02 03:04:05.123456789 UTC truncated to p;
--       1900-01-01 00:00:00 (min; -2208988800 s); for DateTime64(9) row 4 is 2262-04-11 23:47:16.854775807 (Int64 max).
SELECT i,
  [toDateTime64(toDecimal64('0', 3), 3), toDateTime64(toDecimal64('-0.001', 3), 3), toDateTime64(toDecimal64('1546398245.123', 3), 3), toDateTime64(toDecimal64('-2208988800', 3), 3), toDateTime64(toDecimal64('1', 3), 3)][i + 1] AS dt64_3,
  [toDateTime64(toDecimal64('0', 6), 6, 'UTC'), toDateTime64(toDecimal64('-0.000001', 6), 6, 'UTC'), toDateTime64(toDecimal64('1546398245.123456', 6), 6, 'UTC'), toDateTime64(toDecimal64('-2208988800', 6), 6, 'UTC'), toDateTime64(toDecimal64('1', 6), 6, 'UTC')][i + 1] AS dt64_6_utc,
  [toDateTime64(toDecimal128('0', 9), 9), toDateTime64(toDecimal128('-0.000000001', 9), 9), toDateTime64(toDecimal128('1546398245.123456789', 9), 9), toDateTime64(toDecimal128('-2208988800', 9), 9), toDateTime64(toDecimal128('9223372036.854775807', 9), 9)][i + 1] AS dt64_9
FROM (SELECT arrayJoin([0, 1, 2, 3, 4]) AS i)
FORMAT Native
