-- ====================================================================
-- Parallel foreign scans (src/fdw/parallel.c): a MergeTree table split
-- into ranges of its first primary-key column, read by the leader and the
-- workers; the same answers as the serial plan. Live (ClickHouse 18.16).
-- The body is shared: sql/include/parallel.sql.
-- ====================================================================
\getenv ch_port CH_HTTP_PORT
\set ch_db regress
CREATE SERVER ch_par FOREIGN DATA WRAPPER clickhouse_fdw
  OPTIONS (port :'ch_port', dbname :'ch_db');
CREATE USER MAPPING FOR CURRENT_USER SERVER ch_par;
SET timezone = 'UTC';
\i sql/include/parallel.sql
DROP SERVER ch_par CASCADE;
