/* sql/clickhouse_fdw--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION clickhouse_fdw" to load this file. \quit

CREATE FUNCTION clickhouse_fdw_handler()
RETURNS fdw_handler
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT;

CREATE FUNCTION clickhouse_fdw_validator(text[], oid)
RETURNS void
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT;

CREATE FOREIGN DATA WRAPPER clickhouse_fdw
  HANDLER clickhouse_fdw_handler
  VALIDATOR clickhouse_fdw_validator;

CREATE FUNCTION clickhouse_fdw_version()
RETURNS text
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT STABLE;

COMMENT ON FUNCTION clickhouse_fdw_version()
IS 'versions of clickhouse_fdw and of the libraries it is linked with';

CREATE FUNCTION clickhouse_raw_query(server name, sql text)
RETURNS text
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION clickhouse_raw_query(name, text)
IS 'run a query on a ClickHouse server as the current user; the result as TabSeparated text';

CREATE FUNCTION clickhouse_exec(server name, sql text)
RETURNS void
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION clickhouse_exec(name, text)
IS 'run a statement (DDL, ...) on a ClickHouse server as the current user';

CREATE FUNCTION clickhouse_fdw_connections(
    OUT server text, OUT remote_user text, OUT handles int,
    OUT requests bigint, OUT tcp_connects bigint,
    OUT server_version text, OUT response_compression text)
RETURNS SETOF record
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION clickhouse_fdw_connections()
IS 'this backend''s cached ClickHouse connections: requests sent and TCP connections opened';
