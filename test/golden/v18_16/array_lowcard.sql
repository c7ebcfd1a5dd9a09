-- ClickHouse 18.16.1, HTTP FORMAT Native
-- params: allow_experimental_low_cardinality_type=1
-- Array(LowCardinality(String)): the LowCardinality version prefix comes before the offsets.
SELECT i, CAST([['a', 'b', 'a'], [], ['c']][i + 1] AS Array(LowCardinality(String))) AS alc
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native
