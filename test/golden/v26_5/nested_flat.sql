-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- The same Nested column with the default flatten_nested = 1: two columns n.a Array(UInt8), n.b Array(String).
-- setup: CREATE TABLE nested_flat_t (id UInt8, n Nested(a UInt8, b String)) ENGINE = Memory
-- setup: INSERT INTO nested_flat_t VALUES (1, [1, 2], ['x', 'y']), (2, [], [])
SELECT * FROM nested_flat_t ORDER BY id
FORMAT Native
