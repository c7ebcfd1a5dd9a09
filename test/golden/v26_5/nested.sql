-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Nested(a UInt8, b String) from a table created with flatten_nested = 0: one column whose type
-- string is Nested(...) and whose bytes are those of Array(Tuple(UInt8, String)).
-- setup: CREATE TABLE nested_t (id UInt8, n Nested(a UInt8, b String)) ENGINE = Memory SETTINGS flatten_nested = 0
-- setup: INSERT INTO nested_t VALUES (1, [(1, 'x'), (2, 'y')]), (2, [])
SELECT id, n FROM nested_t ORDER BY id
FORMAT Native
