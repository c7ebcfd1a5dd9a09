-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- Nothing: SELECT NULL is Nullable(Nothing) (null map + one placeholder byte per row);
-- [] is Array(Nothing); tuple() is Tuple(). Two rows.
SELECT number AS i, NULL AS n, [] AS ea, tuple() AS t0
FROM numbers(2)
FORMAT Native
