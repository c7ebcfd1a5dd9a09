-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- DateTime (UInt32 epoch seconds) and DateTime('Asia/Tokyo') (same bytes; zone only in the type name).
-- The Native writer at revision 0 (HTTP, chDB) announces DateTime('Asia/Tokyo') as plain DateTime.
-- (toTimeZone is used on purpose: two constant arrays [toDateTime(0), ...] and
-- [toDateTime(0, 'Asia/Tokyo'), ...] with equal values get merged by the 26.5 analyzer into one
-- column of type DateTime, losing the zone.)
-- Rows: 0, 2019-01-02 03:04:05 UTC (1546398245), 4294967295 (max, 2106-02-07 06:28:15 UTC).
SELECT i,
  [toDateTime(0), toDateTime(1546398245), toDateTime(4294967295)][i + 1] AS dt,
  toTimeZone(dt, 'Asia/Tokyo') AS dt_tokyo
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native
