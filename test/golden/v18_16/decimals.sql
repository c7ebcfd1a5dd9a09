-- ClickHouse 18.16.1, HTTP FORMAT Native
-- Decimal32/64/128, announced as Decimal(P, S): zero, negative, large.
SELECT i,
  [toDecimal32('0', 2), toDecimal32('-1.5', 2), toDecimal32('9999999.99', 2)][i + 1] AS d9,
  [toDecimal64('0', 3), toDecimal64('123.456', 3), toDecimal64('-999999999999999.999', 3)][i + 1] AS d18,
  [toDecimal128('0', 10), toDecimal128('-12345678901234567890.0123456789', 10),
   toDecimal128('99999999999999999999999999.9999999999', 10)][i + 1] AS d38
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native
