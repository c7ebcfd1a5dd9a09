/* sql/clickhouse_fdw--1.2--1.3.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION clickhouse_fdw UPDATE TO '1.3'" to load this file. \quit

-- ClickHouse's own functions and aggregates (README, "ClickHouse functions").
-- They live in the extension's schema, under ClickHouse's names folded to
-- lower case (argMax(x, y) in a query is argmax). ClickHouse computes them:
-- the FDW sends every call it is given in a query over foreign tables of one
-- server. PostgreSQL cannot compute them: their bodies (one C function,
-- clickhouse_fdw_ch_only) raise an error saying so, for an aggregate both its
-- transition function (every row) and its final function (no rows at all),
-- so a query that is not sent fails instead of answering something else.

-- transition functions, one per arity (CREATE AGGREGATE does not match
-- VARIADIC "any" to fixed arguments), and one for VARIADIC "any" aggregates
CREATE FUNCTION clickhouse_fdw_ch_only_step(internal, "any")
RETURNS internal AS 'MODULE_PATHNAME', 'clickhouse_fdw_ch_only' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION clickhouse_fdw_ch_only_step(internal, "any", "any")
RETURNS internal AS 'MODULE_PATHNAME', 'clickhouse_fdw_ch_only' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION clickhouse_fdw_ch_only_vstep(internal, VARIADIC "any")
RETURNS internal AS 'MODULE_PATHNAME', 'clickhouse_fdw_ch_only' LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- final functions, by result type (polymorphic ones see the arguments)
CREATE FUNCTION clickhouse_fdw_ch_only_bigint(internal)
RETURNS bigint AS 'MODULE_PATHNAME', 'clickhouse_fdw_ch_only' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION clickhouse_fdw_ch_only_float8(internal)
RETURNS double precision AS 'MODULE_PATHNAME', 'clickhouse_fdw_ch_only' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION clickhouse_fdw_ch_only_float8s(internal)
RETURNS double precision[] AS 'MODULE_PATHNAME', 'clickhouse_fdw_ch_only' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION clickhouse_fdw_ch_only_elem(internal, anyelement)
RETURNS anyelement AS 'MODULE_PATHNAME', 'clickhouse_fdw_ch_only' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION clickhouse_fdw_ch_only_elem(internal, anyelement, "any")
RETURNS anyelement AS 'MODULE_PATHNAME', 'clickhouse_fdw_ch_only' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION clickhouse_fdw_ch_only_elem(internal, double precision, anyelement)
RETURNS anyelement AS 'MODULE_PATHNAME', 'clickhouse_fdw_ch_only' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION clickhouse_fdw_ch_only_array(internal, integer, anyelement)
RETURNS anyarray AS 'MODULE_PATHNAME', 'clickhouse_fdw_ch_only' LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- argMax(arg, val) / argMin(arg, val): arg of the row with the largest /
-- smallest val; the type of arg
CREATE AGGREGATE argmax(anyelement, "any") (
    SFUNC = clickhouse_fdw_ch_only_step, STYPE = internal,
    FINALFUNC = clickhouse_fdw_ch_only_elem, FINALFUNC_EXTRA);
CREATE AGGREGATE argmin(anyelement, "any") (
    SFUNC = clickhouse_fdw_ch_only_step, STYPE = internal,
    FINALFUNC = clickhouse_fdw_ch_only_elem, FINALFUNC_EXTRA);

-- uniq / uniqExact / uniqCombined(x, ...): distinct values (tuples), UInt64
CREATE AGGREGATE uniq(VARIADIC "any") (
    SFUNC = clickhouse_fdw_ch_only_vstep, STYPE = internal,
    FINALFUNC = clickhouse_fdw_ch_only_bigint);
CREATE AGGREGATE uniqexact(VARIADIC "any") (
    SFUNC = clickhouse_fdw_ch_only_vstep, STYPE = internal,
    FINALFUNC = clickhouse_fdw_ch_only_bigint);
CREATE AGGREGATE uniqcombined(VARIADIC "any") (
    SFUNC = clickhouse_fdw_ch_only_vstep, STYPE = internal,
    FINALFUNC = clickhouse_fdw_ch_only_bigint);

-- quantile(level, x) is ClickHouse's quantile(level)(x) of a number, Float64;
-- quantiles(ARRAY[levels], x) is quantiles(l1, l2, ...)(x), Array(Float64);
-- quantileExact(level, x) has the type of x
CREATE AGGREGATE quantile(double precision, "any") (
    SFUNC = clickhouse_fdw_ch_only_step, STYPE = internal,
    FINALFUNC = clickhouse_fdw_ch_only_float8);
CREATE AGGREGATE quantiles(double precision[], "any") (
    SFUNC = clickhouse_fdw_ch_only_step, STYPE = internal,
    FINALFUNC = clickhouse_fdw_ch_only_float8s);
CREATE AGGREGATE quantileexact(double precision, anyelement) (
    SFUNC = clickhouse_fdw_ch_only_step, STYPE = internal,
    FINALFUNC = clickhouse_fdw_ch_only_elem, FINALFUNC_EXTRA);

-- topK(n, x) is ClickHouse's topK(n)(x): an array of the most frequent values
CREATE AGGREGATE topk(integer, anyelement) (
    SFUNC = clickhouse_fdw_ch_only_step, STYPE = internal,
    FINALFUNC = clickhouse_fdw_ch_only_array, FINALFUNC_EXTRA);

-- any(x) (any is a reserved word in PostgreSQL: any_value) and anyLast(x)
CREATE AGGREGATE any_value(anyelement) (
    SFUNC = clickhouse_fdw_ch_only_step, STYPE = internal,
    FINALFUNC = clickhouse_fdw_ch_only_elem, FINALFUNC_EXTRA);
CREATE AGGREGATE anylast(anyelement) (
    SFUNC = clickhouse_fdw_ch_only_step, STYPE = internal,
    FINALFUNC = clickhouse_fdw_ch_only_elem, FINALFUNC_EXTRA);

-- countIf(cond): the rows where cond is true, UInt64
CREATE AGGREGATE countif(boolean) (
    SFUNC = clickhouse_fdw_ch_only_step, STYPE = internal,
    FINALFUNC = clickhouse_fdw_ch_only_bigint);

-- groupBitmap(x): distinct unsigned integers (a roaring bitmap's
-- cardinality), UInt64; servers from 19.3
CREATE AGGREGATE groupbitmap("any") (
    SFUNC = clickhouse_fdw_ch_only_step, STYPE = internal,
    FINALFUNC = clickhouse_fdw_ch_only_bigint);

-- merge_state(col) of a column with the option aggregate (an
-- AggregateFunction column, read finalized): ClickHouse's <fn>Merge(col)
CREATE AGGREGATE merge_state(anyelement) (
    SFUNC = clickhouse_fdw_ch_only_step, STYPE = internal,
    FINALFUNC = clickhouse_fdw_ch_only_elem, FINALFUNC_EXTRA);

-- dictGet(dictionary, attribute, key) as text (toString), NULL for a NULL key
CREATE FUNCTION dictget(text, text, "any")
RETURNS text AS 'MODULE_PATHNAME', 'clickhouse_fdw_ch_only' LANGUAGE C STABLE PARALLEL SAFE;

-- toStartOfInterval(t, INTERVAL n unit, session zone); servers from 19.3
CREATE FUNCTION tostartofinterval(timestamp with time zone, interval)
RETURNS timestamp with time zone AS 'MODULE_PATHNAME', 'clickhouse_fdw_ch_only' LANGUAGE C STABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION dictget(text, text, "any")
IS 'ClickHouse''s dictGet(), as text: computed by ClickHouse only';
COMMENT ON FUNCTION tostartofinterval(timestamp with time zone, interval)
IS 'ClickHouse''s toStartOfInterval() in the session''s time zone: computed by ClickHouse only';
COMMENT ON AGGREGATE argmax(anyelement, "any") IS 'ClickHouse''s argMax(): computed by ClickHouse only';
COMMENT ON AGGREGATE argmin(anyelement, "any") IS 'ClickHouse''s argMin(): computed by ClickHouse only';
COMMENT ON AGGREGATE uniq(VARIADIC "any") IS 'ClickHouse''s uniq(): computed by ClickHouse only';
COMMENT ON AGGREGATE uniqexact(VARIADIC "any") IS 'ClickHouse''s uniqExact(): computed by ClickHouse only';
COMMENT ON AGGREGATE uniqcombined(VARIADIC "any") IS 'ClickHouse''s uniqCombined(): computed by ClickHouse only';
COMMENT ON AGGREGATE quantile(double precision, "any") IS 'ClickHouse''s quantile(level)(x): computed by ClickHouse only';
COMMENT ON AGGREGATE quantiles(double precision[], "any") IS 'ClickHouse''s quantiles(levels...)(x): computed by ClickHouse only';
COMMENT ON AGGREGATE quantileexact(double precision, anyelement) IS 'ClickHouse''s quantileExact(level)(x): computed by ClickHouse only';
COMMENT ON AGGREGATE topk(integer, anyelement) IS 'ClickHouse''s topK(n)(x): computed by ClickHouse only';
COMMENT ON AGGREGATE any_value(anyelement) IS 'ClickHouse''s any(): computed by ClickHouse only';
COMMENT ON AGGREGATE anylast(anyelement) IS 'ClickHouse''s anyLast(): computed by ClickHouse only';
COMMENT ON AGGREGATE countif(boolean) IS 'ClickHouse''s countIf(): computed by ClickHouse only';
COMMENT ON AGGREGATE groupbitmap("any") IS 'ClickHouse''s groupBitmap(): computed by ClickHouse only';
COMMENT ON AGGREGATE merge_state(anyelement) IS 'ClickHouse''s <fn>Merge() of an AggregateFunction column (option aggregate): computed by ClickHouse only';

-- DDL ON CLUSTER the server's option cluster (README "Clusters")
CREATE FUNCTION clickhouse_exec_on_cluster(server name, sql text)
RETURNS void AS 'MODULE_PATHNAME' LANGUAGE C STRICT VOLATILE;
COMMENT ON FUNCTION clickhouse_exec_on_cluster(name, text)
IS 'run a DDL statement ON CLUSTER the server''s option cluster, as the current user';
REVOKE EXECUTE ON FUNCTION clickhouse_exec_on_cluster(name, text) FROM PUBLIC;
