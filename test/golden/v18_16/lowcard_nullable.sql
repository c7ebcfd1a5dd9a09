-- ClickHouse 18.16.1, HTTP FORMAT Native
-- params: allow_experimental_low_cardinality_type=1
-- LowCardinality(Nullable(String)): slot 0 = NULL, slot 1 = default "".
SELECT CAST(arrayJoin(['a', NULL, '', 'b']) AS LowCardinality(Nullable(String))) AS lc
FORMAT Native
