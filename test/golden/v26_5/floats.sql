-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Float32 and Float64, rows: 0, -0.0, 1.5, -0.1, nan, inf, -inf.
SELECT i,
  [toFloat32(0), toFloat32(-0.), toFloat32(1.5), toFloat32(-0.1), toFloat32(nan), toFloat32(inf), toFloat32(-inf)][i + 1] AS f32,
  [toFloat64(0), toFloat64(-0.), toFloat64(1.5), toFloat64(-0.1), toFloat64(nan), toFloat64(inf), toFloat64(-inf)][i + 1] AS f64
FROM (SELECT arrayJoin([0, 1, 2, 3, 4, 5, 6]) AS i)
FORMAT Native
