-- ClickHouse 26.5.1.1 (chDB), FORMAT RowBinary
-- RowBinary Bool, Date, Date32 (negative), DateTime, Enum8, IPv4, IPv6, BFloat16, Float32 nan.
SELECT true AS b, toDate('2019-01-02') AS d, toDate32('1900-01-01') AS d32, toDateTime(1546398245) AS dt,
  CAST('it\'s' AS Enum8('a' = -128, 'it\'s' = 0)) AS e8, toIPv4('192.168.0.1') AS ip4, toIPv6('::1') AS ip6,
  toBFloat16(1.5) AS bf, toFloat32(nan) AS f32
FORMAT RowBinary
