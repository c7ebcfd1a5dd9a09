/* sql/clickhouse_fdw--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION clickhouse_fdw UPDATE TO '1.2'" to load this file. \quit

-- The option "host" may name several hosts (README, "Clusters"):
-- clickhouse_fdw_connections shows the hosts its handles use now.
DROP FUNCTION clickhouse_fdw_connections();

CREATE FUNCTION clickhouse_fdw_connections(
    OUT server text, OUT remote_user text, OUT handles int,
    OUT requests bigint, OUT tcp_connects bigint,
    OUT server_version text, OUT response_compression text,
    OUT hosts text)
RETURNS SETOF record
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION clickhouse_fdw_connections()
IS 'this backend''s cached ClickHouse connections: requests sent, TCP connections opened, the hosts in use';
