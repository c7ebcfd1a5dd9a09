-- ClickHouse 18.16.1, HTTP FORMAT Native
-- params: allow_experimental_low_cardinality_type=1
-- LowCardinality(String): per-block dictionary, slot 0 = default "".
SELECT toLowCardinality(arrayJoin(['a', 'b', 'a', 'c', 'b'])) AS lc
FORMAT Native
