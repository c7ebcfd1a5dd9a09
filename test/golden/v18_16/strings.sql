-- ClickHouse 18.16.1, HTTP FORMAT Native
-- Strings: empty, quotes, backslash, tab/newline, embedded NUL, invalid UTF-8,
-- and a 300-byte value (2-byte VarUInt length). len is length(s) in bytes.
SELECT arrayJoin(['', 'it\'s "quoted"', 'back\\slash', 'tab\there\nnewline', '\x41\0Z', '\xff\xfe',
                  arrayStringConcat(arrayMap(x -> 'x', range(300)))]) AS s,
       length(s) AS len
FORMAT Native
