-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Time (Int32 seconds) and Time64(3) (Int64 milliseconds), negative values allowed.
-- Rows: 12:34:56(.789), -01:02:03(.004), 999:59:59(.999) (max), 0.
SELECT i,
  [CAST('12:34:56' AS Time), CAST('-01:02:03' AS Time), CAST('999:59:59' AS Time), CAST('00:00:00' AS Time)][i + 1] AS t,
  [CAST('12:34:56.789' AS Time64(3)), CAST('-01:02:03.004' AS Time64(3)), CAST('999:59:59.999' AS Time64(3)), CAST('00:00:00' AS Time64(3))][i + 1] AS t64
FROM (SELECT arrayJoin([0, 1, 2, 3]) AS i)
FORMAT Native
