-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- BFloat16 (upper 16 bits of the Float32 pattern), rows: 0, -0.0, 1.5, -0.1, 3.14, nan, inf, -inf.
-- Note: the engine TRUNCATES the Float32 pattern (3.14 -> 3.125, -0.1 -> -0.099609375), it does not round.
SELECT i,
  [toBFloat16(0), toBFloat16(-0.), toBFloat16(1.5), toBFloat16(-0.1), toBFloat16(3.14), toBFloat16(nan), toBFloat16(inf), toBFloat16(-inf)][i + 1] AS bf
FROM (SELECT arrayJoin([0, 1, 2, 3, 4, 5, 6, 7]) AS i)
FORMAT Native
