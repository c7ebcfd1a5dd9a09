/* sql/clickhouse_fdw--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION clickhouse_fdw UPDATE TO '1.1'" to load this file. \quit

-- clickhouse_raw_query and clickhouse_exec run any SQL as the caller's user
-- mapping, DDL included: like dblink_exec, they are not for everyone. A
-- superuser grants them to the roles that need them (README, "Security").
REVOKE EXECUTE ON FUNCTION clickhouse_raw_query(name, text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION clickhouse_exec(name, text) FROM PUBLIC;
