-- ClickHouse 26.5.1.1 (chDB), FORMAT RowBinary
-- RowBinary Decimal(9,2), (18,3), (38,10), (76,20): rows a negative value and the maximum.
SELECT
  [toDecimal32('-1.5', 2), toDecimal32('9999999.99', 2)][i + 1] AS d9,
  [toDecimal64('-123.456', 3), toDecimal64('999999999999999.999', 3)][i + 1] AS d18,
  [toDecimal128('-1.0000000001', 10), toDecimal128('9999999999999999999999999999.9999999999', 10)][i + 1] AS d38,
  [toDecimal256('-0.00000000000000000001', 20), toDecimal256('99999999999999999999999999999999999999999999999999999999.99999999999999999999', 20)][i + 1] AS d76
FROM (SELECT arrayJoin([0, 1]) AS i)
FORMAT RowBinary
