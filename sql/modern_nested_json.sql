-- ====================================================================
-- JSON, Dynamic and Variant nested in a Tuple, Map or Array, read in
-- Native format (a composite type over the Tuple, or a column without
-- read_as). These types write serialization prefixes (versions, dynamic
-- paths, discriminator modes) that the Native reader does not decode: it
-- refuses the column with an error naming the nested type, before reading
-- any of its data (it used to skip the prefix and then read its bytes as an
-- array length). Modern engine (ClickHouse 26.5 through test/chdb/front.py).
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
CREATE SERVER ch_nj FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress_modern');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_nj;
-- no DETAIL: it holds a query id that changes on every run
\set VERBOSITY terse

SELECT clickhouse_exec('ch_nj', 'CREATE TABLE regress_modern.nj (id Int32, tm Tuple(m Map(String, Int32), j JSON, tm Time64(3)), mj Map(String, JSON), aj Array(JSON), td Tuple(d Dynamic, i Int32), tv Tuple(v Variant(Int32, String), i Int32)) ENGINE = MergeTree ORDER BY id');
SELECT clickhouse_exec('ch_nj', $$INSERT INTO regress_modern.nj VALUES (1, (map('a', 1), '{"x": 1}', '01:02:03.456'), map('k', '{"y": "s"}'), ['{"z": [1, 2]}'], (42::Int64, 7), ('str', 8)), (2, (map('b', 2, 'c', 3), '{"x": 2, "w": "t"}', '23:59:59.999'), map(), [], ('d', 9), (5, 10)), (3, (map(), '{}', '00:00:00'), map('p', '{}', 'q', '{"r": null}'), ['{}', '{"z": 3}'], (NULL, 11), (NULL, 12))$$);

-- the composite over Tuple(m Map(String, Int32), j JSON, tm Time64(3))
CREATE TYPE nj_mjt AS (m jsonb, j jsonb, tm time);
CREATE FOREIGN TABLE nj_tm (id int, tm nj_mjt) SERVER ch_nj OPTIONS (table 'nj');
SELECT * FROM nj_tm;
-- what the error asks for: read_as 'json' (toJSONString) or 'string' (toString)
CREATE FOREIGN TABLE nj_json (id int, tm jsonb OPTIONS (read_as 'json'),
  mj jsonb OPTIONS (read_as 'json'), aj jsonb OPTIONS (read_as 'json'),
  td text OPTIONS (read_as 'string'), tv text OPTIONS (read_as 'string'))
  SERVER ch_nj OPTIONS (table 'nj');
SELECT * FROM nj_json ORDER BY id;

-- Map(String, JSON), Array(JSON), Tuple(Dynamic), Tuple(Variant) without read_as
CREATE FOREIGN TABLE nj_mj (id int, mj jsonb) SERVER ch_nj OPTIONS (table 'nj');
SELECT * FROM nj_mj;
CREATE FOREIGN TABLE nj_aj (id int, aj jsonb[]) SERVER ch_nj OPTIONS (table 'nj');
SELECT * FROM nj_aj;
CREATE TYPE nj_di AS (d text, i int);
CREATE FOREIGN TABLE nj_td (id int, td nj_di, tv nj_di) SERVER ch_nj OPTIONS (table 'nj');
SELECT id, td FROM nj_td;
SELECT id, tv FROM nj_td;

SELECT clickhouse_exec('ch_nj', 'DROP TABLE regress_modern.nj');
DROP SERVER ch_nj CASCADE;
DROP TYPE nj_mjt, nj_di;
\set VERBOSITY default
