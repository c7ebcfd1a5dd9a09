-- ClickHouse 18.16.1, HTTP FORMAT Native
-- UUID: two little-endian UInt64 halves.
SELECT toUUID(arrayJoin(['00112233-4455-6677-8899-aabbccddeeff', '00000000-0000-0000-0000-000000000000',
                         '01020304-0506-0708-090a-0b0c0d0e0f10'])) AS u
FORMAT Native
