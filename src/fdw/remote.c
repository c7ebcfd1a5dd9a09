/*-------------------------------------------------------------------------
 * remote.c
 *	  Small synchronous queries for metadata (system.columns, ...), read with
 *	  the same Native reader as scans: there is one reader, not a second
 *	  text parser.
 *
 * src/fdw/remote.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "chfdw.h"

typedef struct SyncQuery
{
	ch_native_reader *reader;
	chfdw_block_fn on_block;
	void	   *arg;
	const char *sql;
	bool		failed;
	ch_status	fail_status;
	ch_error	fail_err;
} SyncQuery;

/* Decode whole blocks as bytes arrive (called from the transport). */
static ch_status
sync_sink(void *ctx, const uint8_t *data, size_t len, ch_error *err)
{
	SyncQuery  *q = (SyncQuery *) ctx;

	return ch_native_reader_feed(q->reader, data, len, err);
}

static void
drain(SyncQuery *q, bool finished)
{
	for (;;)
	{
		ch_block   *b;
		ch_error	err;
		ch_status	st;

		ch_error_clear(&err);
		st = ch_native_reader_next(q->reader, &b, &err);
		if (st == CH_OK)
		{
			if (b->nrows > 0)
				q->on_block(b, q->arg);
			continue;
		}
		if (st == CH_NEED_MORE || st == CH_END)
			return;
		chfdw_report(ERROR, st, &err, q->sql, NULL);
	}
	(void) finished;
}

/*
 * Run sql (a SELECT ... FORMAT Native) and call on_block for each non-empty
 * block, in order. Errors are raised.
 */
void
chfdw_run_query(ChFdwConn *conn, const char *sql, const char *database,
				chfdw_block_fn on_block, void *arg)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "clickhouse_fdw query",
											  ALLOCSET_DEFAULT_SIZES);
	SyncQuery	q;
	char		query_id[96];
	ch_wait		wait;
	ch_http_conn *h;

	memset(&q, 0, sizeof(q));
	q.reader = ch_native_reader_create(chfdw_allocator(cxt), false, NULL);
	if (!q.reader)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	q.on_block = on_block;
	q.arg = arg;
	q.sql = sql;
	h = chfdw_begin_request(conn, sql, database, NULL, 0, sync_sink, &q, 0, NULL,
							query_id, sizeof(query_id));
	for (;;)
	{
		ch_error	err;
		ch_status	st;

		ch_error_clear(&err);
		st = ch_http_step(h, &wait, &err);
		drain(&q, false);
		if (st == CH_OK)
			break;
		if (st != CH_NEED_MORE)
			chfdw_report(ERROR, st, &err, sql, query_id);
		chfdw_wait(&wait);
	}
	ch_native_reader_finish(q.reader);
	drain(&q, true);
	MemoryContextDelete(cxt);
}

static char *
col_text(const ch_column *c, uint64 row)
{
	uint32		len;
	const uint8 *p;

	if (ch_type_unwrap(c->type)->kind != CH_T_STRING || c->type->kind != CH_T_STRING)
		elog(ERROR, "expected a String column from ClickHouse, got %s", c->type->name);
	p = ch_col_str(c, row, &len);
	return pnstrdup((const char *) p, len);
}

typedef struct ColumnsArg
{
	List	   *cols;
	MemoryContext cxt;
} ColumnsArg;

static void
columns_block(ch_block *b, void *arg)
{
	ColumnsArg *a = (ColumnsArg *) arg;
	MemoryContext old = MemoryContextSwitchTo(a->cxt);
	uint64		r;

	if (b->ncols != 3)
		elog(ERROR, "unexpected column count %llu from system.columns",
			 (unsigned long long) b->ncols);
	for (r = 0; r < b->nrows; r++)
	{
		ChFdwRemoteColumn *c = palloc(sizeof(ChFdwRemoteColumn));

		c->name = col_text(&b->cols[0], r);
		c->type_name = col_text(&b->cols[1], r);
		c->default_kind = col_text(&b->cols[2], r);
		a->cols = lappend(a->cols, c);
	}
	MemoryContextSwitchTo(old);
}

/*
 * The columns of a ClickHouse table from system.columns, in table order.
 * An unknown table is an error (undefined_table) unless missing_ok.
 */
List *
chfdw_remote_columns(ChFdwConn *conn, const char *database, const char *table,
					 bool missing_ok)
{
	StringInfoData sql;
	ColumnsArg	a;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT name, type, default_kind FROM system.columns WHERE database = ");
	chfdw_quote_literal(&sql, database);
	appendStringInfoString(&sql, " AND table = ");
	chfdw_quote_literal(&sql, table);
	appendStringInfoString(&sql, " FORMAT Native");
	a.cols = NIL;
	a.cxt = CurrentMemoryContext;
	chfdw_run_query(conn, sql.data, database, columns_block, &a);
	if (a.cols == NIL && !missing_ok)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("ClickHouse table \"%s.%s\" does not exist or has no columns",
						database, table)));
	return a.cols;
}

typedef struct SizeArg
{
	bool		found;
	bool		merge_tree;
	double		rows;
} SizeArg;

static void
size_block(ch_block *b, void *arg)
{
	SizeArg    *a = (SizeArg *) arg;
	char	   *engine;
	size_t		n;

	if (b->nrows == 0 || b->ncols != 2)
		return;
	engine = col_text(&b->cols[0], 0);
	n = strlen(engine);
	a->found = true;
	a->merge_tree = n >= 9 && strcmp(engine + n - 9, "MergeTree") == 0;
	a->rows = strtod(col_text(&b->cols[1], 0), NULL);
}

static void
count_block(ch_block *b, void *arg)
{
	double	   *count = (double *) arg;

	if (b->nrows == 1 && b->ncols == 1 && b->cols[0].type->kind == CH_T_UINT64)
		*count = (double) ch_le64(b->cols[0].data);
}

/* count() of a table (MergeTree answers it from part metadata). */
double
chfdw_remote_count(ChFdwConn *conn, const char *database, const char *table)
{
	StringInfoData sql;
	double		count = -1;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT count() FROM ");
	chfdw_quote_identifier(&sql, database);
	appendStringInfoChar(&sql, '.');
	chfdw_quote_identifier(&sql, table);
	appendStringInfoString(&sql, " FORMAT Native");
	chfdw_run_query(conn, sql.data, database, count_block, &count);
	if (count < 0)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_ERROR),
				 errmsg("unexpected answer to \"%s\"", sql.data)));
	pfree(sql.data);
	return count;
}

/*
 * The rows of a table: for the MergeTree family from the metadata of its
 * active parts (system.parts: no table data is read), for other engines
 * (Memory, Log, views, ...) their count(). -1 for an unknown table.
 */
double
chfdw_remote_table_rows(ChFdwConn *conn, const char *database, const char *table)
{
	StringInfoData sql;
	SizeArg		a = {false, false, 0};

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT engine, toString(ifNull((SELECT sum(rows) FROM system.parts"
						   " WHERE active AND database = ");
	chfdw_quote_literal(&sql, database);
	appendStringInfoString(&sql, " AND table = ");
	chfdw_quote_literal(&sql, table);
	appendStringInfoString(&sql, "), 0)) FROM system.tables WHERE database = ");
	chfdw_quote_literal(&sql, database);
	appendStringInfoString(&sql, " AND name = ");
	chfdw_quote_literal(&sql, table);
	appendStringInfoString(&sql, " FORMAT Native");
	chfdw_run_query(conn, sql.data, "system", size_block, &a);
	pfree(sql.data);
	if (!a.found)
		return -1;
	if (!a.merge_tree)
		return chfdw_remote_count(conn, database, table);
	return a.rows >= 0 ? a.rows : -1;
}

/*
 * The time zone of a DateTime/DateTime64 column (or of the DateTime inside
 * its arrays) as the catalog declares it: 18.16's HTTP answers drop it from
 * the block's type name. NULL when the column has none.
 */
const char *
chfdw_catalog_zone(List *catalog_columns, const char *remote_name)
{
	ListCell   *lc;

	foreach(lc, catalog_columns)
	{
		ChFdwRemoteColumn *c = (ChFdwRemoteColumn *) lfirst(lc);
		ch_arena	ar;
		ch_type    *t;
		ch_error	err;
		const char *zone = NULL;

		if (strcmp(c->name, remote_name) != 0)
			continue;
		ch_arena_init(&ar, NULL);
		ch_error_clear(&err);
		if (ch_type_parse(c->type_name, strlen(c->type_name), &ar, &t, &err) == CH_OK)
		{
			const ch_type *leaf = ch_type_unwrap(t);

			while (leaf->kind == CH_T_ARRAY)
				leaf = ch_type_unwrap(leaf->children[0]);
			if ((leaf->kind == CH_T_DATETIME || leaf->kind == CH_T_DATETIME64) && leaf->tz)
				zone = pstrdup(leaf->tz);
		}
		ch_arena_free(&ar);
		return zone;
	}
	return NULL;
}

static void
flag_block(ch_block *b, void *arg)
{
	int		   *flag = (int *) arg;

	if (b->nrows >= 1 && b->ncols == 1)
		*flag = strcmp(col_text(&b->cols[0], 0), "1") == 0 ? 1 : 0;
}

/*
 * Whether ClickHouse drops a block sent again with the same
 * insert_deduplication_token into this table: the Replicated*MergeTree
 * engines, and a MergeTree whose non_replicated_deduplication_window is
 * above 0 (its own setting, else the server's default from
 * system.merge_tree_settings). Only such a table may get a block whose
 * answer was lost a second time. False for an unknown table.
 */
bool
chfdw_table_deduplicates(ChFdwConn *conn, const char *database, const char *table)
{
	StringInfoData sql;
	int			flag = 0;

	initStringInfo(&sql);
	appendStringInfoString(&sql,
						   "SELECT toString(ifNull(toUInt8(engine LIKE 'Replicated%MergeTree' OR "
						   "(engine LIKE '%MergeTree' AND if(match(create_table_query, "
						   "'non_replicated_deduplication_window'), "
						   "toUInt64OrZero(extract(create_table_query, "
						   "'non_replicated_deduplication_window\\\\s*=\\\\s*(\\\\d+)')), "
						   "(SELECT toUInt64OrZero(any(value)) FROM system.merge_tree_settings "
						   "WHERE name = 'non_replicated_deduplication_window')) > 0)), 0)) "
						   "FROM system.tables WHERE database = ");
	chfdw_quote_literal(&sql, database);
	appendStringInfoString(&sql, " AND name = ");
	chfdw_quote_literal(&sql, table);
	appendStringInfoString(&sql, " FORMAT Native");
	chfdw_run_query(conn, sql.data, NULL, flag_block, &flag);
	pfree(sql.data);
	return flag == 1;
}
