-- ClickHouse 18.16.1, HTTP FORMAT Native
-- Float64 and Float32 special values: nan, inf, -inf, -0.0, 0.1, 1.5.
SELECT arrayJoin([nan, inf, -inf, -0., 0.1, 1.5]) AS f64, toFloat32(f64) AS f32
FORMAT Native
