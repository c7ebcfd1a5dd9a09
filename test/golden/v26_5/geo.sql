-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Geo aliases: Point = Tuple(Float64, Float64), Ring/LineString = Array(Point),
-- Polygon/MultiLineString = Array(Ring), MultiPolygon = Array(Polygon).
SELECT
  CAST((1.5, -2) AS Point) AS p,
  CAST([(0, 0), (1, 0), (1, 1)] AS Ring) AS r,
  CAST([[(0, 0), (4, 0), (4, 4)], [(1, 1), (2, 1), (2, 2)]] AS Polygon) AS pg,
  CAST([[[(0, 0), (1, 0), (1, 1)]], []] AS MultiPolygon) AS mpg,
  CAST([(0, 0), (3, 4)] AS LineString) AS ls,
  CAST([[(0, 0), (3, 4)], [(5, 5)]] AS MultiLineString) AS mls
FORMAT Native
