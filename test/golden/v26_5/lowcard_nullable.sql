-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- LowCardinality(Nullable(String)): dictionary slot 0 = NULL, slot 1 = default, no null map.
SELECT CAST(arrayJoin(['a', NULL, '', 'b']) AS LowCardinality(Nullable(String))) AS lc
FORMAT Native
