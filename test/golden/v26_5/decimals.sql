-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Decimal(9,2), Decimal(18,3), Decimal(38,10), Decimal(76,20): rows 0, a negative value,
-- the maximum and the minimum (all digits used).
SELECT i,
  [toDecimal32('0', 2), toDecimal32('-1.5', 2), toDecimal32('9999999.99', 2), toDecimal32('-9999999.99', 2)][i + 1] AS d9,
  [toDecimal64('0', 3), toDecimal64('-123.456', 3), toDecimal64('999999999999999.999', 3), toDecimal64('-999999999999999.999', 3)][i + 1] AS d18,
  [toDecimal128('0', 10), toDecimal128('-1.0000000001', 10), toDecimal128('9999999999999999999999999999.9999999999', 10), toDecimal128('-9999999999999999999999999999.9999999999', 10)][i + 1] AS d38,
  [toDecimal256('0', 20), toDecimal256('-0.00000000000000000001', 20), toDecimal256('99999999999999999999999999999999999999999999999999999999.99999999999999999999', 20), toDecimal256('-99999999999999999999999999999999999999999999999999999999.99999999999999999999', 20)][i + 1] AS d76
FROM (SELECT arrayJoin([0, 1, 2, 3]) AS i)
FORMAT Native
