-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- UUID: two little-endian UInt64 halves (bytes 0-7 reversed, bytes 8-15 reversed).
SELECT i,
  [toUUID('00112233-4455-6677-8899-aabbccddeeff'), toUUID('00000000-0000-0000-0000-000000000000'), toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0')][i + 1] AS u
FROM (SELECT arrayJoin([0, 1, 2]) AS i)
FORMAT Native
