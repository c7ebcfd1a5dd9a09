-- ClickHouse 26.5.1.1 (chDB), FORMAT RowBinary
-- RowBinary LowCardinality: exactly the inner type's encoding (LowCardinality is invisible).
SELECT
  toLowCardinality(['a', 'b', 'a', ''][i + 1]) AS lc,
  CAST(['a', NULL, '', 'b'][i + 1] AS LowCardinality(Nullable(String))) AS lcn
FROM (SELECT arrayJoin([0, 1, 2, 3]) AS i)
FORMAT RowBinary
