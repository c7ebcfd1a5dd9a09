-- ClickHouse 18.16.1, HTTP FORMAT Native
-- Date and DateTime: epoch 0 (row 0), the maxima (row 1: Date '2105-12-31',
-- DateTime 4294967295), 2019-01-02 03:04:05 UTC (row 2), raw Date 65535 and DateTime 1 (row 3).
SELECT i,
  [toDate(0), toDate('2105-12-31'), toDate('2019-01-02'), toDate(65535)][i + 1] AS d,
  [toDateTime(0), toDateTime(4294967295), toDateTime('2019-01-02 03:04:05', 'UTC'), toDateTime(1)][i + 1] AS dt
FROM (SELECT arrayJoin([0, 1, 2, 3]) AS i)
FORMAT Native
