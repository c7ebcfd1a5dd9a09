-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- LowCardinality(String): per-block dictionary with UInt8 indexes.
SELECT toLowCardinality(arrayJoin(['a', 'b', 'a', 'c', 'b'])) AS lc
FORMAT Native
