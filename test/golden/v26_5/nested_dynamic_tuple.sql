-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Tuple(i Int32, d Dynamic): the Dynamic prefix (V1, type names, Variant prefix) comes before the
-- Int32 data: a reader that skips it reads those bytes as the Int32 values. Refused (CH_ERR_UNSUPPORTED).
SELECT i,
  CAST(tuple(toInt32(i), [CAST(toInt64(42) AS Dynamic), CAST('d' AS Dynamic), CAST(NULL AS Dynamic)][i + 1]) AS Tuple(i Int32, d Dynamic)) AS td
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native
