-- ClickHouse 18.16.1, HTTP FORMAT Native
-- DateTime with a time zone: over HTTP (revision 0) the type is announced as plain DateTime.
SELECT toDateTime('2019-01-02 03:04:05', 'Europe/Moscow') AS dtz,
       toDateTime('2019-01-02 03:04:05', 'UTC') AS dtu,
       toTypeName(dtz) AS tn
FORMAT Native
