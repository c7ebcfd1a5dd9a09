/* sql/clickhouse_fdw--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION clickhouse_fdw UPDATE TO '1.1'" to load this file. \quit

-- clickhouse_raw_query and clickhouse_exec run any SQL as the caller's user
-- mapping, DDL included: like dblink_exec, they are not for everyone. A
-- superuser grants them to the roles that need them (README, "Security").
REVOKE EXECUTE ON FUNCTION clickhouse_raw_query(name, text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION clickhouse_exec(name, text) FROM PUBLIC;

-- What the FDW sent to and received from ClickHouse, per foreign server and
-- host: this backend's work, or every backend's when the library is in
-- shared_preload_libraries (column scope). No user name or password.
CREATE FUNCTION clickhouse_fdw_stats(
    OUT server text, OUT host text, OUT scope text,
    OUT queries bigint, OUT inserts bigint,
    OUT rows_received bigint, OUT bytes_received bigint,
    OUT rows_sent bigint, OUT bytes_sent bigint,
    OUT retries bigint, OUT failovers bigint, OUT wait_seconds float8,
    OUT errors bigint, OUT errors_by_sqlstate jsonb, OUT since timestamptz)
RETURNS SETOF record
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT VOLATILE;

CREATE VIEW clickhouse_fdw_stats AS SELECT * FROM clickhouse_fdw_stats();

COMMENT ON VIEW clickhouse_fdw_stats
IS 'per foreign server and host: requests, rows and bytes each way, retries, failovers, time waiting on ClickHouse, remote errors by SQLSTATE';

CREATE FUNCTION clickhouse_fdw_stats_reset()
RETURNS void
AS 'MODULE_PATHNAME'
LANGUAGE C STRICT VOLATILE;

COMMENT ON FUNCTION clickhouse_fdw_stats_reset()
IS 'set every counter of clickhouse_fdw_stats back to 0';

-- resetting affects everybody's figures (when shared): a superuser grants it
REVOKE EXECUTE ON FUNCTION clickhouse_fdw_stats_reset() FROM PUBLIC;
