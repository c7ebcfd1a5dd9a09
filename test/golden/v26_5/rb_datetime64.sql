-- ClickHouse 26.5.1.1 (chDB), FORMAT RowBinary
-- RowBinary DateTime64(3), DateTime64(6, 'UTC'), DateTime64(9): Int64 ticks, rows 0, -1 tick, 2019-01-02 03:04:05.x.
SELECT
  [toDateTime64(toDecimal64('0', 3), 3), toDateTime64(toDecimal64('-0.001', 3), 3), toDateTime64(toDecimal64('1546398245.123', 3), 3)][i + 1] AS dt64_3,
  [toDateTime64(toDecimal64('0', 6), 6, 'UTC'), toDateTime64(toDecimal64('-0.000001', 6), 6, 'UTC'), toDateTime64(toDecimal64('1546398245.123456', 6), 6, 'UTC')][i + 1] AS dt64_6_utc,
  [toDateTime64(toDecimal128('0', 9), 9), toDateTime64(toDecimal128('-0.000000001', 9), 9), toDateTime64(toDecimal128('1546398245.123456789', 9), 9)][i + 1] AS dt64_9
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT RowBinary
