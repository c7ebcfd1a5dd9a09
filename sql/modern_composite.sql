-- ====================================================================
-- Types without a binary mapping (Map, Tuple, JSON, Variant, Dynamic,
-- arrays of tuples) are read as text that ClickHouse produces: the column
-- option read_as 'string' sends toString(col), read_as 'json' sends
-- toJSONString(col) (for jsonb). IMPORT FOREIGN SCHEMA sets it. Modern
-- engine (ClickHouse 26.5 through test/chdb/front.py).
-- ====================================================================
\getenv ch_port CH_MODERN_PORT
CREATE SERVER ch_comp FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname 'regress_modern');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_comp;

-- ==== what IMPORT creates for them
CREATE SCHEMA imp;
IMPORT FOREIGN SCHEMA regress_modern LIMIT TO (composite) FROM SERVER ch_comp INTO imp;
SELECT attname, format_type(atttypid, atttypmod), attfdwoptions
  FROM pg_attribute WHERE attrelid = 'imp.composite'::regclass AND attnum > 0 ORDER BY attnum;
EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM imp.composite;
SELECT * FROM imp.composite ORDER BY id;
-- jsonb values can be used as such
SELECT id, m -> 'a' AS m_a, t ->> 'b' AS t_b, j ->> 's' AS j_s, jsonb_array_length(an) AS n
  FROM imp.composite ORDER BY id;

-- ==== declared by hand
CREATE FOREIGN TABLE comp_text (id int, m text OPTIONS (read_as 'string'),
  t text OPTIONS (read_as 'string'), v text OPTIONS (read_as 'string'))
  SERVER ch_comp OPTIONS (table 'composite');
SELECT * FROM comp_text ORDER BY id;
-- such a column is compared by PostgreSQL, never in ClickHouse
EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM comp_text WHERE v = 'text';
SELECT id FROM comp_text WHERE v = 'text';
-- without the option the column cannot be read
CREATE FOREIGN TABLE comp_raw (id int, m text) SERVER ch_comp OPTIONS (table 'composite');
SELECT * FROM comp_raw;
ALTER FOREIGN TABLE comp_raw ALTER COLUMN m OPTIONS (ADD read_as 'xml');

DROP SERVER ch_comp CASCADE;
DROP SCHEMA imp;
