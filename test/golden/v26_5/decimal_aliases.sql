-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Decimal32/64/128/256(S) as declared types: the engine announces them as Decimal(P, S).
-- Also precisions just above each width threshold (widths 4/8/16/32 bytes by P <= 9/18/38/76).
SELECT
  CAST('-1.5' AS Decimal32(3)) AS d32,
  CAST('-1.5' AS Decimal64(3)) AS d64,
  CAST('-1.5' AS Decimal128(3)) AS d128,
  CAST('-1.5' AS Decimal256(3)) AS d256,
  CAST('-1.5' AS Decimal(1, 0)) AS p1,
  CAST('-1.5' AS Decimal(10, 2)) AS p10,
  CAST('-1.5' AS Decimal(19, 2)) AS p19,
  CAST('-1.5' AS Decimal(39, 2)) AS p39
FORMAT Native
