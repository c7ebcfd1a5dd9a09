-- ====================================================================
-- Writing the types a CDC source holds into ClickHouse 18.16: composite
-- values into Tuple, arrays of every element type and dimension. 18.16 has
-- no Map, JSON or Time type: time is written into a String column as its
-- text, jsonb into a String column as its JSON text. Live. The body, shared
-- with modern_write_types.sql (the 26.5 engine), is
-- sql/include/write_types.sql.
-- ====================================================================
-- the transport and its port: http and CH_HTTP_PORT (make installcheck) or
-- native and CH_TCP_PORT (make installcheck-native); the same expected output
\getenv ch_transport CH_TEST_TRANSPORT
\getenv ch_port CH_TEST_PORT
\set ch_db regress
CREATE SERVER ch_wt FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (transport :'ch_transport', port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_wt;
\i sql/include/write_types.sql

-- ==== time and jsonb where 18.16 has no type for them: String, as their text
SELECT clickhouse_exec('ch_wt', 'DROP TABLE IF EXISTS regress.wt_text');
SELECT clickhouse_exec('ch_wt', 'CREATE TABLE regress.wt_text (id Int32, tm String, j String, n UInt32) ENGINE = MergeTree ORDER BY id');
CREATE FOREIGN TABLE wt_text (id int, tm time, j jsonb, n time) SERVER ch_wt OPTIONS (table 'wt_text');
INSERT INTO wt_text (id, tm, j) VALUES (1, '00:00', '{}'), (2, '23:59:59.999999', '{"b": [1, {"c": null}], "a": "x"}'),
  (3, '24:00', '"s"');
SELECT * FROM wt_rows('wt_text');
-- time into an integer column (seconds?) is not a conversion ClickHouse documents: refused
INSERT INTO wt_text (id, n) VALUES (4, '00:00:01');
DROP SERVER ch_wt CASCADE;
