-- ====================================================================
-- HAVING of grouped float sum / avg / variance family queries sent after
-- the overflow guards, and many float aggregates within ClickHouse's
-- max_query_size / max_ast_elements, on ClickHouse 18.16
-- (src/fdw/agg_float.c). The body, shared with modern_floathaving.sql
-- (26.5), is sql/include/floathaving.sql. Live.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_fh FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db', settings 'max_threads=1');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_fh;
\i sql/include/floathaving.sql
DROP SERVER ch_fh CASCADE;
