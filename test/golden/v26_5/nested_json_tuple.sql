-- ClickHouse 26.5.1.1 (chDB), FORMAT Native
-- JSON nested in a Tuple, from a MergeTree table (what a composite type over the Tuple reads).
-- The JSON prefix (object V1: UInt64 0, max dynamic paths, path names, each path's Dynamic
-- prefix) comes in the Tuple's prefix section, before the Map's offsets: a reader that skips
-- it reads those bytes as the offsets. The reader refuses the column (CH_ERR_UNSUPPORTED).
-- setup: CREATE TABLE gold_nested_json (id Int32, tm Tuple(m Map(String, Int32), j JSON, tm Time64(3))) ENGINE = MergeTree ORDER BY id
-- setup: INSERT INTO gold_nested_json VALUES (1, (map('a', 1), '{"x": 1}', '01:02:03.456')), (2, (map('b', 2, 'c', 3), '{"x": 2, "w": "t"}', '23:59:59.999')), (3, (map(), '{}', '00:00:00'))
SELECT id, tm FROM gold_nested_json ORDER BY id
FORMAT Native
