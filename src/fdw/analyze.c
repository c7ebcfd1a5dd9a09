/*-------------------------------------------------------------------------
 * analyze.c
 *	  ANALYZE of a foreign table: a random sample of ClickHouse's rows for
 *	  PostgreSQL's statistics, so local plans around foreign tables are sane.
 *
 * The row count is ClickHouse's count() (MergeTree answers it from part
 * metadata). When the table holds more rows than the sample needs, the
 * query keeps each row with probability ~1.5 x targrows / count
 * (rand() < p * 2^32, so only about that many rows travel) and PostgreSQL's
 * reservoir sampling trims the surplus; memory holds targrows rows. Rows
 * are converted exactly as a scan converts them.
 *
 * src/fdw/analyze.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/sampling.h"

#include "chfdw.h"

typedef struct SampleState
{
	Relation	rel;
	TupleDesc	tupdesc;
	AttrNumber *attnums;		/* retrieved attributes, SELECT order */
	int			nretrieved;
	ChFdwColConv **conv;
	const ch_type **conv_types;
	List	   *catalog;		/* system.columns rows, for zones */
	bool		catalog_fetched;
	ChFdwConn  *conn;
	const char *database;
	const char *table;
	const char *sql;

	HeapTuple  *rows;
	int			targrows;
	int			numrows;
	double		samplerows;		/* rows seen */
	double		rowstoskip;
	ReservoirStateData rstate;
	MemoryContext anl_cxt;		/* where the sample lives */
	MemoryContext tmp_cxt;		/* one row's conversion */
	Datum	   *values;
	bool	   *nulls;
	const char *ctx_column;
} SampleState;

static void
sample_error_callback(void *arg)
{
	SampleState *ss = (SampleState *) arg;

	if (ss->ctx_column)
		errcontext("column \"%s\" of foreign table \"%s\"", ss->ctx_column,
				   RelationGetRelationName(ss->rel));
}

/* Converters for this block's column types (made again when they change). */
static void
prepare_converters(SampleState *ss, const ch_block *b)
{
	int			i;

	if (b->ncols != (uint64) Max(ss->nretrieved, 1))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_ERROR),
				 errmsg("ClickHouse returned %llu columns where %d were expected",
						(unsigned long long) b->ncols, Max(ss->nretrieved, 1)),
				 errcontext("remote SQL command: %s", ss->sql)));
	for (i = 0; i < ss->nretrieved; i++)
	{
		const ch_type *t = b->cols[i].type;
		Form_pg_attribute attr = TupleDescAttr(ss->tupdesc, ss->attnums[i] - 1);
		MemoryContext old;

		if (ss->conv_types[i] == t)
			continue;
		old = MemoryContextSwitchTo(ss->anl_cxt);
		ss->conv[i] = chfdw_make_converter(t, attr->atttypid, attr->atttypmod,
										   NameStr(attr->attname));
		if (chfdw_converter_needs_zone(ss->conv[i]))
		{
			const char *zone;

			if (!ss->catalog_fetched)
			{
				ss->catalog = chfdw_remote_columns(ss->conn, ss->database, ss->table, true);
				ss->catalog_fetched = true;
			}
			zone = chfdw_catalog_zone(ss->catalog,
									  chfdw_column_name(RelationGetRelid(ss->rel),
														ss->attnums[i]));
			if (zone)
				chfdw_converter_set_zone(ss->conv[i], zone);
		}
		ss->conv_types[i] = t;
		MemoryContextSwitchTo(old);
	}
}

static void
sample_block(const ch_block *b, void *arg)
{
	SampleState *ss = (SampleState *) arg;
	ErrorContextCallback errcb;
	uint64		row;

	if (b->nrows == 0)
		return;
	prepare_converters(ss, b);
	errcb.callback = sample_error_callback;
	errcb.arg = ss;
	errcb.previous = error_context_stack;
	error_context_stack = &errcb;
	for (row = 0; row < b->nrows; row++)
	{
		int			pos = -1;
		bool		replace = false;
		int			i;
		MemoryContext old;

		CHECK_FOR_INTERRUPTS();
		if (ss->numrows < ss->targrows)
			pos = ss->numrows++;
		else
		{
			/* reservoir sampling (Vitter's algorithm Z), as postgres_fdw */
			if (ss->rowstoskip < 0)
				ss->rowstoskip = reservoir_get_next_S(&ss->rstate, ss->samplerows,
													  ss->targrows);
			if (ss->rowstoskip <= 0)
			{
				pos = (int) (ss->targrows * sampler_random_fract(&ss->rstate.randstate));
				replace = true;
			}
			ss->rowstoskip -= 1;
		}
		ss->samplerows += 1;
		if (pos < 0)
			continue;

		MemoryContextReset(ss->tmp_cxt);
		old = MemoryContextSwitchTo(ss->tmp_cxt);
		memset(ss->nulls, true, sizeof(bool) * ss->tupdesc->natts);
		for (i = 0; i < ss->nretrieved; i++)
		{
			int			att = ss->attnums[i] - 1;

			ss->ctx_column = NameStr(TupleDescAttr(ss->tupdesc, att)->attname);
			chfdw_convert(ss->conv[i], &b->cols[i], row, &ss->values[att], &ss->nulls[att]);
		}
		ss->ctx_column = NULL;
		MemoryContextSwitchTo(ss->anl_cxt);
		if (replace)
			heap_freetuple(ss->rows[pos]);
		ss->rows[pos] = heap_form_tuple(ss->tupdesc, ss->values, ss->nulls);
		MemoryContextSwitchTo(old);
	}
	error_context_stack = errcb.previous;
}

static int
acquire_sample_rows(Relation relation, int elevel, HeapTuple *rows, int targrows,
					double *totalrows, double *totaldeadrows)
{
	SampleState ss;
	ForeignTable *table = GetForeignTable(RelationGetRelid(relation));
	UserMapping *user = GetUserMapping(relation->rd_rel->relowner, table->serverid);
	Bitmapset  *attrs = NULL;
	List	   *retrieved;
	StringInfoData sql;
	double		count;
	ListCell   *lc;
	int			i;

	memset(&ss, 0, sizeof(ss));
	ss.rel = relation;
	ss.tupdesc = RelationGetDescr(relation);
	ss.conn = chfdw_get_connection(user);
	chfdw_get_table_names(relation, &ss.database, &ss.table);
	ss.rows = rows;
	ss.targrows = targrows;
	ss.rowstoskip = -1;
	ss.anl_cxt = CurrentMemoryContext;
	ss.tmp_cxt = AllocSetContextCreate(CurrentMemoryContext, "clickhouse_fdw analyze",
									   ALLOCSET_SMALL_SIZES);
	ss.values = palloc0(sizeof(Datum) * Max(ss.tupdesc->natts, 1));
	ss.nulls = palloc0(sizeof(bool) * Max(ss.tupdesc->natts, 1));
	reservoir_init_selection_state(&ss.rstate, targrows);

	count = chfdw_remote_count(ss.conn, ss.database, ss.table);

	/* every column (the whole row) */
	attrs = bms_add_member(attrs, 0 - FirstLowInvalidHeapAttributeNumber);
	initStringInfo(&sql);
	chfdw_deparse_select(&sql, NULL, NULL, relation, attrs, &retrieved);
	if (count > targrows)
	{
		double		p = Min(1.0, 1.5 * targrows / count);

		appendStringInfo(&sql, " WHERE rand() < %.0f", p * 4294967296.0);
	}
	appendStringInfoString(&sql, " FORMAT Native");
	ss.sql = sql.data;
	ss.nretrieved = list_length(retrieved);
	ss.attnums = palloc(sizeof(AttrNumber) * Max(ss.nretrieved, 1));
	ss.conv = palloc0(sizeof(ChFdwColConv *) * Max(ss.nretrieved, 1));
	ss.conv_types = palloc0(sizeof(ch_type *) * Max(ss.nretrieved, 1));
	i = 0;
	foreach(lc, retrieved)
		ss.attnums[i++] = (AttrNumber) lfirst_int(lc);

	chfdw_run_query(ss.conn, ss.sql, ss.database, sample_block, &ss);
	MemoryContextDelete(ss.tmp_cxt);

	*totalrows = count;
	*totaldeadrows = 0;
	ereport(elevel,
			(errmsg("\"%s\": ClickHouse table %s.%s has %.0f rows; %.0f rows read, %d rows in sample",
					RelationGetRelationName(relation), ss.database, ss.table, count,
					ss.samplerows, ss.numrows)));
	return ss.numrows;
}

bool
chfdwAnalyzeForeignTable(Relation relation, AcquireSampleRowsFunc *func,
						 BlockNumber *totalpages)
{
	*func = acquire_sample_rows;
	/* no pages: a nominal one, so the planner does not take it as empty */
	*totalpages = 1;
	return true;
}
