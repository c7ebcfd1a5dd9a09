/*-------------------------------------------------------------------------
 * ddl.c
 *	  Distributed DDL: TRUNCATE of a foreign table ON CLUSTER, and the ON
 *	  CLUSTER clause placed for clickhouse_exec_on_cluster.
 *
 * ClickHouse runs a statement with ON CLUSTER c on every host of the
 * cluster c of its remote_servers, through a queue in ZooKeeper
 * (src/Interpreters/DDLWorker.cpp); the answer, one row per host, comes
 * once every host ran it, or is an error naming the first host that
 * failed, or a timeout (distributed_ddl_task_timeout, 180 s by default)
 * after which the hosts that were down still run it when they are back.
 *
 * The clause goes where ClickHouse's grammar puts it, found by reading the
 * statement's first tokens (src/common/ch_ddl.c); a statement whose shape
 * is not known is refused, never guessed at.
 *
 * src/fdw/ddl.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "foreign/foreign.h"
#include "miscadmin.h"
#include "utils/rel.h"

#include "ch_ddl.h"
#include "chfdw.h"

static void
on_cluster_context(void *arg)
{
	errcontext("distributed DDL on the ClickHouse cluster \"%s\" (ON CLUSTER, queued in the ClickHouse servers' ZooKeeper)",
			   (const char *) arg);
}

/*
 * chfdw_run_on_cluster
 *		Runs sql, which has an ON CLUSTER clause for cluster, on conn; its
 *		answer (a row per host) is discarded. Errors are raised with a
 *		context line naming the cluster.
 */
void
chfdw_run_on_cluster(ChFdwConn *conn, const char *sql, const char *database,
					 const char *cluster)
{
	ErrorContextCallback cb;

	cb.callback = on_cluster_context;
	cb.arg = (void *) cluster;
	cb.previous = error_context_stack;
	error_context_stack = &cb;
	chfdw_run_request(conn, sql, database, NULL, NULL);
	error_context_stack = cb.previous;
}

/*
 * chfdw_sql_on_cluster
 *		sql with " ON CLUSTER `cluster`" after the name of the object it
 *		changes (palloc'd); an error when the statement is not one whose
 *		clause this can place (ch_ddl_on_cluster_at).
 */
char *
chfdw_sql_on_cluster(const char *sql, const char *cluster)
{
	size_t		pos = 0;
	ch_error	err;
	StringInfoData out;

	ch_error_clear(&err);
	if (ch_ddl_on_cluster_at(sql, strlen(sql), &pos, &err) != CH_OK)
	{
		char		detail[CH_ERROR_MESSAGE_MAX];

		strlcpy(detail, err.message, sizeof(detail));
		detail[0] = (char) pg_toupper((unsigned char) detail[0]);
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot place ON CLUSTER in this statement"),
				 errdetail("%s.", detail),
				 errhint("Write the statement with its ON CLUSTER clause and run it with clickhouse_exec.")));
	}
	initStringInfo(&out);
	appendBinaryStringInfo(&out, sql, (int) pos);
	appendStringInfoString(&out, " ON CLUSTER ");
	chfdw_quote_identifier(&out, cluster);
	appendStringInfoString(&out, sql + pos);
	return out.data;
}

typedef struct EngineArg
{
	bool		found;
	char	   *engine;
	char	   *engine_full;
} EngineArg;

static char *
string_at(const ch_column *c, uint64 row)
{
	uint32		len;
	const uint8 *p;

	if (c->type->kind != CH_T_STRING)
		elog(ERROR, "expected a String column from system.tables, got %s", c->type->name);
	p = ch_col_str(c, row, &len);
	return pnstrdup((const char *) p, len);
}

static void
engine_block(const ch_block *b, void *arg)
{
	EngineArg  *a = (EngineArg *) arg;

	if (b->ncols != 2)
		elog(ERROR, "unexpected column count %llu from system.tables",
			 (unsigned long long) b->ncols);
	if (b->nrows >= 1 && !a->found)
	{
		a->found = true;
		a->engine = string_at(&b->cols[0], 0);
		a->engine_full = string_at(&b->cols[1], 0);
	}
}

/*
 * chfdw_truncate_remote
 *		TRUNCATE TABLE for a foreign table: with the server option cluster
 *		ON CLUSTER that cluster; for a Distributed table (whose own TRUNCATE
 *		leaves its shards' rows where they are: ClickHouse 18.16 answers it
 *		and removes nothing) the table it reads, ON CLUSTER the cluster it
 *		reads from, which needs the option cluster as the consent to
 *		distributed DDL.
 */
void
chfdw_truncate_remote(Relation rel)
{
	ForeignTable *ft = GetForeignTable(RelationGetRelid(rel));
	ForeignServer *server = GetForeignServer(ft->serverid);
	ChFdwConn  *conn = chfdw_get_connection(GetUserMapping(GetUserId(), ft->serverid));
	const char *cluster = chfdw_server_cluster(server);
	const char *database;
	const char *table;
	EngineArg	eng = {false, NULL, NULL};
	StringInfoData sql;

	chfdw_get_table_names(rel, &database, &table);
	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT engine, engine_full FROM system.tables WHERE database = ");
	chfdw_quote_literal(&sql, database);
	appendStringInfoString(&sql, " AND name = ");
	chfdw_quote_literal(&sql, table);
	appendStringInfoString(&sql, " FORMAT Native");
	chfdw_run_query(conn, sql.data, NULL, engine_block, &eng);

	resetStringInfo(&sql);
	appendStringInfoString(&sql, "TRUNCATE TABLE ");
	if (eng.found && strcmp(eng.engine, "Distributed") == 0)
	{
		char		dcluster[CH_DDL_NAME_MAX];
		char		ddb[CH_DDL_NAME_MAX];
		char		dtable[CH_DDL_NAME_MAX];
		ch_error	err;

		ch_error_clear(&err);
		if (ch_ddl_distributed_args(eng.engine_full, dcluster, ddb, dtable, &err) != CH_OK)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot truncate the Distributed table \"%s.%s\": which table it reads is not known",
							database, table),
					 errdetail("ClickHouse's engine is %s: %s.", eng.engine_full, err.message),
					 errhint("Truncate the tables it reads on each ClickHouse server with clickhouse_exec.")));
		if (ddb[0] == '\0')
			strlcpy(ddb, database, sizeof(ddb));
		if (!cluster)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("cannot truncate the Distributed table \"%s.%s\" without the server option \"cluster\"",
							database, table),
					 errdetail("TRUNCATE of a Distributed table does not remove the rows of the table it reads, \"%s.%s\" on the servers of the cluster \"%s\".",
							   ddb, dtable, dcluster),
					 errhint("Set the option \"cluster\" of the foreign server \"%s\" (TRUNCATE then sends TRUNCATE TABLE ... ON CLUSTER, which needs ZooKeeper on the ClickHouse side).",
							 server->servername)));
		/* the rows are on the servers of the cluster the table reads */
		chfdw_quote_identifier(&sql, ddb);
		appendStringInfoChar(&sql, '.');
		chfdw_quote_identifier(&sql, dtable);
		appendStringInfoString(&sql, " ON CLUSTER ");
		chfdw_quote_identifier(&sql, dcluster);
		chfdw_run_on_cluster(conn, sql.data, database, dcluster);
		return;
	}
	chfdw_quote_identifier(&sql, database);
	appendStringInfoChar(&sql, '.');
	chfdw_quote_identifier(&sql, table);
	if (cluster)
	{
		appendStringInfoString(&sql, " ON CLUSTER ");
		chfdw_quote_identifier(&sql, cluster);
		chfdw_run_on_cluster(conn, sql.data, database, cluster);
	}
	else
		chfdw_run_request(conn, sql.data, database, NULL, NULL);
}
