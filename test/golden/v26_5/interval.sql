-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Interval types: Int64 count, unit only in the type name.
SELECT i,
  [toIntervalDay(5), toIntervalDay(-1)][i + 1] AS iv_day,
  [toIntervalSecond(3600), toIntervalSecond(-3)][i + 1] AS iv_sec,
  [toIntervalMonth(1), toIntervalMonth(13)][i + 1] AS iv_month
FROM (SELECT arrayJoin([0, 1]) AS i)
FORMAT Native
