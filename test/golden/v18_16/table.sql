-- ClickHouse 18.16.1, HTTP FORMAT Native
-- params: allow_experimental_low_cardinality_type=1
-- setup: DROP DATABASE IF EXISTS golden
-- setup: CREATE DATABASE golden
-- setup: CREATE TABLE golden.t (id UInt32, name String, price Decimal(9, 2), day Date, tags Array(String), score Nullable(Float64), kind Enum8('x' = 1, 'y' = 2), lc LowCardinality(String), n Nested(a UInt8, b String)) ENGINE = Memory
-- setup: INSERT INTO golden.t VALUES (1, 'one', 1.5, '2019-01-02', ['a', 'b'], NULL, 'x', 'p', [1, 2], ['u', 'v']), (2, '', -0.01, '1970-01-01', [], 2.5, 'y', '', [], []), (3, 'three', 9999999.99, '2105-12-31', ['c'], -0.5, 'x', 'p', [3], ['w'])
-- teardown: DROP DATABASE golden
-- A Memory table of 3 rows; the Nested column arrives flattened as n.a and n.b.
SELECT *
FROM golden.t
ORDER BY id
FORMAT Native
