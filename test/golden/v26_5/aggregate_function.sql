-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- AggregateFunction states (opaque, no length prefix): sumState(UInt64) = 8 bytes, countState() = VarUInt.
SELECT sumState(toUInt64(number)) AS s, countState() AS c
FROM numbers(5)
FORMAT Native
