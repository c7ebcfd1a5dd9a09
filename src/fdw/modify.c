/*-------------------------------------------------------------------------
 * modify.c
 *	  INSERT, INSERT ... SELECT and COPY into ClickHouse.
 *
 * Rows go from the slot straight into per-column writers (convert_out.c →
 * ch_writer); when batch_size rows or CHFDW_MAX_BLOCK_BYTES are buffered,
 * the block is serialised (Native or RowBinary) and sent as one INSERT
 * over the server's transport (ch_transport.h), which compresses it. Memory is one block,
 * whatever the row count. Only the columns the INSERT names (plus those
 * with a PostgreSQL default) are sent, so ClickHouse fills its own DEFAULT
 * and MATERIALIZED columns.
 *
 * Semantics: each block is committed by ClickHouse when its request
 * succeeds; a PostgreSQL ROLLBACK cannot undo blocks already sent. A failed
 * block is not retried blindly: the error says how many blocks and rows
 * were committed before it.
 *
 * src/fdw/modify.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/progress.h"
#include "utils/backend_progress.h"
#include "utils/backend_status.h"

#include "access/detoast.h"
#include "access/table.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "foreign/fdwapi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "ch_compress.h"
#include "ch_writer.h"
#include "chfdw.h"

#define CHFDW_MAX_BLOCK_BYTES ((size_t) 256 << 20)

/* Indexes into the fdw_private list of a ModifyTable. */
enum FdwModifyPrivateIndex
{
	FdwModifyPrivateInsertSql,	/* INSERT ... (String), without FORMAT */
	FdwModifyPrivateTargetAttrs /* attnums sent (IntList) */
};

typedef struct ChFdwModifyState
{
	Relation	rel;
	char	   *sql;			/* INSERT INTO ... FORMAT x (for messages) */
	char	   *insert_sql;		/* INSERT INTO db.t (cols): what is sent */
	const char *database;
	const char *table;
	List	   *target_attrs;
	int			natts;
	AttrNumber *attnums;
	ChFdwConn  *conn;
	int			batch_size;
	bool		rowbinary;
	bool		defer_to_commit;	/* insert_commit = transaction */
	uint64		key;			/* this statement, for deferred blocks */
	MemoryContext cxt;			/* writer, converters, types */
	MemoryContext row_cxt;		/* per-row temporaries */
	ch_arena	types;
	ch_writer  *writer;
	ChFdwOutConv **conv;
	char	  **remote_names;
	ch_buf		block;			/* the serialised block being built */
	ch_buf		sending;		/* the block in flight (kept for a retry) */
	ch_conn    *inflight;		/* the request sending it, or NULL */
	bool		inflight_retried;
	int			dedup_known;	/* the table deduplicates: 1 yes, -1 no, 0 not
								 * asked */
	char		inflight_token[320];	/* its insert_deduplication_token, or "" */
	char	   *statement_id;	/* prefix of deduplication tokens: this
								 * statement's id, or clickhouse_fdw.insert_key
								 * with the table */
	bool		keyed;			/* ... the latter */
	bool		own_progress;	/* this INSERT reports in pg_stat_progress_copy */
	uint64		bytes_sent;
	uint64		blocks_started;
	uint64		inflight_rows;
	char		inflight_query_id[96];
	uint64		rows_total;		/* rows appended */
	uint64		rows_sent;		/* rows in committed blocks */
	uint64		blocks_sent;
	/* error context */
	const char *ctx_column;
	uint64		ctx_row;
} ChFdwModifyState;

static void
modify_error_callback(void *arg)
{
	ChFdwModifyState *st = (ChFdwModifyState *) arg;

	if (st->ctx_column)
		errcontext("column \"%s\" of foreign table \"%s\", row " UINT64_FORMAT,
				   st->ctx_column, RelationGetRelationName(st->rel), st->ctx_row);
}

static void
build_insert_sql(StringInfo sql, Relation rel, List *target_attrs)
{
	const char *database;
	const char *table;
	ListCell   *lc;
	bool		first = true;

	chfdw_get_table_names(rel, &database, &table);
	appendStringInfoString(sql, "INSERT INTO ");
	chfdw_quote_identifier(sql, database);
	appendStringInfoChar(sql, '.');
	chfdw_quote_identifier(sql, table);
	appendStringInfoString(sql, " (");
	foreach(lc, target_attrs)
	{
		if (!first)
			appendStringInfoString(sql, ", ");
		first = false;
		chfdw_quote_identifier(sql, chfdw_column_name(RelationGetRelid(rel), lfirst_int(lc)));
	}
	appendStringInfoChar(sql, ')');
}

/*
 * Plan an INSERT: the columns it names, plus those with a local default.
 */
List *
chfdwPlanForeignModify(PlannerInfo *root, ModifyTable *plan, Index resultRelation,
					   int subplan_index)
{
	CmdType		operation = plan->operation;
	RangeTblEntry *rte = planner_rt_fetch(resultRelation, root);
	Relation	rel;
	TupleDesc	tupdesc;
	List	   *target_attrs = NIL;
	StringInfoData sql;
	int			attnum;

	if (operation != CMD_INSERT)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("this %s would change ClickHouse rows one at a time, which is not supported",
						operation == CMD_UPDATE ? "UPDATE" : "DELETE"),
				 errhint("ClickHouse changes rows in bulk: use a WHERE clause that can be sent to ClickHouse "
						 "(EXPLAIN (VERBOSE) of a SELECT with it shows it in the Remote SQL)%s.",
						 operation == CMD_UPDATE ?
						 " and new values that can be sent too (constants, columns, parameters, expressions of them)" : "")));
	if (plan->returningLists)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("RETURNING is not supported for ClickHouse foreign tables"),
				 errhint("ClickHouse does not report inserted rows back.")));
	if (plan->onConflictAction != ONCONFLICT_NONE)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("ON CONFLICT is not supported for ClickHouse foreign tables"),
				 errhint("ClickHouse has no unique constraints; consider a ReplacingMergeTree table.")));

	rel = table_open(rte->relid, NoLock);
	tupdesc = RelationGetDescr(rel);
	for (attnum = 1; attnum <= tupdesc->natts; attnum++)
	{
		Form_pg_attribute attr = TupleDescAttr(tupdesc, attnum - 1);

		if (attr->attisdropped)
			continue;
		if (bms_is_member(attnum - FirstLowInvalidHeapAttributeNumber, rte->insertedCols) ||
			attr->atthasdef)
			target_attrs = lappend_int(target_attrs, attnum);
	}
	initStringInfo(&sql);
	build_insert_sql(&sql, rel, target_attrs);
	table_close(rel, NoLock);
	return list_make2(makeString(sql.data), target_attrs);
}

static const char *
find_remote_type(List *remote, const char *name)
{
	ListCell   *lc;

	foreach(lc, remote)
	{
		ChFdwRemoteColumn *c = (ChFdwRemoteColumn *) lfirst(lc);

		if (strcmp(c->name, name) == 0)
		{
			if (strcmp(c->default_kind, "MATERIALIZED") == 0 ||
				strcmp(c->default_kind, "ALIAS") == 0)
				ereport(ERROR,
						(errcode(ERRCODE_GENERATED_ALWAYS),
						 errmsg("ClickHouse column \"%s\" is %s and cannot be inserted into",
								name, c->default_kind),
						 errhint("Leave it out of the INSERT's column list; ClickHouse computes it.")));
			return c->type_name;
		}
	}
	return NULL;
}

/*
 * clickhouse_fdw.insert_key: the deduplication token of each block is the
 * key, the table and the block's number in the statement, so the same
 * statement run again with the same key over the same input in the same
 * order sends blocks ClickHouse already holds under the same tokens, and
 * it skips them. That needs tokens (22.2+) and a table that deduplicates:
 * otherwise the key would promise what the server does not keep, so it is
 * an error (README, "Loading data (CDC)").
 */
static void
use_insert_key(ChFdwModifyState *st)
{
	if (!chfdw_caps(st->conn)->dedup_token)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("clickhouse_fdw.insert_key needs a ClickHouse server with insert_deduplication_token (22.2 or later)"),
				 errdetail("This server cannot tell a block sent again from a new one, so a re-run could write rows twice."),
				 errhint("RESET clickhouse_fdw.insert_key, and make re-runs safe another way (a ReplacingMergeTree table read with FINAL, or delete the partial load first).")));
	if (!chfdw_table_deduplicates(st->conn, st->database, st->table))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("ClickHouse table \"%s.%s\" does not deduplicate inserts, so clickhouse_fdw.insert_key cannot make a re-run write nothing twice",
						st->database, st->table),
				 errhint("Use a Replicated*MergeTree table, or a MergeTree with the setting non_replicated_deduplication_window (at least the number of blocks of one load), or RESET clickhouse_fdw.insert_key.")));
	st->statement_id = psprintf("%s:%s.%s", chfdw_guc_insert_key, st->database, st->table);
	st->keyed = true;
	st->dedup_known = 1;
}

static ChFdwModifyState *
create_modify_state(EState *estate, ResultRelInfo *rinfo, const char *insert_sql,
					List *target_attrs)
{
	ChFdwModifyState *st = palloc0(sizeof(ChFdwModifyState));
	Relation	rel = rinfo->ri_RelationDesc;
	TupleDesc	tupdesc = RelationGetDescr(rel);
	RangeTblEntry *rte = exec_rt_fetch(rinfo->ri_RangeTableIndex, estate);
	Oid			userid = OidIsValid(rte->checkAsUser) ? rte->checkAsUser : GetUserId();
	ForeignTable *ft = GetForeignTable(RelationGetRelid(rel));
	UserMapping *user = GetUserMapping(userid, ft->serverid);
	List	   *remote;
	MemoryContext old;
	const ch_type **types;
	ch_error	err;
	ListCell   *lc;
	int			i;

	st->rel = rel;
	st->target_attrs = target_attrs;
	st->natts = list_length(target_attrs);
	chfdw_get_table_names(rel, &st->database, &st->table);
	chfdw_get_write_options(rel, &st->batch_size, &st->rowbinary, &st->defer_to_commit);
	{
		static uint64 statements = 0;

		st->key = ++statements;
		st->statement_id = psprintf("chfdw-%d-" INT64_FORMAT "-" UINT64_FORMAT,
									MyProcPid, (int64) GetCurrentTimestamp(), st->key);
	}
	st->conn = chfdw_get_connection(user);
	chfdw_server_caps(st->conn);
	st->insert_sql = pstrdup(insert_sql);
	st->sql = psprintf("%s FORMAT %s", insert_sql, st->rowbinary ? "RowBinary" : "Native");
	if (chfdw_guc_insert_key && chfdw_guc_insert_key[0])
		use_insert_key(st);
	st->cxt = AllocSetContextCreate(estate->es_query_cxt, "clickhouse_fdw insert",
									ALLOCSET_DEFAULT_SIZES);
	st->row_cxt = AllocSetContextCreate(estate->es_query_cxt, "clickhouse_fdw insert row",
										ALLOCSET_SMALL_SIZES);
	if (st->natts == 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("an INSERT into a ClickHouse foreign table must name at least one column")));

	old = MemoryContextSwitchTo(st->cxt);
	remote = chfdw_remote_columns(st->conn, st->database, st->table, false);
	ch_arena_init(&st->types, chfdw_allocator(st->cxt));
	st->attnums = palloc(sizeof(AttrNumber) * st->natts);
	st->conv = palloc(sizeof(ChFdwOutConv *) * st->natts);
	st->remote_names = palloc(sizeof(char *) * st->natts);
	types = palloc(sizeof(ch_type *) * st->natts);
	i = 0;
	foreach(lc, target_attrs)
	{
		AttrNumber	attnum = (AttrNumber) lfirst_int(lc);
		Form_pg_attribute attr = TupleDescAttr(tupdesc, attnum - 1);
		char	   *rname = chfdw_column_name(RelationGetRelid(rel), attnum);
		const char *tname = find_remote_type(remote, rname);
		ch_type    *t;

		if (!tname)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_COLUMN),
					 errmsg("column \"%s\" of foreign table \"%s\" has no ClickHouse column \"%s\" in %s.%s",
							NameStr(attr->attname), RelationGetRelationName(rel), rname,
							st->database, st->table)));
		ch_error_clear(&err);
		if (ch_type_parse(tname, strlen(tname), &st->types, &t, &err) != CH_OK)
			chfdw_report(ERROR, err.code, &err, NULL, NULL);
		st->attnums[i] = attnum;
		st->remote_names[i] = rname;
		st->conv[i] = chfdw_make_out_converter(attr->atttypid, t, NameStr(attr->attname));
		/* JSON travels as String, which only Native input converts */
		types[i] = chfdw_out_converter_wire_type(st->conv[i]);
		if (types[i] != t && st->rowbinary)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("column \"%s\" of ClickHouse type %s can only be written in Native format",
							NameStr(attr->attname), t->name),
					 errhint("Set the option insert_format 'native' on the foreign table.")));
		chfdw_out_converter_set_loss(st->conv[i],
									 chfdw_precision_loss(RelationGetRelid(rel), attnum,
														  "datetime_precision_loss"),
									 chfdw_precision_loss(RelationGetRelid(rel), attnum,
														  "decimal_precision_loss"));
		i++;
	}
	ch_error_clear(&err);
	st->writer = ch_writer_create(chfdw_allocator(st->cxt),
								  st->rowbinary ? CH_FORMAT_ROWBINARY : CH_FORMAT_NATIVE,
								  st->natts, (const char *const *) st->remote_names,
								  types, &err);
	if (!st->writer)
		chfdw_report(ERROR, err.code, &err, NULL, NULL);
	ch_buf_init(&st->block, chfdw_allocator(st->cxt));
	ch_buf_init(&st->sending, chfdw_allocator(st->cxt));
	MemoryContextSwitchTo(old);
	return st;
}

/*
 * Raise the error of a failed block, saying what ClickHouse already holds
 * (it cannot be rolled back) and that the block was not retried.
 */
static void
report_block_failure(ChFdwModifyState *st, ch_status rc, ch_error *err, const char *query_id)
{
	{
		size_t		used = strlen(err->detail);

		/*
		 * A server error means the block was refused; a lost answer means
		 * ClickHouse may have written it or not: say which.
		 */
		snprintf(err->detail + used, sizeof(err->detail) - used,
				 "%s" UINT64_FORMAT " earlier block(s) with " UINT64_FORMAT
				 " row(s) of this statement were committed in ClickHouse; this block of "
				 UINT64_FORMAT " row(s) %s",
				 used ? " " : "", st->blocks_sent, st->rows_sent, st->inflight_rows,
				 rc == CH_ERR_SERVER ? "was not written." :
				 st->inflight_retried ?
				 "was sent again with its deduplication token and failed again; ClickHouse holds it at most once." :
				 st->inflight_token[0] && st->dedup_known < 0 ?
				 "may or may not have been written (its answer was lost); it was not retried, since the table does not deduplicate inserts (a Replicated*MergeTree, or a MergeTree with non_replicated_deduplication_window, does)." :
				 st->inflight_token[0] ?
				 "may or may not have been written (its answer was lost)." :
				 "may or may not have been written (its answer was lost); it was not retried, since this server has no insert deduplication token.");
	}
	if (st->keyed)
	{
		size_t		used = strlen(err->detail);

		snprintf(err->detail + used, sizeof(err->detail) - used,
				 " To resume, run the same statement again with clickhouse_fdw.insert_key = '%s' "
				 "over the same input in the same order: ClickHouse skips the blocks it holds "
				 "(the first " UINT64_FORMAT ", rows 1 to " UINT64_FORMAT ", and this one if it was written).",
				 chfdw_guc_insert_key, st->blocks_sent, st->rows_sent);
	}
	chfdw_report(ERROR, rc, err, st->sql, query_id);
}

/*
 * Whether a failed block's answer was lost on the way (the block may or
 * may not be written): only then may it be sent again with its token. A
 * refusal (server exception) or a request abandoned by us (a cancel, an
 * aborted subtransaction: "no request in progress") is never re-sent.
 */
static bool
answer_lost(ch_status rc)
{
	return rc == CH_ERR_NETWORK || rc == CH_ERR_CONNECT || rc == CH_ERR_TIMEOUT ||
		rc == CH_ERR_TRUNCATED;
}

/*
 * Whether the target table drops a block sent twice with one token: asked
 * once per statement, only when a block's answer was lost.
 */
static bool
table_deduplicates(ChFdwModifyState *st)
{
	if (st->dedup_known == 0)
		st->dedup_known = chfdw_table_deduplicates(st->conn, st->database, st->table) ? 1 : -1;
	return st->dedup_known > 0;
}

/* Start sending st->sending (inflight_rows rows) with inflight_token. */
static ch_status
start_inflight(ChFdwModifyState *st, ch_error *err)
{
	st->inflight = chfdw_begin_insert(st->conn, st->insert_sql, st->database, st->rowbinary,
									  st->inflight_token[0] ? st->inflight_token : NULL);
	strlcpy(st->inflight_query_id, ch_conn_query_id(st->inflight),
			sizeof(st->inflight_query_id));
	return chfdw_send_insert(st->conn, st->inflight, st->sending.data, st->sending.len,
							 st->inflight_rows, err);
}

/*
 * The block in flight failed. When its answer was lost (not refused),
 * with a deduplication token the same block can be sent once more:
 * ClickHouse writes it at most once. Else (or when that fails too) raise.
 */
static void
block_failed(ChFdwModifyState *st, ch_status rc, ch_error *err)
{
	st->inflight = NULL;
	if (answer_lost(rc) && st->inflight_token[0] && !st->inflight_retried &&
		table_deduplicates(st))
	{
		ereport(DEBUG1,
				(errmsg_internal("retrying block %s after: %s", st->inflight_token,
								 err->message)));
		st->inflight_retried = true;
		chfdw_stats_add(st->conn->stats, CHFDW_STAT_RETRIES, 1);
		rc = start_inflight(st, err);
		if (rc == CH_OK)
			return;
		st->inflight = NULL;
	}
	report_block_failure(st, rc, err, st->inflight_query_id);
}

/*
 * Drive the block in flight. wait: until it is done; else only as far as
 * it goes without waiting (called between rows, so the body keeps flowing
 * while the next block is built).
 */
static void
pump_inflight(ChFdwModifyState *st, bool wait)
{
	while (st->inflight)
	{
		ch_error	err;
		ch_status	rc = chfdw_step(st->conn, st->inflight, wait ? -1 : 0, &err);
		uint64		sent;

		if (rc == CH_NEED_MORE)
			return;
		if (rc != CH_OK)
		{
			block_failed(st, rc, &err);
			continue;
		}
		sent = ch_conn_stats(st->inflight)->bytes_sent;
		st->inflight = NULL;
		st->blocks_sent++;
		st->rows_sent += st->inflight_rows;
		st->bytes_sent += sent;
		chfdw_stats_add(st->conn->stats, CHFDW_STAT_ROWS_SENT, st->inflight_rows);
		chfdw_stats_add(st->conn->stats, CHFDW_STAT_BYTES_SENT, sent);
		st->inflight_rows = 0;
		if (st->own_progress)
		{
			const int	index[] = {PROGRESS_COPY_TUPLES_PROCESSED, PROGRESS_COPY_BYTES_PROCESSED};
			const int64 val[] = {(int64) st->rows_sent, (int64) st->bytes_sent};

			pgstat_progress_update_multi_param(2, index, val);
		}
	}
}

/*
 * The insert_deduplication_token of block number blocks_started, whose
 * serialised (uncompressed) bytes are in st->block: the statement's id and
 * the number; with clickhouse_fdw.insert_key, the key, the table, the
 * number and a CityHash128 of the block's bytes, so a re-run's identical
 * block is skipped while a different block under the same key (another
 * load given the same key, or input in another order) is written, not lost.
 */
static void
make_token(ChFdwModifyState *st, char *out, size_t outlen)
{
	uint64		lo = 0,
				hi = 0;

	if (!st->keyed)
	{
		snprintf(out, outlen, "%s-" UINT64_FORMAT, st->statement_id, st->blocks_started);
		return;
	}
	ch_cityhash128(st->block.data, st->block.len, &lo, &hi);
	snprintf(out, outlen, "%s:" UINT64_FORMAT ":%016llx%016llx",
			 st->statement_id, st->blocks_started, (unsigned long long) hi,
			 (unsigned long long) lo);
}

/*
 * Serialise the buffered rows and start sending them as one INSERT request.
 * The request runs while the next block is built; the previous one must
 * have succeeded first.
 */
static void
send_block(ChFdwModifyState *st)
{
	uint64		rows = ch_writer_rows(st->writer);
	ch_error	err;
	ch_status	rc;
	ch_buf		t;

	if (rows == 0)
		return;
	ch_buf_reset(&st->block);
	ch_error_clear(&err);
	rc = ch_writer_flush(st->writer, &st->block, &err);
	if (rc != CH_OK)
		chfdw_report(ERROR, rc, &err, st->sql, NULL);

	if (st->defer_to_commit)
	{
		char		token[320];

		st->blocks_started++;
		if (st->keyed)
			make_token(st, token, sizeof(token));
		chfdw_defer_block(st->key, st->conn, st->insert_sql, st->database,
						  st->block.data, st->block.len, st->rowbinary, rows,
						  st->keyed ? token : NULL);
		return;
	}

	/* the previous block must be in ClickHouse before this one goes */
	pump_inflight(st, true);
	st->blocks_started++;
	st->inflight_token[0] = '\0';
	if (chfdw_caps(st->conn)->dedup_token)
		make_token(st, st->inflight_token, sizeof(st->inflight_token));
	t = st->block;
	st->block = st->sending;
	st->sending = t;
	st->inflight_retried = false;
	st->inflight_rows = rows;
	rc = start_inflight(st, &err);
	if (rc != CH_OK)
		block_failed(st, rc, &err);
	pump_inflight(st, false);
}

/*
 * Converting rows: temporaries in the reset row context, errors with the
 * column and row (modify_error_callback). Returns the context to go back
 * to in leave_row_context.
 */
static MemoryContext
enter_row_context(ChFdwModifyState *st, ErrorContextCallback *errcb)
{
	MemoryContextReset(st->row_cxt);
	errcb->callback = modify_error_callback;
	errcb->arg = st;
	errcb->previous = error_context_stack;
	error_context_stack = errcb;
	return MemoryContextSwitchTo(st->row_cxt);
}

static void
leave_row_context(ChFdwModifyState *st, ErrorContextCallback *errcb, MemoryContext old)
{
	st->ctx_column = NULL;
	error_context_stack = errcb->previous;
	MemoryContextSwitchTo(old);
}

static void
append_row(ChFdwModifyState *st, TupleTableSlot *slot)
{
	ErrorContextCallback errcb;
	MemoryContext old;
	ch_error	err;
	int			i;

	slot_getallattrs(slot);
	old = enter_row_context(st, &errcb);
	st->ctx_row = st->rows_total + 1;
	for (i = 0; i < st->natts; i++)
	{
		int			att = st->attnums[i] - 1;

		st->ctx_column = NameStr(TupleDescAttr(RelationGetDescr(st->rel), att)->attname);
		chfdw_write_value(st->conv[i], ch_writer_column(st->writer, i),
						  slot->tts_values[att], slot->tts_isnull[att]);
	}
	leave_row_context(st, &errcb, old);
	ch_error_clear(&err);
	if (ch_writer_end_row(st->writer, &err) != CH_OK)
		chfdw_report(ERROR, err.code, &err, NULL, NULL);
	st->rows_total++;
	if (st->inflight && (st->rows_total & 255) == 0)
		pump_inflight(st, false);
	if (ch_writer_rows(st->writer) >= (uint64) st->batch_size ||
		ch_writer_bytes(st->writer) >= CHFDW_MAX_BLOCK_BYTES)
		send_block(st);
}

/*
 * An INSERT (not a COPY, which PostgreSQL reports itself) shows its
 * progress where other sessions can see it: in pg_stat_progress_copy, as
 * command "COPY FROM" of type "CALLBACK", with the rows and bytes ClickHouse
 * has committed so far. Only when the backend reports nothing else; an
 * abort ends the report (AbortTransaction).
 */
static void
start_progress(ChFdwModifyState *st)
{
	const int	index[] = {PROGRESS_COPY_COMMAND, PROGRESS_COPY_TYPE};
	const int64 val[] = {PROGRESS_COPY_COMMAND_FROM, PROGRESS_COPY_TYPE_CALLBACK};

	if (!MyBEEntry || MyBEEntry->st_progress_command != PROGRESS_COMMAND_INVALID)
		return;
	pgstat_progress_start_command(PROGRESS_COMMAND_COPY, RelationGetRelid(st->rel));
	pgstat_progress_update_multi_param(2, index, val);
	st->own_progress = true;
}

void
chfdwBeginForeignModify(ModifyTableState *mtstate, ResultRelInfo *rinfo,
						List *fdw_private, int subplan_index, int eflags)
{
	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;
	rinfo->ri_FdwState =
		create_modify_state(mtstate->ps.state, rinfo,
							strVal(list_nth(fdw_private, FdwModifyPrivateInsertSql)),
							(List *) list_nth(fdw_private, FdwModifyPrivateTargetAttrs));
	start_progress((ChFdwModifyState *) rinfo->ri_FdwState);
}

/*
 * Where to read a row's values: PostgreSQL copies the plan's row into slot,
 * a heap tuple (foreign tables get heap slots), which slot_getallattrs would
 * deform again. When nothing came between the plan's row and slot (no
 * projection, BEFORE ROW trigger, generated column or partition routing:
 * nodeModifyTable.c ExecGetInsertNewTuple copies it as it is) the values are
 * planSlot's own, already deformed.
 */
static TupleTableSlot *
row_source(ResultRelInfo *rinfo, TupleTableSlot *slot, TupleTableSlot *planSlot)
{
	TupleDesc	td = RelationGetDescr(rinfo->ri_RelationDesc);

	if (!planSlot || planSlot == slot || !rinfo->ri_projectNewInfoValid ||
		rinfo->ri_projectNew != NULL || rinfo->ri_RootResultRelInfo != NULL ||
		(rinfo->ri_TrigDesc && rinfo->ri_TrigDesc->trig_insert_before_row) ||
		(td->constr && td->constr->has_generated_stored) ||
		planSlot->tts_tupleDescriptor->natts != td->natts)
		return slot;
	return planSlot;
}

TupleTableSlot *
chfdwExecForeignInsert(EState *estate, ResultRelInfo *rinfo, TupleTableSlot *slot,
					   TupleTableSlot *planSlot)
{
	append_row((ChFdwModifyState *) rinfo->ri_FdwState, row_source(rinfo, slot, planSlot));
	return slot;
}

/*
 * Rows go one at a time (ExecForeignInsert), each converted straight into
 * the block's column buffers. A PostgreSQL batch (ExecForeignBatchInsert)
 * would be converted a column at a time, but ExecInsert first copies every
 * row twice (into the batch's slots and plan slots, each copy materialised)
 * and frees the copies after: measured on 1M rows (test/bench/insert.sh),
 * the backend spent 1.95 s of CPU that way against 1.45 s one row at a time.
 */
int
chfdwGetForeignModifyBatchSize(ResultRelInfo *rinfo)
{
	(void) rinfo;
	return 1;
}

void
chfdwEndForeignModify(EState *estate, ResultRelInfo *rinfo)
{
	ChFdwModifyState *st = (ChFdwModifyState *) rinfo->ri_FdwState;

	if (!st)
		return;
	send_block(st);
	pump_inflight(st, true);
	ch_writer_free(st->writer);
	st->writer = NULL;
	if (st->own_progress)
		pgstat_progress_end_command();
	st->own_progress = false;
}

/* COPY ft FROM ... and INSERT routed to a foreign partition: all columns. */
void
chfdwBeginForeignInsert(ModifyTableState *mtstate, ResultRelInfo *rinfo)
{
	Relation	rel = rinfo->ri_RelationDesc;
	TupleDesc	tupdesc = RelationGetDescr(rel);
	List	   *target_attrs = NIL;
	StringInfoData sql;
	int			attnum;

	for (attnum = 1; attnum <= tupdesc->natts; attnum++)
		if (!TupleDescAttr(tupdesc, attnum - 1)->attisdropped)
			target_attrs = lappend_int(target_attrs, attnum);
	initStringInfo(&sql);
	build_insert_sql(&sql, rel, target_attrs);
	rinfo->ri_FdwState = create_modify_state(mtstate->ps.state, rinfo, sql.data, target_attrs);
}

void
chfdwEndForeignInsert(EState *estate, ResultRelInfo *rinfo)
{
	chfdwEndForeignModify(estate, rinfo);
}

int
chfdwIsForeignRelUpdatable(Relation rel)
{
	return (1 << CMD_INSERT) | (1 << CMD_UPDATE) | (1 << CMD_DELETE);
}

void
chfdwExplainForeignModify(ModifyTableState *mtstate, ResultRelInfo *rinfo,
						  List *fdw_private, int subplan_index, ExplainState *es)
{
	if (es->verbose)
	{
		int			batch_size;
		bool		rowbinary;
		bool		defer;

		chfdw_get_write_options(rinfo->ri_RelationDesc, &batch_size, &rowbinary, &defer);
		ExplainPropertyText("Remote SQL",
							psprintf("%s FORMAT %s",
									 strVal(list_nth(fdw_private, FdwModifyPrivateInsertSql)),
									 rowbinary ? "RowBinary" : "Native"),
							es);
		ExplainPropertyInteger("Batch Size", NULL, batch_size, es);
		if (defer)
			ExplainPropertyText("Insert Commit", "at transaction commit", es);
	}
}
