/*-------------------------------------------------------------------------
 * functions.c
 *	  SQL-callable helpers: clickhouse_raw_query (a query's result as
 *	  TabSeparated text), clickhouse_exec (DDL and other statements, sent
 *	  as written) and clickhouse_exec_on_cluster (a DDL statement ON
 *	  CLUSTER the server's option cluster: ddl.c), all over the caller's
 *	  user mapping and the server's options.
 *
 * src/fdw/functions.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "foreign/foreign.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"

#include "chfdw.h"

PG_FUNCTION_INFO_V1(clickhouse_raw_query);
PG_FUNCTION_INFO_V1(clickhouse_exec);
PG_FUNCTION_INFO_V1(clickhouse_exec_on_cluster);

#define MAX_RAW_RESULT ((size_t) 256 << 20)

typedef struct RawResult
{
	ch_buf		buf;			/* allocated without ereport (see raw_sink) */
} RawResult;

/*
 * Runs inside the transport's write callback, so it must not ereport (a
 * longjmp out of it leaves the connection unusable): the buffer's allocator
 * returns NULL when out of memory, and the status goes back to the
 * transport, which ends the transfer; the caller reports it.
 */
static ch_status
raw_sink(void *ctx, const uint8_t *data, size_t len, ch_error *err)
{
	RawResult  *r = (RawResult *) ctx;

	if (len > MAX_RAW_RESULT - r->buf.len)
		return ch_error_set(err, CH_ERR_LIMIT,
							"clickhouse_raw_query result exceeds %zu bytes; use a foreign table",
							MAX_RAW_RESULT);
	if (ch_buf_append(&r->buf, data, len) != CH_OK)
		return ch_error_set(err, CH_ERR_NOMEM,
							"out of memory reading the result of clickhouse_raw_query (%zu bytes so far)",
							r->buf.len);
	return CH_OK;
}

/* USAGE on the server, as for its foreign tables */
static void
check_usage(ForeignServer *server)
{
	AclResult	aclresult;

	aclresult = pg_foreign_server_aclcheck(server->serverid, GetUserId(), ACL_USAGE);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_FOREIGN_SERVER, server->servername);
}

static ChFdwConn *
connection_for(Name server_name)
{
	ForeignServer *server = GetForeignServerByName(NameStr(*server_name), false);

	check_usage(server);
	return chfdw_get_connection(GetUserMapping(GetUserId(), server->serverid));
}

/*
 * clickhouse_raw_query(server name, sql text) returns text: the result in
 * ClickHouse's default HTTP format (TabSeparated) unless sql names a FORMAT.
 */
Datum
clickhouse_raw_query(PG_FUNCTION_ARGS)
{
	ChFdwConn  *conn = connection_for(PG_GETARG_NAME(0));
	char	   *sql = text_to_cstring(PG_GETARG_TEXT_PP(1));
	RawResult	r;

	/* the native protocol sends blocks, never the bytes of a FORMAT */
	if (conn->cfg.kind != CH_TRANSPORT_HTTP)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("clickhouse_raw_query needs a server with transport 'http'"),
				 errdetail("The native protocol returns result blocks, not the text of a FORMAT."),
				 errhint("Create a second foreign server for the same ClickHouse with transport 'http', or query a foreign table.")));
	ch_buf_init(&r.buf, chfdw_allocator(CurrentMemoryContext));
	chfdw_run_request(conn, sql, NULL, raw_sink, &r);
	if (r.buf.len > 0 &&
		(pg_verifymbstr((const char *) r.buf.data, (int) r.buf.len, true) == false ||
		 memchr(r.buf.data, 0, r.buf.len)))
		ereport(ERROR,
				(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
				 errmsg("the result of clickhouse_raw_query is not valid text"),
				 errhint("Use FORMAT TabSeparated with escaping, or hex() the binary columns.")));
	PG_RETURN_TEXT_P(cstring_to_text_with_len(r.buf.len ? (const char *) r.buf.data : "",
											  (int) r.buf.len));
}

/* clickhouse_exec(server name, sql text): run a statement, discard output. */
Datum
clickhouse_exec(PG_FUNCTION_ARGS)
{
	ChFdwConn  *conn = connection_for(PG_GETARG_NAME(0));
	char	   *sql = text_to_cstring(PG_GETARG_TEXT_PP(1));

	chfdw_run_request(conn, sql, NULL, NULL, NULL);
	PG_RETURN_VOID();
}

/*
 * clickhouse_exec_on_cluster(server name, sql text): run a DDL statement
 * on every host of the server's option cluster: sql as written with
 * " ON CLUSTER `cluster`" after the name of the object it changes
 * (chfdw_sql_on_cluster; a statement of another shape is refused). The
 * answer, a row per host, is discarded.
 */
Datum
clickhouse_exec_on_cluster(PG_FUNCTION_ARGS)
{
	ForeignServer *server = GetForeignServerByName(NameStr(*PG_GETARG_NAME(0)), false);
	const char *cluster = chfdw_server_cluster(server);
	char	   *sql = text_to_cstring(PG_GETARG_TEXT_PP(1));

	check_usage(server);
	if (!cluster)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_OPTION_NAME_NOT_FOUND),
				 errmsg("the foreign server \"%s\" has no option \"cluster\"", server->servername),
				 errhint("Name the ClickHouse cluster: ALTER SERVER %s OPTIONS (ADD cluster 'name').",
						 quote_identifier(server->servername))));
	sql = chfdw_sql_on_cluster(sql, cluster);
	chfdw_run_on_cluster(chfdw_get_connection(GetUserMapping(GetUserId(), server->serverid)),
						 sql, NULL, cluster);
	PG_RETURN_VOID();
}
