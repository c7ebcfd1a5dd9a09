-- ClickHouse 26.5.1.1 (chDB), FORMAT RowBinaryWithNamesAndTypes
-- RowBinaryWithNamesAndTypes: VarUInt column count, names, type names, then RowBinary rows.
SELECT toUInt8(1) AS a, 'x' AS s, CAST(NULL AS Nullable(Int32)) AS n, toDecimal32('-1.5', 2) AS d
FORMAT RowBinaryWithNamesAndTypes
