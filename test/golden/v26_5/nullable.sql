-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Nullable of several types: null map (1 = NULL) then the values with defaults at NULL positions.
SELECT i,
  CAST([1, NULL, -1][i + 1] AS Nullable(Int32)) AS n_i32,
  CAST([NULL, 'abc', ''][i + 1] AS Nullable(String)) AS n_str,
  CAST([1.5, -0.5, NULL][i + 1] AS Nullable(Float64)) AS n_f64,
  CAST(['-1.5', NULL, '2.25'][i + 1] AS Nullable(Decimal(9, 2))) AS n_dec,
  CAST([NULL, '1969-12-31 23:59:59.999', '1970-01-01 00:00:01'][i + 1] AS Nullable(DateTime64(3))) AS n_dt64,
  CAST(['00112233-4455-6677-8899-aabbccddeeff', NULL, NULL][i + 1] AS Nullable(UUID)) AS n_uuid,
  CAST(['ab', NULL, 'c'][i + 1] AS Nullable(FixedString(2))) AS n_fs,
  CAST([NULL, '2019-01-02', '1970-01-01'][i + 1] AS Nullable(Date)) AS n_date
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native
