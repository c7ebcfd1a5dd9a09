/*-------------------------------------------------------------------------
 * chfdw.c
 *	  clickhouse_fdw: handler and FDW callbacks (planning and scanning).
 *
 * A scan sends "SELECT <needed columns> FROM `db`.`table` FORMAT Native"
 * over the server's transport (ch_transport.h: HTTP or the native
 * protocol) and reads the result block by block as it streams in:
 * the backend holds one block (plus what the transport delivered after it)
 * however large the result. Plain EXPLAIN never connects (but to plan a
 * window or grouping set: window.c asks the server version once).
 *
 * Memory: scan state lives in the executor's per-query context; the Native
 * reader and its buffer in a scan context; tuple values in a row context
 * reset before every row.
 *
 * src/fdw/chfdw.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>
#include <lz4.h>
#include <zstd.h>

#include "access/htup_details.h"
#include "access/table.h"
#include "commands/explain.h"
#include "executor/execAsync.h"
#include "executor/executor.h"
#include "executor/nodeAppend.h"
#include "foreign/fdwapi.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/paths.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/selfuncs.h"
#include "optimizer/pathnode.h"
#include "optimizer/planmain.h"
#include "optimizer/restrictinfo.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/guc.h"
#include "utils/rel.h"
#include "utils/timestamp.h"

#include "chfdw.h"

PG_MODULE_MAGIC;

#define CHFDW_VERSION "1.2"
#define DEFAULT_ROWS 1000
#define REMOTE_AGG_CREDIT 2.0	/* see chfdwGetForeignUpperPaths */
#define SCAN_CHUNK 256			/* rows converted at a time, a column after the other */

/* Indexes into ForeignScan.fdw_private. */
enum FdwScanPrivateIndex
{
	FdwScanPrivateSelectSql,	/* remote SQL (String) */
	FdwScanPrivateRetrievedAttrs,	/* attnums in SELECT-list order (IntList) */
	FdwScanPrivateZone,			/* TimeZone the SQL depends on, or "" (String) */
	FdwScanPrivateFinish,		/* per retrieved column: CHFDW_FINISH_* (IntList) */
	FdwScanPrivateRelations		/* a join's relations, for EXPLAIN (String; joins only) */
};

/* Per-scan execution state. */
typedef struct ChFdwScanState
{
	const char *relname;		/* the foreign table, for messages */
	Oid			relid;			/* the foreign table */
	bool		base_scan;		/* scanrelid > 0: columns are table columns */
	const char *remote_table;
	List	   *catalog_columns;	/* system.columns, fetched when needed */
	bool		catalog_fetched;
	TupleDesc	tupdesc;
	char	   *sql;			/* as sent (run-time values written in) */
	char	   *sql_template;	/* as planned, with run-time value markers */
	List	   *param_exprs;	/* ExprStates of the run-time values */
	ExprContext *econtext;
	List	   *retrieved_attrs;
	int			nretrieved;
	AttrNumber *attnums;		/* retrieved_attrs as an array */
	AttrNumber *table_attnums;	/* a base scan with fdw_scan_tlist (chfuncs.c):
								 * each retrieved column's table column, 0
								 * for an expression; NULL: attnums are */
	const char *database;
	ChFdwConn  *conn;
	ch_conn    *req;			/* the handle running this scan's query */
	uint64		req_number;		/* ... and its request number on it */
	char		query_id[96];
	ch_request_stats remote;	/* its counters, at its end (EXPLAIN ANALYZE) */
	bool		have_remote;

	MemoryContext scan_cxt;		/* the scan's arrays, catalog columns */
	MemoryContext run_cxt;		/* one (re)scan: reader, converters, bound SQL */
	MemoryContext row_cxt;		/* values of the current row */
	MemoryContext block_cxt;	/* one block: dictionaries converted in bulk */
	MemoryContext chunk_cxt;	/* values of the current chunk of rows */
	bool		started;
	bool		finished;		/* the request ended (the result, an error) */
	/* run by an async Append (ForeignAsyncRequest and friends, below) */
	bool		async;			/* node->ss.ps.async_capable */
	bool		async_eof;		/* the result is complete */
	bool		async_waiting;	/* no block ready: wait on async_wait */
	bool		async_waiting_handle;	/* not started: the pool is busy */
	ch_wait		async_wait;
	const ch_block *block;		/* valid until the next pull */
	uint64		row;			/* next row of block */
	ChFdwColConv **conv;		/* per retrieved column */
	int		   *finish;			/* per retrieved column: CHFDW_FINISH_* */
	const ch_type **conv_types; /* the types conv was made for */
	bool	   *bulk;			/* per retrieved column: converted a chunk at a time */
	Datum	   *chunk_values;	/* the chunk's values, row after row (nretrieved a row) */
	bool	   *chunk_nulls;	/* ... and their NULL flags */
	uint64	   *bulk_end;		/* per column: rows before this one are in the chunk */
	uint64		chunk_first;	/* the chunk: rows [chunk_first, chunk_end) of block */
	uint64		chunk_end;
	bool		chunk_all_bulk; /* every column of every row of the chunk converted */
	bool		dense;			/* column i is attribute i + 1, all of them retrieved */
	char	  **conv_names;		/* ... and their names */
	MemoryContext *conv_cxt;	/* per retrieved column: its converter's
								 * memory, reset when the block type changes */
	uint64		rows_returned;

	/* for error context */
	const char *ctx_column;
	const char *key_list;		/* a key join's batch of keys (keyjoin.c) */
	ChFdwParallelScan *par;		/* a parallel-aware scan's ranges (parallel.c) */
} ChFdwScanState;

/* GUC clickhouse_fdw.settings: ClickHouse settings for every remote query */
char	   *chfdw_guc_settings = NULL;

/* GUC clickhouse_fdw.insert_key: makes re-runs of a load idempotent */
char	   *chfdw_guc_insert_key = NULL;

void		_PG_init(void);

/* A load key: 1 to 100 letters, digits and "_-.:" (it goes into tokens). */
static bool
check_insert_key_guc(char **newval, void **extra, GucSource source)
{
	size_t		n;

	if (*newval == NULL || (*newval)[0] == '\0')
		return true;
	n = strlen(*newval);
	if (n > 100 ||
		strspn(*newval, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:") != n)
	{
		GUC_check_errmsg("invalid clickhouse_fdw.insert_key \"%s\"", *newval);
		GUC_check_errdetail("A load key is 1 to 100 letters, digits, \"_\", \"-\", \".\" and \":\".");
		return false;
	}
	return true;
}

static bool
check_settings_guc(char **newval, void **extra, GucSource source)
{
	List	   *l = NIL;
	MemoryContext old = CurrentMemoryContext;
	bool		ok = true;

	if (*newval == NULL || (*newval)[0] == '\0')
		return true;
	PG_TRY();
	{
		chfdw_parse_settings(*newval, "clickhouse_fdw.settings", &l);
	}
	PG_CATCH();
	{
		ErrorData  *ed;

		MemoryContextSwitchTo(old);
		ed = CopyErrorData();
		FlushErrorState();
		GUC_check_errmsg("%s", ed->message);
		if (ed->detail)
			GUC_check_errdetail("%s", ed->detail);
		GUC_check_errhint("%s", ed->hint ? ed->hint :
						  "Settings look like 'max_threads=4, max_memory_usage=1e10'.");
		FreeErrorData(ed);
		ok = false;
	}
	PG_END_TRY();
	return ok;
}

void
_PG_init(void)
{
	DefineCustomStringVariable("clickhouse_fdw.settings",
							   "ClickHouse settings sent with every remote query.",
							   "A list like 'max_threads=4, max_memory_usage=1e10'; it adds to the "
							   "server's and user mapping's option \"settings\" (it cannot change them).",
							   &chfdw_guc_settings, "", PGC_USERSET, 0,
							   check_settings_guc, NULL, NULL);
	DefineCustomStringVariable("clickhouse_fdw.insert_key",
							   "Load key that makes a re-run of an INSERT or COPY write nothing twice.",
							   "Each block's insert_deduplication_token becomes the key, the table and "
							   "the block's number; needs ClickHouse 22.2+ and a deduplicating table.",
							   &chfdw_guc_insert_key, "", PGC_USERSET, 0,
							   check_insert_key_guc, NULL, NULL);
	chfdw_keyjoin_init();
	chfdw_subquery_init();
	MarkGUCPrefixReserved("clickhouse_fdw");
	chfdw_stats_init();
}

PG_FUNCTION_INFO_V1(clickhouse_fdw_handler);
PG_FUNCTION_INFO_V1(clickhouse_fdw_version);

static void chfdwGetForeignRelSize(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid);
static void chfdwGetForeignPaths(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid);
static ForeignScan *chfdwGetForeignPlan(PlannerInfo *root, RelOptInfo *baserel,
										Oid foreigntableid, ForeignPath *best_path,
										List *tlist, List *scan_clauses, Plan *outer_plan);
static void chfdwBeginForeignScan(ForeignScanState *node, int eflags);
static TupleTableSlot *chfdwIterateForeignScan(ForeignScanState *node);
static void chfdwReScanForeignScan(ForeignScanState *node);
static bool next_range(ChFdwScanState *st);
static void chfdwEndForeignScan(ForeignScanState *node);
static void chfdwExplainForeignScan(ForeignScanState *node, ExplainState *es);
static bool chfdwIsForeignPathAsyncCapable(ForeignPath *path);
static void chfdwForeignAsyncRequest(AsyncRequest *areq);
static void chfdwForeignAsyncConfigureWait(AsyncRequest *areq);
static void chfdwForeignAsyncNotify(AsyncRequest *areq);
static void add_request_stats(ch_request_stats *sum, const ch_request_stats *rs);
static void chfdwGetForeignUpperPaths(PlannerInfo *root, UpperRelationKind stage,
									  RelOptInfo *input_rel, RelOptInfo *output_rel,
									  void *extra);

Datum
clickhouse_fdw_handler(PG_FUNCTION_ARGS)
{
	FdwRoutine *routine = makeNode(FdwRoutine);

	routine->GetForeignRelSize = chfdwGetForeignRelSize;
	routine->GetForeignPaths = chfdwGetForeignPaths;
	routine->GetForeignPlan = chfdwGetForeignPlan;
	routine->BeginForeignScan = chfdwBeginForeignScan;
	routine->IterateForeignScan = chfdwIterateForeignScan;
	routine->ReScanForeignScan = chfdwReScanForeignScan;
	routine->EndForeignScan = chfdwEndForeignScan;
	routine->ExplainForeignScan = chfdwExplainForeignScan;
	routine->IsForeignPathAsyncCapable = chfdwIsForeignPathAsyncCapable;
	routine->ForeignAsyncRequest = chfdwForeignAsyncRequest;
	routine->ForeignAsyncConfigureWait = chfdwForeignAsyncConfigureWait;
	routine->ForeignAsyncNotify = chfdwForeignAsyncNotify;
	routine->GetForeignUpperPaths = chfdwGetForeignUpperPaths;
	routine->GetForeignJoinPaths = chfdwGetForeignJoinPaths;
	/* parallel scans (parallel.c) */
	routine->IsForeignScanParallelSafe = chfdwIsForeignScanParallelSafe;
	routine->EstimateDSMForeignScan = chfdwEstimateDSMForeignScan;
	routine->InitializeDSMForeignScan = chfdwInitializeDSMForeignScan;
	routine->ReInitializeDSMForeignScan = chfdwReInitializeDSMForeignScan;
	routine->InitializeWorkerForeignScan = chfdwInitializeWorkerForeignScan;

	routine->PlanForeignModify = chfdwPlanForeignModify;
	routine->BeginForeignModify = chfdwBeginForeignModify;
	routine->ExecForeignInsert = chfdwExecForeignInsert;
	routine->GetForeignModifyBatchSize = chfdwGetForeignModifyBatchSize;
	routine->EndForeignModify = chfdwEndForeignModify;
	routine->BeginForeignInsert = chfdwBeginForeignInsert;
	routine->EndForeignInsert = chfdwEndForeignInsert;
	routine->IsForeignRelUpdatable = chfdwIsForeignRelUpdatable;
	routine->ExplainForeignModify = chfdwExplainForeignModify;

	routine->PlanDirectModify = chfdwPlanDirectModify;
	routine->BeginDirectModify = chfdwBeginDirectModify;
	routine->IterateDirectModify = chfdwIterateDirectModify;
	routine->EndDirectModify = chfdwEndDirectModify;
	routine->ExplainDirectModify = chfdwExplainDirectModify;
	routine->ExecForeignTruncate = chfdwExecForeignTruncate;
	routine->ExecForeignUpdate = chfdwExecForeignUpdateOrDelete;
	routine->ExecForeignDelete = chfdwExecForeignUpdateOrDelete;
	routine->ImportForeignSchema = chfdwImportForeignSchema;
	routine->AnalyzeForeignTable = chfdwAnalyzeForeignTable;
	PG_RETURN_POINTER(routine);
}

/*
 * Versions of the extension and the libraries it runs with.
 */
Datum
clickhouse_fdw_version(PG_FUNCTION_ARGS)
{
	char		buf[512];

	snprintf(buf, sizeof(buf), "clickhouse_fdw %s, %s, lz4 %s, zstd %s",
			 CHFDW_VERSION, ch_transport_library_versions(), LZ4_versionString(),
			 ZSTD_versionString());
	PG_RETURN_TEXT_P(cstring_to_text(buf));
}

/* ---------------------------------------------------------------- planning */

/*
 * use_remote_estimate: the table's row count as ClickHouse's part metadata
 * has it (MergeTree family); -1 (the default estimate) for other engines.
 */
static double
remote_table_rows(RelOptInfo *baserel, Oid relid)
{
	ForeignTable *table = GetForeignTable(relid);
	Oid			userid = OidIsValid(baserel->userid) ? baserel->userid : GetUserId();
	ChFdwConn  *conn = chfdw_get_connection(GetUserMapping(userid, table->serverid));
	Relation	rel = table_open(relid, NoLock);
	const char *database;
	const char *tabname;
	double		rows;

	chfdw_get_table_names(rel, &database, &tabname);
	rows = chfdw_remote_table_rows(conn, database, tabname);
	table_close(rel, NoLock);
	/* an empty table: as the planner's empty relations, not 0 */
	return rows == 0 ? 1 : rows;
}

/* Is rel a foreign table of this FDW (subquery.c)? */
bool
chfdw_is_our_rel(RelOptInfo *rel)
{
	return rel->fdwroutine && rel->fdwroutine->GetForeignRelSize == chfdwGetForeignRelSize;
}

static void
chfdwGetForeignRelSize(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid)
{
	ChFdwRelInfo *fpinfo = palloc0(sizeof(ChFdwRelInfo));
	ListCell   *lc;

	fpinfo->relid = foreigntableid;
	fpinfo->serverid = baserel->serverid;
	fpinfo->userid = OidIsValid(baserel->userid) ? baserel->userid : GetUserId();
	fpinfo->alias_like = chfdw_alias_like_columns(foreigntableid);
	/* correlated subqueries of its conditions ClickHouse can compute (subquery.c) */
	baserel->fdw_private = fpinfo;
	fpinfo->subplans = chfdw_subplans_prepare(root, baserel, fpinfo);
	foreach(lc, baserel->baserestrictinfo)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		Expr	   *eq;

		if (chfdw_is_shippable(root, baserel, foreigntableid, ri->clause))
			fpinfo->remote_conds = lappend(fpinfo->remote_conds, ri);
		else if (!ri->pseudoconstant &&
				 (eq = chfdw_rewrite_cond(baserel, ri->clause)) != NULL &&
				 chfdw_is_shippable(root, baserel, foreigntableid, eq))
		{
			/* sent as an equivalent condition (rewrite.c: ts::date = D) */
			RestrictInfo *nri = make_simple_restrictinfo(root, eq);

			fpinfo->remote_conds = lappend(fpinfo->remote_conds, nri);
			fpinfo->rewritten_from = lappend(fpinfo->rewritten_from, ri);
			fpinfo->rewritten_to = lappend(fpinfo->rewritten_to, nri);
		}
		else
		{
			fpinfo->local_conds = lappend(fpinfo->local_conds, ri);
			chfdw_prefilter_add(root, baserel, foreigntableid, ri);	/* (casts2) */
		}
	}
	baserel->fdw_private = fpinfo;
	if (baserel->tuples <= 0 && chfdw_use_remote_estimate(foreigntableid))
		baserel->tuples = remote_table_rows(baserel, foreigntableid);
	if (baserel->tuples <= 0)
		baserel->tuples = DEFAULT_ROWS;
	baserel->rows = clamp_row_est(baserel->tuples *
								  clauselist_selectivity(root, baserel->baserestrictinfo,
														 0, JOIN_INNER, NULL));
	fpinfo->scanned = baserel->tuples;
}

/* For generate_implied_equalities_for_column: one EC member at a time. */
typedef struct EcMemberArg
{
	Expr	   *current;		/* the member being looked at */
	List	   *already_used;	/* members looked at before */
} EcMemberArg;

static bool
ec_member_of_foreign(PlannerInfo *root, RelOptInfo *rel, EquivalenceClass *ec,
					 EquivalenceMember *em, void *arg)
{
	EcMemberArg *a = (EcMemberArg *) arg;
	Expr	   *expr = em->em_expr;

	(void) root;
	(void) rel;
	(void) ec;
	if (a->current)
		return equal(expr, a->current);
	if (list_member(a->already_used, expr))
		return false;
	a->current = expr;
	return true;
}

/* A join clause usable in a parameterized scan of baserel, if shippable. */
static void
add_param_clause(PlannerInfo *root, RelOptInfo *baserel, Oid relid, RestrictInfo *ri,
				 List **ppis)
{
	Relids		required_outer;
	ParamPathInfo *ppi;

	if (!join_clause_is_movable_to(ri, baserel) ||
		!chfdw_is_shippable_join(baserel, relid, ri->clause))
		return;
	required_outer = bms_union(ri->clause_relids, baserel->lateral_relids);
	required_outer = bms_del_member(required_outer, baserel->relid);
	if (bms_is_empty(required_outer))
		return;
	ppi = get_baserel_parampathinfo(root, baserel, required_outer);
	*ppis = list_append_unique_ptr(*ppis, ppi);
}

/*
 * The cost of one remote query returning rows of a table of tuples rows:
 * ClickHouse reads rows far faster than they travel and are converted.
 */
static Cost
remote_cost(double tuples, double rows)
{
	return DEFAULT_STARTUP_COST + tuples * REMOTE_SCAN_ROW_COST +
		rows * (DEFAULT_ROW_COST + cpu_tuple_cost);
}

/*
 * The cost of a plain scan of baserel, serial or shared among parallel
 * participants (the same measure, so the planner can weigh them): every row
 * the sent WHERE lets through travels and is converted, then the local
 * conditions run on it (as postgres_fdw charges its local conditions). A
 * large scan costs what PostgreSQL's own work on its rows costs, so the
 * planner treats it as it treats a heap scan of as many rows (JIT-compiled
 * conditions above jit_above_cost, parallel plans).
 */
Cost
chfdw_scan_cost(PlannerInfo *root, RelOptInfo *baserel, List *remote_conds, List *local_conds)
{
	double		retrieved = clamp_row_est(baserel->tuples *
										  clauselist_selectivity(root, remote_conds,
																 baserel->relid,
																 JOIN_INNER, NULL));
	QualCost	qcost;

	cost_qual_eval(&qcost, local_conds, root);
	return DEFAULT_STARTUP_COST + baserel->tuples * REMOTE_SCAN_ROW_COST +
		retrieved * (DEFAULT_ROW_COST + cpu_tuple_cost + qcost.per_tuple) + qcost.startup;
}

static int64 pushable_limit(PlannerInfo *root, RelOptInfo *rel, ForeignPath *best_path,
							ChFdwRelInfo *fpinfo);

static void
chfdwGetForeignPaths(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid)
{
	ChFdwRelInfo *fpinfo = (ChFdwRelInfo *) baserel->fdw_private;
	Cost		total = chfdw_scan_cost(root, baserel, fpinfo->remote_conds,
										fpinfo->local_conds);
	List	   *ppis = NIL;
	ListCell   *lc;

	add_path(baserel, (Path *) create_foreignscan_path(root, baserel, NULL,
													   baserel->rows,
													   DEFAULT_STARTUP_COST, total,
													   NIL, NULL, NULL, NIL));
	/* split into ranges read by parallel workers, where asked for (parallel.c) */
	chfdw_add_partial_path(root, baserel, foreigntableid, DEFAULT_STARTUP_COST, total);
	/* the query's ORDER BY, sorted by ClickHouse */
	if (root->query_pathkeys &&
		chfdw_pathkeys_shippable(baserel, fpinfo->relid, root->query_pathkeys, NIL))
	{
		ForeignPath *sorted = create_foreignscan_path(root, baserel, NULL, baserel->rows,
													  DEFAULT_STARTUP_COST, total * 1.01 + 1,
													  root->query_pathkeys, NULL, NULL, NIL);
		int64		limit = pushable_limit(root, baserel, sorted, fpinfo);

		/*
		 * (topn) with the query's LIMIT sent too, ClickHouse returns only
		 * the top rows: only they travel, never more than the unsorted
		 * scan's, and no local sort is needed. Otherwise a local top-N
		 * sort of a few estimated rows (a table without statistics: 5 of a
		 * default 1000) looked cheaper, and every matching row came over.
		 */
		if (limit >= 0)
			sorted->path.total_cost = Min(sorted->path.total_cost,
										  remote_cost(baserel->tuples,
													  Min((double) limit, baserel->rows)));
		add_path(baserel, (Path *) sorted);
	}

	/*
	 * Parameterized scans for joins with other relations (a local table of
	 * a few keys, say): one remote query per outer row with the join
	 * clause's outer value written in, instead of the whole table.
	 */
	foreach(lc, baserel->joininfo)
		add_param_clause(root, baserel, foreigntableid, lfirst_node(RestrictInfo, lc), &ppis);
	if (baserel->has_eclass_joins)
	{
		EcMemberArg arg;

		arg.already_used = NIL;
		for (;;)
		{
			List	   *clauses;

			arg.current = NULL;
			clauses = generate_implied_equalities_for_column(root, baserel,
															 ec_member_of_foreign,
															 (void *) &arg,
															 baserel->lateral_referencers);
			if (!arg.current)
				break;
			foreach(lc, clauses)
				add_param_clause(root, baserel, foreigntableid,
								 lfirst_node(RestrictInfo, lc), &ppis);
			arg.already_used = lappend(arg.already_used, arg.current);
		}
	}
	foreach(lc, ppis)
	{
		ParamPathInfo *ppi = (ParamPathInfo *) lfirst(lc);

		add_path(baserel, (Path *) create_foreignscan_path(root, baserel, NULL, ppi->ppi_rows,
														   DEFAULT_STARTUP_COST,
														   remote_cost(baserel->tuples,
																	   ppi->ppi_rows),
														   NIL, ppi->ppi_req_outer,
														   NULL, NIL));
	}
}

/*
 * The row count ClickHouse may stop at: the query's LIMIT (plus OFFSET),
 * when this scan is the whole query and nothing is filtered or reordered
 * locally. The local Limit node still applies LIMIT and OFFSET. -1: none.
 */
static int64
pushable_limit(PlannerInfo *root, RelOptInfo *rel, ForeignPath *best_path,
			   ChFdwRelInfo *fpinfo)
{
	Query	   *parse = root->parse;
	int64		count,
				offset = 0;

	if (!parse->limitCount || parse->limitOption != LIMIT_OPTION_COUNT ||
		fpinfo->local_conds != NIL ||
		/* grouping sets, windows, DISTINCT: when ClickHouse computes them (window.c) */
		(parse->groupingSets && !fpinfo->grouping_sets) ||
		(parse->hasWindowFuncs && fpinfo->stage != UPPERREL_WINDOW) ||
		(parse->distinctClause && fpinfo->stage != UPPERREL_DISTINCT) ||
		parse->hasTargetSRFs || parse->rowMarks ||
		parse->setOperations ||
		!bms_equal(fpinfo->is_upper ? fpinfo->outerrel->relids : rel->relids,
				   root->all_baserels) ||
		best_path->path.param_info != NULL)
		return -1;
	/*
	 * A scan: nothing aggregated above it. A grouped relation: ClickHouse
	 * computed the groups and all of HAVING (GetForeignUpperPaths).
	 */
	if (fpinfo->is_upper ? rel->reloptkind != RELOPT_UPPER_REL :
		((rel->reloptkind != RELOPT_BASEREL && rel->reloptkind != RELOPT_JOINREL) ||
		 parse->hasAggs || parse->groupClause ||
		 parse->havingQual || root->hasHavingQual))
		return -1;
	if (root->sort_pathkeys &&
		!pathkeys_contained_in(root->sort_pathkeys, best_path->path.pathkeys))
		return -1;
	if (!IsA(parse->limitCount, Const) || ((Const *) parse->limitCount)->constisnull)
		return -1;
	count = DatumGetInt64(((Const *) parse->limitCount)->constvalue);
	if (parse->limitOffset)
	{
		if (!IsA(parse->limitOffset, Const))
			return -1;
		if (!((Const *) parse->limitOffset)->constisnull)
			offset = DatumGetInt64(((Const *) parse->limitOffset)->constvalue);
	}
	if (count < 0 || offset < 0 || count > PG_INT64_MAX - offset)
		return -1;
	return count + offset;
}

/*
 * The GROUP BY keys of the grouped relation, in its target's own
 * expressions (a partition's Vars in partition-wise aggregation, as
 * postgres_fdw reads grouped_rel->reltarget): the target entry carrying
 * each grouping clause's sortgroupref. NIL with *ok false when one is not
 * in the target.
 */
static List *
target_group_exprs(Query *parse, PathTarget *target, bool *ok)
{
	List	   *keys = NIL;
	ListCell   *lc;

	*ok = true;
	foreach(lc, parse->groupClause)
	{
		SortGroupClause *sgc = lfirst_node(SortGroupClause, lc);
		ListCell   *lt;
		Expr	   *found = NULL;
		int			i = 0;

		foreach(lt, target->exprs)
		{
			if (get_pathtarget_sortgroupref(target, i++) == sgc->tleSortGroupRef)
			{
				found = (Expr *) lfirst(lt);
				break;
			}
		}
		if (!found)
		{
			*ok = false;
			return NIL;
		}
		keys = lappend(keys, found);
	}
	return keys;
}

/*
 * A grouping key, or a grouping column under another collation or type
 * label (ORDER BY k COLLATE "C" adds such an output): the same value in
 * every row of a group.
 */
static bool
is_group_column(List *group_exprs, Expr *e)
{
	ListCell   *lc;

	while (e && IsA(e, RelabelType))
		e = ((RelabelType *) e)->arg;
	if (!e)
		return false;
	foreach(lc, group_exprs)
	{
		Expr	   *g = (Expr *) lfirst(lc);

		while (g && IsA(g, RelabelType))
			g = ((RelabelType *) g)->arg;
		if (equal(g, e))
			return true;
	}
	return false;
}

/*
 * Can ClickHouse return every aggregate and grouping column expr uses (so
 * PostgreSQL computes expr from them)? They are added to *tlist.
 */
static bool
shippable_pieces(List *group_exprs, RelOptInfo *input_rel, Oid relid, Node *expr, List **tlist)
{
	List	   *pieces = pull_var_clause(expr, PVC_INCLUDE_AGGREGATES);
	ListCell   *lc;

	foreach(lc, pieces)
	{
		Expr	   *piece = (Expr *) lfirst(lc);

		if (IsA(piece, Aggref) ?
			!chfdw_is_shippable_grouping_expr(input_rel, relid, piece, false) :
			!(is_group_column(group_exprs, piece) &&
			  chfdw_is_shippable_grouping_expr(input_rel, relid, piece, true)))
			return false;
	}
	*tlist = add_to_flat_tlist(*tlist, pieces);
	return true;
}

/*
 * GROUP BY and aggregates over one foreign table (or a pushed join),
 * computed by ClickHouse: only when every condition is remote, every GROUP
 * BY key is a column or a value ClickHouse computes with exact equality,
 * every output is a key, a shippable aggregate or an expression PostgreSQL
 * computes from those, and HAVING clauses ClickHouse cannot evaluate are
 * made of such pieces (they are evaluated here over the returned groups,
 * as postgres_fdw's local HAVING conditions). Also per partition in
 * partition-wise aggregation: a partition's whole groups (GROUP BY the
 * partition key) or its partial aggregates (see below).
 */
static void
chfdwGetForeignUpperPaths(PlannerInfo *root, UpperRelationKind stage,
						  RelOptInfo *input_rel, RelOptInfo *output_rel, void *extra)
{
	ChFdwRelInfo *ifpinfo = (ChFdwRelInfo *) input_rel->fdw_private;
	GroupPathExtraData *gx = (GroupPathExtraData *) extra;
	Query	   *parse = root->parse;
	PathTarget *target;
	ChFdwRelInfo *fpinfo;
	List	   *tlist = NIL;
	List	   *remote_having = NIL;
	List	   *local_having = NIL;
	List	   *group_exprs;
	ListCell   *lc;
	double		ngroups;
	Cost		startup,
				total;
	int			i;
	bool		ok;
	bool		child;
	bool		partial;
	bool		may_raise;
	bool		as_union = false;

	/* DISTINCT and windows over what ClickHouse computes (window.c) */
	if (stage == UPPERREL_DISTINCT)
		chfdw_distinct_paths(root, input_rel, output_rel);
	if (stage == UPPERREL_WINDOW)
		chfdw_window_paths(root, input_rel, output_rel);
	if ((stage != UPPERREL_GROUP_AGG && stage != UPPERREL_PARTIAL_GROUP_AGG) || !ifpinfo ||
		ifpinfo->is_upper || output_rel->fdw_private)
		return;
	/*
	 * A partition of a partition-wise aggregation: its whole groups (GROUP
	 * BY the partition key), or its part of each group (partial: the
	 * aggregates whose transition value ClickHouse returns exactly, see
	 * chfdw_is_shippable_grouping_expr; PostgreSQL combines the parts).
	 * Partial aggregation of a whole table (parallel plans) is not offered.
	 */
	child = IS_OTHER_REL(input_rel);
	partial = stage == UPPERREL_PARTIAL_GROUP_AGG;
	if (child ? (gx->patype != (partial ? PARTITIONWISE_AGGREGATE_PARTIAL :
								PARTITIONWISE_AGGREGATE_FULL) ||
				 input_rel->reloptkind != RELOPT_OTHER_MEMBER_REL) :
		(partial || gx->patype != PARTITIONWISE_AGGREGATE_NONE ||
		 (input_rel->reloptkind != RELOPT_BASEREL && !ifpinfo->is_join)))
		return;
	if (ifpinfo->local_conds != NIL ||
		(!parse->hasAggs && parse->groupClause == NIL))
		return;
	/* the grouped relation's own target: a partition's is translated */
	target = output_rel->reltarget;
	/* GROUPING() only with grouping sets ClickHouse computes (window.c) */
	if (!parse->groupingSets && chfdw_contains_grouping_func((Node *) target->exprs))
		return;
	group_exprs = target_group_exprs(parse, target, &ok);
	if (!ok)
		return;
	/*
	 * grouping keys: columns and values of exact equality; raising values
	 * when PostgreSQL computes the key of every row too (a SELECT reading
	 * every group)
	 */
	may_raise = parse->commandType == CMD_SELECT && root->tuple_fraction == 0.0 &&
		!parse->groupingSets;
	foreach(lc, group_exprs)
		if (!chfdw_group_key_shippable(input_rel, ifpinfo->relid, (Expr *) lfirst(lc), may_raise) ||
			(parse->groupingSets && IsA(lfirst(lc), Const)))
			return;				/* a constant key of a set: NULL in the others (kept local) */
	i = 0;
	foreach(lc, target->exprs)
	{
		Expr	   *e = (Expr *) lfirst(lc);
		Index		sgref = get_pathtarget_sortgroupref(target, i);

		i++;
		if ((sgref && get_sortgroupref_clause_noerr(sgref, parse->groupClause)) ||
			is_group_column(group_exprs, e))
		{
			/* a key (checked above), or a key column under another label */
			if (!list_member(group_exprs, e) &&
				!chfdw_is_shippable_grouping_expr(input_rel, ifpinfo->relid, e, true))
				return;
			tlist = add_to_flat_tlist(tlist, list_make1(e));
			continue;
		}
		if (chfdw_is_shippable_grouping_expr(input_rel, ifpinfo->relid, e, false))
		{
			tlist = add_to_flat_tlist(tlist, list_make1(e));
			continue;
		}
		/*
		 * An expression over aggregates and grouping columns (sum(a) /
		 * count(*), round(avg(x), 2)): ClickHouse returns its pieces,
		 * PostgreSQL computes the rest.
		 */
		if (!shippable_pieces(group_exprs, input_rel, ifpinfo->relid, (Node *) e, &tlist))
			return;
	}
	/* grouping sets: last, as it may ask the server what it can do */
	if (parse->groupingSets && !chfdw_grouping_sets_ok(root, input_rel, &as_union))
		return;
	/*
	 * HAVING (an implicit-AND list): the clauses ClickHouse can evaluate are
	 * sent; the others filter the groups in PostgreSQL, from the aggregates
	 * ClickHouse returns. With grouping sets all of it is evaluated here,
	 * over the rows with PostgreSQL's NULLs.
	 */
	/* HAVING: over the combined groups, above a partial aggregation */
	foreach(lc, partial ? NIL : (List *) gx->havingQual)
	{
		Expr	   *clause = (Expr *) lfirst(lc);

		/*
		 * (regr) with corr, covar_* or regr_* all of HAVING stays here: a
		 * group it drops must still raise their overflow (agg_regr.c)
		 */
		if (!parse->groupingSets && !chfdw_having_stays_local((Node *) target->exprs, gx->havingQual) &&
			chfdw_is_shippable_having(input_rel, ifpinfo->relid, clause))
			remote_having = lappend(remote_having, clause);
		else if (shippable_pieces(group_exprs, input_rel, ifpinfo->relid, (Node *) clause, &tlist))
			local_having = lappend(local_having, clause);
		else
			return;
	}
	if (as_union && !chfdw_grouping_union_ok(root, tlist))
		return;
	/* (floathaving) many float aggregates: within max_query_size (agg_float.c) */
	if (!chfdw_float_sql_fits(root, input_rel, ifpinfo->relid, tlist, remote_having, group_exprs,
							  parse->groupingSets != NIL, as_union, NIL))
		return;

	fpinfo = palloc0(sizeof(ChFdwRelInfo));
	fpinfo->relid = ifpinfo->relid;
	fpinfo->is_upper = true;
	fpinfo->outerrel = input_rel;
	fpinfo->grouped_tlist = tlist;
	fpinfo->having_quals = remote_having;
	fpinfo->local_conds = local_having;
	fpinfo->group_exprs = group_exprs;
	fpinfo->grouping_sets = parse->groupingSets != NIL;
	fpinfo->grouping_union = as_union;
	output_rel->fdw_private = fpinfo;

	ngroups = group_exprs ? estimate_num_groups(root, group_exprs, input_rel->rows, NULL, NULL) : 1;
	/*
	 * ClickHouse scans and aggregates; only the groups travel. With few
	 * input rows the remote startup cost hides the aggregation PostgreSQL
	 * would do and both plans cost the same within add_path's 1% fuzz (the
	 * local one then wins by its sort order): a small credit settles it.
	 */
	startup = DEFAULT_STARTUP_COST + ifpinfo->scanned * REMOTE_SCAN_ROW_COST -
		REMOTE_AGG_CREDIT;
	total = remote_cost(ifpinfo->scanned, ngroups) - REMOTE_AGG_CREDIT;
	add_path(output_rel, (Path *) create_foreign_upper_path(root, output_rel, target,
															ngroups, startup, total,
															NIL, NULL, NIL));
	/*
	 * the query's ORDER BY (of groups or aggregates), sorted by ClickHouse;
	 * (gsorder) also over GROUPING SETS, by the outputs' toNullable() keys
	 * (NULL in the rows of the sets that do not group them), not over the
	 * UNION ALL form of servers without GROUPING SETS
	 */
	if (!child && root->sort_pathkeys && !as_union &&
		chfdw_grouped_pathkeys_shippable(input_rel, ifpinfo->relid, root->sort_pathkeys, tlist) &&
		chfdw_float_sql_fits(root, input_rel, ifpinfo->relid, tlist, remote_having, group_exprs,
							 fpinfo->grouping_sets, false, root->sort_pathkeys))
		add_path(output_rel, (Path *) create_foreign_upper_path(root, output_rel, target,
																ngroups, startup,
																total + ngroups * cpu_operator_cost,
																root->sort_pathkeys, NULL, NIL));
}

static ForeignScan *join_plan(PlannerInfo *root, RelOptInfo *joinrel, ForeignPath *best_path,
							  List *tlist, Plan *outer_plan);

/* The plan of an aggregate computed by ClickHouse (scanrelid 0). */
static ForeignScan *
grouped_plan(PlannerInfo *root, RelOptInfo *foreignrel, ForeignPath *best_path, List *tlist,
			 Plan *outer_plan)
{
	ChFdwRelInfo *sfpinfo = (ChFdwRelInfo *) foreignrel->fdw_private;
	/* SELECT DISTINCT over the groups, windows over them (window.c): the grouped SQL */
	ChFdwRelInfo *fpinfo = sfpinfo->stage ?
		(ChFdwRelInfo *) sfpinfo->stage_input->fdw_private : sfpinfo;
	List	   *outputs = sfpinfo->stage == UPPERREL_WINDOW ? sfpinfo->stage_tlist :
		fpinfo->grouped_tlist;
	RelOptInfo *baserel = fpinfo->outerrel;
	ChFdwRelInfo *bfpinfo = (ChFdwRelInfo *) baserel->fdw_private;
	StringInfoData sql;
	List	   *retrieved = NIL;
	List	   *finish = NIL;
	ListCell   *lc;
	int			i = 0;
	int64		limit;
	ChFdwDeparse dp;
	List	   *private;
	/* (winrun) top-N over the groups: a WHERE of run conditions around them (window.c) */
	char	   *run = sfpinfo->stage == UPPERREL_WINDOW &&
		chfdw_window_run(root->parse, outputs) ? chfdw_run_alias(root, baserel) : NULL;

	chfdw_deparse_init(&dp, root);
	initStringInfo(&sql);
	if (fpinfo->grouping_union && !sfpinfo->stage)
	{
		StringInfoData u;

		initStringInfo(&u);
		chfdw_deparse_grouping_union(&dp, &u, root, baserel, fpinfo->relid, outputs,
									 extract_actual_clauses(bfpinfo->remote_conds, false));
		foreach(lc, outputs)
		{
			retrieved = lappend_int(retrieved, ++i);
			finish = lappend_int(finish, chfdw_agg_finish(lfirst_node(TargetEntry, lc)->expr));
		}
		/* LIMIT would bind only the last SELECT of a UNION ALL: around it */
		limit = pushable_limit(root, foreignrel, best_path, sfpinfo);
		if (limit >= 0)
			appendStringInfo(&sql, "SELECT * FROM (%s) LIMIT " INT64_FORMAT, u.data, limit);
		else
			appendStringInfoString(&sql, u.data);
		appendStringInfoString(&sql, " FORMAT Native");
		private = list_make4(makeString(sql.data), retrieved, chfdw_plan_zone(&dp), finish);
		return make_foreignscan(tlist, fpinfo->local_conds, 0, dp.params, private,
								outputs, NIL, outer_plan);
	}
	if (run)
		appendStringInfoString(&sql, "SELECT * FROM (");
	appendStringInfoString(&sql, sfpinfo->stage == UPPERREL_DISTINCT ? "SELECT DISTINCT " : "SELECT ");
	foreach(lc, outputs)
	{
		TargetEntry *tle = lfirst_node(TargetEntry, lc);
		int			fin;

		if (i > 0)
			appendStringInfoString(&sql, ", ");
		/* (subq3) the empty set's row over no rows (window.c) */
		if (i == 0 && fpinfo->grouping_sets && chfdw_grouping_sets_need_agg(root, outputs))
			appendStringInfoString(&sql, "if(count() < 0, NULL, ");
		chfdw_deparse_stage_output(&dp, &sql, baserel, fpinfo->relid, tle->expr,
								   fpinfo->grouping_sets, &fin);
		if (i == 0 && fpinfo->grouping_sets && chfdw_grouping_sets_need_agg(root, outputs))
			appendStringInfoChar(&sql, ')');
		retrieved = lappend_int(retrieved, ++i);
		finish = lappend_int(finish, fin);
		if (run)
			appendStringInfo(&sql, " AS `%s%d`", run, i);
	}
	/*
	 * (lcfix) no output (SELECT 1 ... HAVING count(*) > 1): one column all
	 * the same, unread ("SELECT  FROM" before)
	 */
	if (outputs == NIL)
		appendStringInfoString(&sql, "count()");
	appendStringInfoString(&sql, " FROM ");
	if (bfpinfo->is_join)
		chfdw_deparse_join_from(&dp, &sql, baserel);	/* with its WHERE */
	else						/* (lcfix) lowcard.c */
		chfdw_deparse_grouped_from(&dp, &sql, baserel, fpinfo->relid,
								   extract_actual_clauses(bfpinfo->remote_conds, false));
	if (fpinfo->grouping_sets)
		chfdw_deparse_grouping_sets(&dp, &sql, root, baserel, fpinfo->relid);
	else if (fpinfo->group_exprs)
	{
		/* the keys in the grouped relation's own Vars (a partition's) */
		appendStringInfoString(&sql, " GROUP BY ");
		foreach(lc, fpinfo->group_exprs)
		{
			if (lc != list_head(fpinfo->group_exprs))
				appendStringInfoString(&sql, ", ");
			chfdw_deparse_grouping_expr(&dp, &sql, baserel, fpinfo->relid, lfirst(lc));
		}
	}
	/* (floatagg, floathaving) the float aggregates' overflow guards over every group, then HAVING (agg_float.c) */
	chfdw_deparse_float_having(&dp, &sql, baserel, fpinfo->relid, fpinfo->grouped_tlist,
							   fpinfo->having_quals, fpinfo->group_exprs || fpinfo->grouping_sets);
	if (best_path->path.pathkeys)
		chfdw_deparse_grouped_order_by(&dp, &sql, baserel, fpinfo->relid, best_path->path.pathkeys,
									   fpinfo->grouped_tlist, fpinfo->grouping_sets);
	if (run)
		chfdw_deparse_run_conditions(&sql, root->parse, outputs, run);
	limit = pushable_limit(root, foreignrel, best_path, sfpinfo);
	if (limit >= 0)
		appendStringInfo(&sql, " LIMIT " INT64_FORMAT, limit);
	chfdw_deparse_stage_settings(&sql, bfpinfo->is_join, fpinfo->grouping_sets,
								 sfpinfo->stage == UPPERREL_WINDOW);
	appendStringInfoString(&sql, " FORMAT Native");
	/* HAVING clauses PostgreSQL evaluates over the groups */
	private = list_make4(makeString(sql.data), retrieved, chfdw_plan_zone(&dp), finish);
	if (bfpinfo->is_join)
		private = lappend(private, makeString(psprintf("Aggregate on (%s)",
													   chfdw_join_relations(root, baserel))));
	return make_foreignscan(tlist, fpinfo->local_conds, 0, dp.params, private,
							outputs, NIL, outer_plan);
}

static ForeignScan *
chfdwGetForeignPlan(PlannerInfo *root, RelOptInfo *baserel, Oid foreigntableid,
					ForeignPath *best_path, List *tlist, List *scan_clauses,
					Plan *outer_plan)
{
	ChFdwRelInfo *fpinfo = (ChFdwRelInfo *) baserel->fdw_private;
	Bitmapset  *attrs_used = NULL;
	List	   *scan_tlist;
	List	   *retrieved_attrs;
	List	   *remote_exprs = NIL;
	List	   *local_exprs = NIL;
	StringInfoData sql;
	ListCell   *lc;
	Relation	rel;
	int64		limit;
	ChFdwDeparse dp;

	/* an aggregate over a UNION ALL of foreign tables (subquery.c) */
	if (chfdw_is_union_path(best_path))
		return chfdw_union_plan(root, baserel, best_path, tlist, outer_plan);
	/* DISTINCT or windows over a table or join (window.c) */
	if (fpinfo->stage && !((ChFdwRelInfo *) fpinfo->stage_input->fdw_private)->is_upper)
		return chfdw_stage_plan(root, baserel, best_path, tlist, outer_plan,
								pushable_limit(root, baserel, best_path, fpinfo));
	if (fpinfo->is_upper)
		return grouped_plan(root, baserel, best_path, tlist, outer_plan);
	if (fpinfo->is_join)
		return join_plan(root, baserel, best_path, tlist, outer_plan);

	/* split the clauses as GetForeignRelSize classified them */
	foreach(lc, scan_clauses)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);

		if (ri->pseudoconstant)
			continue;
		if (list_member_ptr(fpinfo->remote_conds, ri))
			remote_exprs = lappend(remote_exprs, ri->clause);
		else if (list_member_ptr(fpinfo->rewritten_from, ri))
		{
			/* its equivalent (rewrite.c), at the same position */
			ListCell   *f,
					   *t;

			forboth(f, fpinfo->rewritten_from, t, fpinfo->rewritten_to)
				if (lfirst(f) == ri)
					remote_exprs = lappend(remote_exprs, ((RestrictInfo *) lfirst(t))->clause);
		}
		else if (list_member_ptr(fpinfo->local_conds, ri))
			local_exprs = lappend(local_exprs, ri->clause);
		else if (chfdw_is_shippable_join(baserel, foreigntableid, ri->clause))
			remote_exprs = lappend(remote_exprs, ri->clause);	/* a parameterized scan's */
		else
			local_exprs = lappend(local_exprs, ri->clause);
	}

	/* fetch what the output and the local conditions need */
	pull_varattnos((Node *) baserel->reltarget->exprs, baserel->relid, &attrs_used);
	foreach(lc, local_exprs)
		pull_varattnos((Node *) lfirst(lc), baserel->relid, &attrs_used);

	rel = table_open(foreigntableid, NoLock);
	chfdw_deparse_init(&dp, root);
	initStringInfo(&sql);
	/* a parallel scan's participants read ranges: no LIMIT for each */
	limit = local_exprs == NIL && !best_path->path.parallel_aware ?
		pushable_limit(root, baserel, best_path, fpinfo) : -1;
	/* ClickHouse's own functions of the SELECT list, computed there (chfuncs.c) */
	scan_tlist = best_path->path.parallel_aware ? NIL :
		chfdw_chfunc_scan_tlist(root, baserel, foreigntableid, local_exprs);
	/* (subq3) and the correlated scalar subqueries of the SELECT list (subquery.c) */
	if (!best_path->path.parallel_aware)
		scan_tlist = chfdw_subplan_scan_tlist(root, baserel, foreigntableid, scan_tlist,
											  local_exprs);
	/*
	 * (casts2) with the pre-filters of local conditions, which are no recheck
	 * conditions (not in a parallel scan: its ranges go after a WHERE of
	 * recheck conditions only)
	 */
	chfdw_deparse_rel_select(&dp, &sql, baserel, rel, attrs_used, scan_tlist,
							 best_path->path.parallel_aware ? remote_exprs :
							 list_concat_copy(remote_exprs,
											  chfdw_prefilter_exprs(baserel, scan_clauses)),
							 best_path->path.pathkeys, limit, &retrieved_attrs);
	table_close(rel, NoLock);

	return make_foreignscan(tlist, local_exprs, baserel->relid, dp.params,
							list_make4(makeString(sql.data), retrieved_attrs,
									   chfdw_plan_zone(&dp), NIL),
							scan_tlist,
							/*
							 * setrefs reads the recheck conditions over
							 * fdw_scan_tlist too; a SELECT of one relation
							 * without row locks never rechecks
							 */
							scan_tlist ? NIL : remote_exprs, outer_plan);
}

/* The plan of a join computed by ClickHouse (scanrelid 0). */
static ForeignScan *
join_plan(PlannerInfo *root, RelOptInfo *joinrel, ForeignPath *best_path, List *tlist,
		  Plan *outer_plan)
{
	ChFdwRelInfo *fpinfo = (ChFdwRelInfo *) joinrel->fdw_private;
	/* with ClickHouse's own functions of the SELECT list (chfuncs.c) */
	List	   *scan_tlist = chfdw_chfunc_join_tlist(root, joinrel, chfdw_join_scan_tlist(joinrel));
	List	   *retrieved;
	StringInfoData sql;
	ChFdwDeparse dp;

	chfdw_deparse_init(&dp, root);
	initStringInfo(&sql);
	chfdw_deparse_rel_select(&dp, &sql, joinrel, NULL, NULL, scan_tlist, NIL,
							 best_path->path.pathkeys,
							 fpinfo->local_conds == NIL ?
							 pushable_limit(root, joinrel, best_path, fpinfo) : -1,
							 &retrieved);
	return make_foreignscan(tlist, extract_actual_clauses(fpinfo->local_conds, false), 0,
							dp.params,
							list_make5(makeString(sql.data), retrieved, chfdw_plan_zone(&dp),
									   NIL, makeString(chfdw_join_relations(root, joinrel))),
							scan_tlist, NIL, outer_plan);
}

static void
chfdwExplainForeignScan(ForeignScanState *node, ExplainState *es)
{
	ForeignScan *plan = (ForeignScan *) node->ss.ps.plan;

	ChFdwScanState *st = (ChFdwScanState *) node->fdw_state;

	/* a join (or an aggregate over one) computed by ClickHouse: which tables */
	if (list_length(plan->fdw_private) > FdwScanPrivateRelations)
		ExplainPropertyText("Relations",
							strVal(list_nth(plan->fdw_private, FdwScanPrivateRelations)), es);
	if (es->verbose)
		ExplainPropertyText("Remote SQL",
							chfdw_explain_sql(strVal(list_nth(plan->fdw_private,
															  FdwScanPrivateSelectSql))),
							es);
	/* EXPLAIN ANALYZE: what was sent, to find it in ClickHouse's system.query_log */
	if (es->analyze && st && st->query_id[0])
	{
		ExplainPropertyText("ClickHouse Query ID", st->query_id, es);
		/* run-time values or date columns (chfdw_bind_date_columns) written in */
		if (es->verbose &&
			strcmp(st->sql, strVal(list_nth(plan->fdw_private, FdwScanPrivateSelectSql))) != 0)
			ExplainPropertyText("Remote SQL Sent", st->sql, es);
		if (st->par)
			chfdw_parallel_explain(st->par, es);
	}
	/*
	 * The remote side of the scan (every run of it summed), as the
	 * transport counted it (ch_conn_stats): measurements like "actual
	 * time", so shown with TIMING (EXPLAIN ANALYZE's default).
	 */
	if (es->analyze && es->timing && st &&
		(st->have_remote || chfdw_request_live(st->conn, st->req, st->req_number)))
	{
		ch_request_stats sum;
		const ch_request_stats *r = &sum;

		memset(&sum, 0, sizeof(sum));
		if (st->have_remote)
			sum = st->remote;
		/* stopped early (a LIMIT above): the request still runs */
		if (st->started && !st->finished &&
			chfdw_request_live(st->conn, st->req, st->req_number))
			add_request_stats(&sum, ch_conn_stats(st->req));

		ExplainPropertyInteger("ClickHouse Rows Received", NULL, (int64) r->rows_received, es);
		ExplainPropertyInteger("ClickHouse Bytes Received", NULL, (int64) r->bytes_received, es);
		if (r->have_server_counters)
		{
			ExplainPropertyInteger("ClickHouse Rows Read", NULL, (int64) r->read_rows, es);
			ExplainPropertyInteger("ClickHouse Bytes Read", NULL, (int64) r->read_bytes, es);
		}
		if (r->server_elapsed_ns > 0)
			ExplainPropertyFloat("ClickHouse Elapsed", "ms", r->server_elapsed_ns / 1e6, 3, es);
		if (r->elapsed_ns > 0)	/* 0 while the request still runs */
			ExplainPropertyFloat("ClickHouse Request Time", "ms", r->elapsed_ns / 1e6, 3, es);
	}
}

/* ---------------------------------------------------------------- scanning */

static void
scan_error_callback(void *arg)
{
	ChFdwScanState *st = (ChFdwScanState *) arg;

	if (st->ctx_column)
		errcontext("column \"%s\" of foreign table \"%s\"",
				   st->ctx_column, st->relname);
}

static void
chfdwBeginForeignScan(ForeignScanState *node, int eflags)
{
	ForeignScan *fsplan = (ForeignScan *) node->ss.ps.plan;
	EState	   *estate = node->ss.ps.state;
	ChFdwScanState *st;
	RangeTblEntry *rte;
	Oid			userid;
	ForeignTable *table;
	UserMapping *user;
	ListCell   *lc;
	int			i;
	const char *tabname;
	Index		rtindex;
	Relation	rel;

	/* an aggregate over a UNION ALL: its members' privileges (subquery.c) */
	chfdw_union_check(fsplan);
	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;
	/* the statement's tables, should it ask PostgreSQL for a ClickHouse function (chfuncs.c) */
	chfdw_chfunc_note_executor(estate);

	chfdw_check_plan_zone(list_nth(fsplan->fdw_private, FdwScanPrivateZone));
	st = palloc0(sizeof(ChFdwScanState));
	node->fdw_state = st;
	/* a base scan, or an aggregate over one foreign table (scanrelid 0) */
	rtindex = fsplan->scan.scanrelid > 0 ? fsplan->scan.scanrelid :
		(Index) bms_next_member(fsplan->fs_relids, -1);
	rte = exec_rt_fetch(rtindex, estate);
	/* an aggregate over a UNION ALL: its first member's table (subquery.c) */
	if (chfdw_union_leg_rte(fsplan))
		rte = chfdw_union_leg_rte(fsplan);
	st->tupdesc = node->ss.ss_ScanTupleSlot->tts_tupleDescriptor;
	st->sql_template = strVal(list_nth(fsplan->fdw_private, FdwScanPrivateSelectSql));
	st->sql = st->sql_template;
	st->async = node->ss.ps.async_capable;
	st->param_exprs = ExecInitExprList(fsplan->fdw_exprs, (PlanState *) node);
	st->econtext = node->ss.ps.ps_ExprContext;
	st->retrieved_attrs = (List *) list_nth(fsplan->fdw_private, FdwScanPrivateRetrievedAttrs);
	st->nretrieved = list_length(st->retrieved_attrs);
	st->attnums = palloc(sizeof(AttrNumber) * Max(st->nretrieved, 1));
	i = 0;
	foreach(lc, st->retrieved_attrs)
		st->attnums[i++] = (AttrNumber) lfirst_int(lc);
	if (fsplan->scan.scanrelid > 0 && fsplan->fdw_scan_tlist != NIL)
	{
		st->table_attnums = palloc0(sizeof(AttrNumber) * Max(st->nretrieved, 1));
		for (i = 0; i < st->nretrieved; i++)
		{
			Expr	   *e = list_nth_node(TargetEntry, fsplan->fdw_scan_tlist, st->attnums[i] - 1)->expr;

			st->table_attnums[i] = IsA(e, Var) ? ((Var *) e)->varattno : 0;
		}
	}
	st->dense = st->nretrieved == st->tupdesc->natts;
	for (i = 0; i < st->nretrieved; i++)
		if (st->attnums[i] != i + 1)
			st->dense = false;
	st->finish = palloc0(sizeof(int) * Max(st->nretrieved, 1));
	i = 0;
	foreach(lc, (List *) list_nth(fsplan->fdw_private, FdwScanPrivateFinish))
		st->finish[i++] = lfirst_int(lc);
	rel = table_open(rte->relid, NoLock);
	chfdw_get_table_names(rel, &st->database, &tabname);
	st->database = pstrdup(st->database);
	st->remote_table = pstrdup(tabname);
	st->relid = rte->relid;
	st->base_scan = fsplan->scan.scanrelid > 0;
	st->relname = pstrdup(RelationGetRelationName(rel));
	table_close(rel, NoLock);

	userid = OidIsValid(rte->checkAsUser) ? rte->checkAsUser : GetUserId();
	table = GetForeignTable(rte->relid);
	user = GetUserMapping(userid, table->serverid);
	st->conn = chfdw_get_connection(user);
	if (fsplan->scan.plan.parallel_aware)
		st->par = chfdw_parallel_begin(st->conn, st->database, st->remote_table,
									   st->sql_template, fsplan->fdw_recheck_quals != NIL);

	st->scan_cxt = AllocSetContextCreate(estate->es_query_cxt, "clickhouse_fdw scan",
										 ALLOCSET_DEFAULT_SIZES);
	st->row_cxt = AllocSetContextCreate(estate->es_query_cxt, "clickhouse_fdw row",
										ALLOCSET_SMALL_SIZES);
	st->run_cxt = AllocSetContextCreate(st->scan_cxt, "clickhouse_fdw scan run",
										ALLOCSET_DEFAULT_SIZES);
	st->block_cxt = AllocSetContextCreate(st->scan_cxt, "clickhouse_fdw block",
										  ALLOCSET_DEFAULT_SIZES);
	st->chunk_cxt = AllocSetContextCreate(st->scan_cxt, "clickhouse_fdw chunk",
										  ALLOCSET_DEFAULT_SIZES);
	st->conv = MemoryContextAllocZero(st->scan_cxt, sizeof(ChFdwColConv *) * Max(st->nretrieved, 1));
	st->bulk = MemoryContextAllocZero(st->scan_cxt, sizeof(bool) * Max(st->nretrieved, 1));
	st->bulk_end = MemoryContextAllocZero(st->scan_cxt, sizeof(uint64) * Max(st->nretrieved, 1));
	st->chunk_values = MemoryContextAlloc(st->scan_cxt, sizeof(Datum) * SCAN_CHUNK * Max(st->nretrieved, 1));
	st->chunk_nulls = MemoryContextAlloc(st->scan_cxt, sizeof(bool) * SCAN_CHUNK * Max(st->nretrieved, 1));
	st->conv_types = MemoryContextAllocZero(st->scan_cxt, sizeof(ch_type *) * Max(st->nretrieved, 1));
	st->conv_names = MemoryContextAllocZero(st->scan_cxt, sizeof(char *) * Max(st->nretrieved, 1));
	st->conv_cxt = MemoryContextAllocZero(st->scan_cxt, sizeof(MemoryContext) * Max(st->nretrieved, 1));
}

/* system.columns of the scanned table (once per transaction) */
static List *
scan_catalog(ChFdwScanState *st)
{
	if (!st->catalog_fetched)
	{
		st->catalog_columns = chfdw_remote_columns_xact(st->conn, st->database,
														st->remote_table);
		st->catalog_fetched = true;
	}
	return st->catalog_columns;
}

static void
start_query(ChFdwScanState *st)
{
	st->finished = false;
	st->block = NULL;
	st->row = 0;
	if (strchr(st->sql_template, '\x02'))
	{
		/* date columns in shipped SQL: as Date, or the date of a DateTime */
		List	   *catalog;
		MemoryContext old;

		chfdw_server_caps(st->conn);
		catalog = scan_catalog(st);
		old = MemoryContextSwitchTo(st->scan_cxt);
		st->sql_template = chfdw_bind_date_columns(st->sql_template, st->relid, st->conn,
												   catalog);
		st->sql = st->sql_template;
		MemoryContextSwitchTo(old);
	}
	if (st->param_exprs != NIL)
	{
		MemoryContext old;

		/* the server's version decides how some values are written */
		chfdw_server_caps(st->conn);
		old = MemoryContextSwitchTo(st->run_cxt);
		st->sql = chfdw_bind_values(st->sql_template, st->param_exprs, st->econtext, st->conn);
		MemoryContextSwitchTo(old);
	}
	/* a key join's scan: the batch's keys (keyjoin.c) */
	st->sql = chfdw_keyjoin_sql(st->sql, st->key_list, st->run_cxt);
	st->req = chfdw_begin_query(st->conn, st->sql, st->database, CHFDW_REQ_COMPRESS_RESPONSE,
								NULL, NULL);
	st->req_number = ch_conn_request_count(st->req);
	strlcpy(st->query_id, ch_conn_query_id(st->req), sizeof(st->query_id));
	st->started = true;
}

/* Add the counters of a request to sum. */
static void
add_request_stats(ch_request_stats *sum, const ch_request_stats *rs)
{
	sum->read_rows += rs->read_rows;
	sum->read_bytes += rs->read_bytes;
	sum->rows_received += rs->rows_received;
	sum->bytes_received += rs->bytes_received;
	sum->server_elapsed_ns += rs->server_elapsed_ns;
	sum->elapsed_ns += rs->elapsed_ns;
	sum->have_server_counters |= rs->have_server_counters;
}

/* The request ended: keep its counters for EXPLAIN ANALYZE. */
static void
request_ended(ChFdwScanState *st)
{
	st->finished = true;
	if (!st->have_remote)
		memset(&st->remote, 0, sizeof(st->remote));
	add_request_stats(&st->remote, ch_conn_stats(st->req));
	st->have_remote = true;
}

/*
 * Pull the next non-empty block; false at the end of the result. In an
 * async scan also false when no block is ready (st->async_waiting, what
 * to wait for in st->async_wait): it never waits there.
 */
static bool
fetch_block(ChFdwScanState *st)
{
	for (;;)
	{
		ch_error	err;
		ch_status	rs = st->async ?
			chfdw_poll_block(st->conn, st->req, &st->block, &st->async_wait, &err) :
			chfdw_next_block(st->conn, st->req, &st->block, -1, &err);

		if (rs == CH_NEED_MORE && st->async)
		{
			st->block = NULL;
			st->async_waiting = true;
			return false;
		}
		if (rs == CH_END)
			st->async_eof = true;

		if (rs == CH_OK)
		{
			st->row = 0;
			if (st->block->nrows == 0)
				continue;
			return true;
		}
		st->block = NULL;
		request_ended(st);
		if (rs == CH_END)
			return false;
		chfdw_report(ERROR, rs, &err, st->sql, st->query_id);
	}
}

/*
 * A DateTime read as wall time needs its zone; over HTTP 18.16 sends
 * DateTime('tz') as plain DateTime, so take the zone from the table's
 * definition in system.columns (fetched once per scan, only when needed).
 */
static void
set_zone_from_catalog(ChFdwScanState *st, int i)
{
	AttrNumber	att = st->table_attnums ? st->table_attnums[i] : st->attnums[i];
	char	   *rname;
	const char *zone;

	if (att <= 0)
		return;					/* an expression ClickHouse computes */
	rname = chfdw_column_name(st->relid, att);
	zone = chfdw_catalog_zone(scan_catalog(st), rname);
	if (zone)
		chfdw_converter_set_zone(st->conv[i], zone);
}

static void
check_block_shape(ChFdwScanState *st)
{
	int			expected = st->nretrieved > 0 ? st->nretrieved : 1;
	int			i;

	if (st->block->ncols != (uint64) expected)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_ERROR),
				 errmsg("ClickHouse returned %llu columns where %d were expected",
						(unsigned long long) st->block->ncols, expected),
				 errcontext("remote SQL command: %s", st->sql)));
	for (i = 0; i < st->nretrieved; i++)
	{
		const ch_type *t = st->block->cols[i].type;

		if (st->conv_types[i] != t || strcmp(st->conv_names[i], t->name) != 0)
		{
			Form_pg_attribute attr = TupleDescAttr(st->tupdesc, st->attnums[i] - 1);
			MemoryContext old;

			/*
			 * The converter of the previous type goes: a server that sends
			 * another type in every block must not grow the scan's memory.
			 */
			st->conv_types[i] = NULL;	/* until the new one is made */
			if (st->conv_cxt[i])
				MemoryContextReset(st->conv_cxt[i]);
			else
				st->conv_cxt[i] = AllocSetContextCreate(st->run_cxt, "clickhouse_fdw converter",
														ALLOCSET_SMALL_SIZES);
			old = MemoryContextSwitchTo(st->conv_cxt[i]);

			/* a value PostgreSQL finishes arrives as text */
			st->conv[i] = st->finish[i] != CHFDW_FINISH_NONE &&
				st->finish[i] != CHFDW_FINISH_ARRAY ?
				chfdw_make_converter(t, TEXTOID, -1, NameStr(attr->attname)) :
				chfdw_make_converter(t, attr->atttypid, attr->atttypmod,
									 NameStr(attr->attname));
			if (st->base_scan && chfdw_converter_needs_zone(st->conv[i]))
				set_zone_from_catalog(st, i);
			st->conv_types[i] = t;
			st->conv_names[i] = pstrdup(t->name);
			st->bulk[i] = st->finish[i] == CHFDW_FINISH_NONE &&
				chfdw_converter_has_bulk(st->conv[i]);
			MemoryContextSwitchTo(old);
		}
	}
	/* a new block: nothing of it converted yet */
	MemoryContextReset(st->block_cxt);
	MemoryContextReset(st->chunk_cxt);
	for (i = 0; i < st->nretrieved; i++)
	{
		if (st->bulk[i])
			chfdw_converter_new_block(st->conv[i]);
		st->bulk_end[i] = 0;
	}
	st->chunk_first = st->chunk_end = 0;
}

/*
 * Convert the next chunk of the block's rows (from st->row), a column at a
 * time, for the columns with a bulk conversion (convert.c); the values stay
 * valid until the next chunk. A column's bulk_end stops early at a value
 * the bulk conversion leaves to chfdw_convert (which then raises the error,
 * if any, when that row is reached, as it did row by row).
 */
static void
convert_chunk(ChFdwScanState *st)
{
	uint64		first = st->row;
	uint64		n = Min((uint64) SCAN_CHUNK, st->block->nrows - first);
	MemoryContext old;
	int			i;

	MemoryContextReset(st->chunk_cxt);
	old = MemoryContextSwitchTo(st->chunk_cxt);
	st->chunk_all_bulk = true;
	for (i = 0; i < st->nretrieved; i++)
	{
		st->bulk_end[i] = !st->bulk[i] ? 0 :
			first + chfdw_convert_rows(st->conv[i], &st->block->cols[i], first, n,
									   st->chunk_values + i, st->chunk_nulls + i,
									   st->nretrieved, st->block_cxt);
		if (st->bulk_end[i] < first + n)
			st->chunk_all_bulk = false;
	}
	MemoryContextSwitchTo(old);
	st->chunk_first = first;
	st->chunk_end = first + n;
}

static TupleTableSlot *
chfdwIterateForeignScan(ForeignScanState *node)
{
	ChFdwScanState *st = (ChFdwScanState *) node->fdw_state;
	TupleTableSlot *slot = node->ss.ss_ScanTupleSlot;
	ErrorContextCallback errcb;
	MemoryContext old;
	int			i;

	ExecClearTuple(slot);
	if (!st->started)
	{
		if (st->par && !next_range(st))
			return slot;
		start_query(st);
	}
	if (st->async_eof)
		return slot;
	if (!st->block || st->row >= st->block->nrows)
	{
		while (!fetch_block(st))
		{
			/* a parallel scan goes on with the next range, until none is left */
			if (!st->par || st->async_waiting || !next_range(st))
				return slot;
			start_query(st);
		}
		check_block_shape(st);
	}
	if (st->row >= st->chunk_end)
		convert_chunk(st);

	/* the whole row converted in bulk: copy it into the slot */
	if (st->chunk_all_bulk)
	{
		uint64		k = (st->row - st->chunk_first) * st->nretrieved;

		if (st->dense)
		{
			memcpy(slot->tts_values, st->chunk_values + k, sizeof(Datum) * st->nretrieved);
			memcpy(slot->tts_isnull, st->chunk_nulls + k, sizeof(bool) * st->nretrieved);
		}
		else
		{
			memset(slot->tts_isnull, true, sizeof(bool) * st->tupdesc->natts);
			for (i = 0; i < st->nretrieved; i++)
			{
				slot->tts_values[st->attnums[i] - 1] = st->chunk_values[k + i];
				slot->tts_isnull[st->attnums[i] - 1] = st->chunk_nulls[k + i];
			}
		}
		st->row++;
		st->rows_returned++;
		return ExecStoreVirtualTuple(slot);
	}

	MemoryContextReset(st->row_cxt);

	errcb.callback = scan_error_callback;
	errcb.arg = st;
	errcb.previous = error_context_stack;
	error_context_stack = &errcb;
	old = MemoryContextSwitchTo(st->row_cxt);

	memset(slot->tts_isnull, true, sizeof(bool) * st->tupdesc->natts);
	{
		uint64		row = st->row;
		const Datum *cv = st->chunk_values + (row - st->chunk_first) * st->nretrieved;
		const bool *cn = st->chunk_nulls + (row - st->chunk_first) * st->nretrieved;
		Datum	   *values = slot->tts_values;
		bool	   *nulls = slot->tts_isnull;

		for (i = 0; i < st->nretrieved; i++)
			if (row < st->bulk_end[i])
			{
				int			att = st->attnums[i] - 1;

				values[att] = cv[i];
				nulls[att] = cn[i];
			}
	}
	for (i = 0; i < st->nretrieved; i++)
	{
		int			att = st->attnums[i] - 1;

		if (st->row < st->bulk_end[i])
			continue;
		st->ctx_column = NameStr(TupleDescAttr(st->tupdesc, att)->attname);
		chfdw_convert(st->conv[i], &st->block->cols[i], st->row,
					  &slot->tts_values[att], &slot->tts_isnull[att]);
		if (st->finish[i] != CHFDW_FINISH_NONE)
			slot->tts_values[att] = chfdw_finish_value(st->finish[i], slot->tts_values[att],
													   &slot->tts_isnull[att]);
	}
	st->ctx_column = NULL;

	MemoryContextSwitchTo(old);
	error_context_stack = errcb.previous;
	st->row++;
	st->rows_returned++;
	return ExecStoreVirtualTuple(slot);
}

/* ---- async scans (an Append over foreign partitions) ----
 *
 * PostgreSQL's async Append (src/backend/executor/nodeAppend.c) asks every
 * async-capable child for a tuple first (ForeignAsyncRequest), so every
 * partition's remote query starts before any is read; a child with no
 * tuple ready says which socket it waits on (ForeignAsyncConfigureWait)
 * and is called again when it is readable (ForeignAsyncNotify). In such a
 * scan Iterate never waits: without a ready block it returns an empty slot
 * and fetch_block leaves what to wait for in st->async_wait. Each scan
 * runs on its own handle of its user mapping's pool; beyond
 * CHFDW_MAX_HANDLES - CHFDW_RESERVED_HANDLES concurrent requests a scan
 * waits for a handle (chfdw_async_slot_free) and starts when another one
 * ends.
 */

/* async_capable (table, else server; default on) of the relation */
static bool
chfdwIsForeignPathAsyncCapable(ForeignPath *path)
{
	RelOptInfo *rel = path->path.parent;
	ChFdwRelInfo *ri = (ChFdwRelInfo *) rel->fdw_private;

	if (ri && !ri->is_join && OidIsValid(ri->relid))
		return chfdw_async_capable(ri->relid, InvalidOid);
	return chfdw_async_capable(InvalidOid, rel->serverid);
}

/*
 * What the transport waits for, when an Append can wait for it: one
 * socket to become readable, no write pending and no short timer. Anything
 * else (connecting, sending the query, a transport timer) is waited for
 * by the scan itself, briefly.
 */
static bool
async_wait_readable(const ch_wait *w)
{
	return w->nsockets == 1 && w->want_read[0] && !w->want_write[0] &&
		(w->timeout_ms < 0 || w->timeout_ms > 100);
}

/* Give the Append a tuple, or the end, or say what to wait for. */
static void
produce_async(AsyncRequest *areq)
{
	ForeignScanState *node = (ForeignScanState *) areq->requestee;
	ChFdwScanState *st = (ChFdwScanState *) node->fdw_state;

	if (!st->started && !chfdw_async_slot_free(st->conn))
	{
		st->async_waiting_handle = true;
		ExecAsyncRequestPending(areq);
		return;
	}
	for (;;)
	{
		TupleTableSlot *slot;

		st->async_waiting = false;
		/* ExecScan: local conditions and projection; Iterate never waits */
		slot = areq->requestee->ExecProcNodeReal(areq->requestee);
		if (!TupIsNull(slot) || !st->async_waiting)
		{
			ExecAsyncRequestDone(areq, TupIsNull(slot) ? NULL : slot);
			return;
		}
		if (async_wait_readable(&st->async_wait))
		{
			ExecAsyncRequestPending(areq);
			return;
		}
		chfdw_wait(&st->async_wait);
	}
}

static void
chfdwForeignAsyncRequest(AsyncRequest *areq)
{
	produce_async(areq);
}

static void
chfdwForeignAsyncConfigureWait(AsyncRequest *areq)
{
	ForeignScanState *node = (ForeignScanState *) areq->requestee;
	ChFdwScanState *st = (ChFdwScanState *) node->fdw_state;
	AppendState *requestor = (AppendState *) areq->requestor;

	Assert(areq->callback_pending);
	if (st->async_waiting_handle)
	{
		/* another scan's request ended since: start ours (as postgres_fdw's
		 * complete_pending_request, answering the Append here if a tuple
		 * is ready at once) */
		if (!chfdw_async_slot_free(st->conn))
			return;
		st->async_waiting_handle = false;
		areq->callback_pending = false;
		produce_async(areq);
		if (areq->request_complete)
		{
			ExecAsyncResponse(areq);
			return;
		}
		if (st->async_waiting_handle)
			return;
	}
	AddWaitEventToSet(requestor->as_eventset, WL_SOCKET_READABLE, st->async_wait.fd[0],
					  NULL, areq);
}

static void
chfdwForeignAsyncNotify(AsyncRequest *areq)
{
	produce_async(areq);
}

/*
 * Early stop (a LIMIT above the scan, a rescan, a closed cursor): read the
 * rest of the response, discarding it, if it ends within a bound, so the
 * connection stays open for the next query; false if it did not (then the
 * request is abandoned: its connection closed, the query killed). The
 * bound is larger when the remote SQL has a LIMIT of its own: what is left
 * is then at most the rest of those rows.
 */
#define DRAIN_BYTES ((uint64) 1 << 20)
#define DRAIN_MS 100
#define DRAIN_BYTES_LIMITED ((uint64) 16 << 20)
#define DRAIN_MS_LIMITED 2000
/* native: the server stops on a Cancel packet; only its reaction is waited for */
#define DRAIN_MS_CANCEL 2000

/* The deparser ends a query with a LIMIT as " LIMIT n FORMAT Native". */
static bool
remote_sql_has_limit(const char *sql)
{
	const char *tail = " FORMAT Native";
	size_t		len = strlen(sql);
	size_t		tlen = strlen(tail);
	const char *p;

	if (len <= tlen || strcmp(sql + len - tlen, tail) != 0)
		return false;
	p = sql + len - tlen;
	while (p > sql && isdigit((unsigned char) p[-1]))
		p--;
	return p >= sql + 7 && p < sql + len - tlen && strncmp(p - 7, " LIMIT ", 7) == 0;
}

static bool
drain_response(ChFdwScanState *st)
{
	bool		limited = remote_sql_has_limit(st->sql);
	bool		native = ch_conn_kind(st->req) == CH_TRANSPORT_NATIVE;
	uint64		max_bytes = limited ? DRAIN_BYTES_LIMITED : DRAIN_BYTES;
	uint64		bytes0 = ch_conn_stats(st->req)->bytes_received;
	TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
													   native ? DRAIN_MS_CANCEL :
													   limited ? DRAIN_MS_LIMITED : DRAIN_MS);

	/*
	 * The native protocol can stop the query on its connection (a Cancel
	 * packet; what is in flight is then read and dropped), HTTP cannot:
	 * there the rest is read if it is small.
	 */
	if (native)
	{
		ch_error	err;

		ch_error_clear(&err);
		if (ch_conn_cancel(st->req, 0, &err) != CH_OK)
			return false;
	}
	for (;;)
	{
		const ch_block *b;
		ch_error	err;
		ch_status	rs;
		long		left = (long) ((deadline - GetCurrentTimestamp()) / 1000);

		if (left <= 0)
			return false;
		rs = chfdw_next_block(st->conn, st->req, &b, left, &err);
		if (rs == CH_END)
		{
			request_ended(st);
			return true;
		}
		if (rs != CH_OK)
			return false;		/* the budget, or an error (then it is closed) */
		if (!native && ch_conn_stats(st->req)->bytes_received - bytes0 > max_bytes)
			return false;
	}
}

static void
reset_scan(ChFdwScanState *st)
{
	/*
	 * Our request is still running (unless an abort already abandoned it
	 * and the handle moved on): drain it, else abandon it.
	 */
	if (st->started && !st->finished &&
		chfdw_request_live(st->conn, st->req, st->req_number) && !drain_response(st))
	{
		if (!st->finished)
			request_ended(st);
		chfdw_abandon(st->conn, st->req);
	}
	st->block = NULL;
	st->started = false;
	st->async_eof = false;
	st->async_waiting = false;
	st->async_waiting_handle = false;
	/*
	 * What one run allocated (converters for its block types, the bound
	 * SQL) goes with it: a nested loop rescans thousands of times.
	 */
	if (st->run_cxt)
	{
		MemoryContextReset(st->run_cxt);
		memset(st->conv_types, 0, sizeof(ch_type *) * Max(st->nretrieved, 1));
		memset(st->conv, 0, sizeof(ChFdwColConv *) * Max(st->nretrieved, 1));
		memset(st->bulk, 0, sizeof(bool) * Max(st->nretrieved, 1));
		memset(st->bulk_end, 0, sizeof(uint64) * Max(st->nretrieved, 1));
		st->chunk_first = st->chunk_end = 0;
		MemoryContextReset(st->block_cxt);
		MemoryContextReset(st->chunk_cxt);
		memset(st->conv_cxt, 0, sizeof(MemoryContext) * Max(st->nretrieved, 1));
		st->sql = st->sql_template;
	}
}

/* The keys the next run of a key join's scan sends (keyjoin.c); the caller keeps them. */
void
chfdw_scan_set_keys(ForeignScanState *node, const char *keys)
{
	((ChFdwScanState *) node->fdw_state)->key_list = keys;
}

static void
chfdwReScanForeignScan(ForeignScanState *node)
{
	ChFdwScanState *st = (ChFdwScanState *) node->fdw_state;

	reset_scan(st);
	if (st->par)
		chfdw_parallel_rescan(st->par);
}

/* A parallel scan's next range as the SQL to run; false when none is left. */
static bool
next_range(ChFdwScanState *st)
{
	char	   *sql;

	reset_scan(st);
	sql = chfdw_parallel_next_sql(st->par, st->scan_cxt);
	if (!sql)
		return false;
	st->sql_template = st->sql = sql;
	return true;
}

ChFdwParallelScan *
chfdw_scan_parallel(ForeignScanState *node)
{
	ChFdwScanState *st = (ChFdwScanState *) node->fdw_state;

	return st ? st->par : NULL;
}

static void
chfdwEndForeignScan(ForeignScanState *node)
{
	ChFdwScanState *st = (ChFdwScanState *) node->fdw_state;

	if (!st)
		return;
	reset_scan(st);
}
