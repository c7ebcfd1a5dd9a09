-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Date (UInt16 days) and Date32 (Int32 days, may be negative).
-- Date rows:   1970-01-01 (0), 2019-01-02 (17898), 2149-06-06 (65535, max), 1970-01-02 (1).
-- Date32 rows: 1900-01-01 (-25567, min), 2299-12-31 (120529, max), 1969-12-31 (-1), 1970-01-01 (0).
SELECT i,
  [toDate('1970-01-01'), toDate('2019-01-02'), toDate('2149-06-06'), toDate('1970-01-02')][i + 1] AS d,
  [toDate32('1900-01-01'), toDate32('2299-12-31'), toDate32('1969-12-31'), toDate32('1970-01-01')][i + 1] AS d32
FROM (SELECT arrayJoin([0, 1, 2, 3]) AS i)
FORMAT Native
