-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Bool (1 byte 0/1) and Nullable(Bool): rows true/NULL, false/true, true/false.
SELECT i,
  [true, false, true][i + 1] AS b,
  [CAST(true AS Nullable(Bool)), CAST(NULL AS Nullable(Bool)), CAST(false AS Nullable(Bool))][((i + 1) % 3) + 1] AS nb
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native
