/*-------------------------------------------------------------------------
 * keyjoin.c
 *	  Reporting joins of a local relation with a ClickHouse table: the
 *	  custom scan "ClickHouse Key Join".
 *
 * When a relation PostgreSQL computes (a heap table, a join of them, any
 * subquery) joins a foreign table of clickhouse_fdw on an equality between
 * a column of the foreign table and an expression of the local side, the
 * local side is read in batches; each batch's distinct keys go to
 * ClickHouse in one query,
 *
 *	  SELECT <columns> FROM `db`.`t` WHERE <the table's pushed conditions>
 *		AND (`k` IN (k1, k2, ...)) FORMAT Native
 *
 * and the rows that come back are joined with the batch in memory (a hash
 * table on the key). That replaces a full transfer of the foreign table (a
 * hash join) or one remote query per local row (a parameterized nested
 * loop).
 *
 * Invariants that keep every answer PostgreSQL's:
 * - The remote filter only narrows what is fetched: a row PostgreSQL would
 *	 match always passes it (the key condition is the one the shippability
 *	 walker accepts as "column = run-time value"; ClickHouse's IN converts
 *	 each literal to the column's type and a literal that no value of the
 *	 column can equal matches nothing). The match itself is made here with
 *	 the join operator and its hash opfamily, as a hash join makes it.
 * - NULL keys never match and are never sent; keys that no ClickHouse
 *	 column can hold (dates outside Date/Date32) are not sent either.
 * - Every other join condition is evaluated per pair; LEFT and ANTI emit
 *	 the batch's unmatched rows at the batch's end, SEMI each row once.
 *
 * The remote side is the foreign table's ordinary ForeignScan (a child of
 * the custom scan): its SQL gets the key condition with a \x03 marker
 * that chfdw.c's scan replaces with the batch's key list
 * (chfdw_scan_set_keys, chfdw_keyjoin_sql) before each rescan, so the
 * rows are read and converted by the one scan implementation.
 *
 * Memory: a batch (its rows, keys and key list) lives in a context reset
 * between batches; a batch ends at clickhouse_fdw.key_join_batch_keys
 * distinct keys, at KEY_LIST_MAX_BYTES of key list (ClickHouse's
 * max_query_size is 256 KiB by default) or when its rows reach work_mem.
 *
 * src/fdw/keyjoin.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_type.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "foreign/fdwapi.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"

#include "chfdw.h"
#include "shippable.h"

#define KEY_JOIN_NAME "ClickHouse Key Join"
#define KEY_LIST_MAX_BYTES (192 * 1024)
#define UNIX_TO_PG_DAYS (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE)

/* GUC clickhouse_fdw.enable_key_join */
static bool enable_key_join = true;

/* GUC clickhouse_fdw.key_join_batch_keys */
static int	key_join_batch_keys = 5000;

static set_join_pathlist_hook_type prev_join_pathlist_hook = NULL;

/* Indexes into CustomScan.custom_private. */
enum KeyJoinPrivateIndex
{
	KeyJoinPrivateJoinType,		/* JoinType (Integer) */
	KeyJoinPrivateOuterIsLeft,	/* the key clause's left argument is the
								 * local side's (Integer) */
	KeyJoinPrivateMoreLeft		/* ... of each more key (IntList) */
};

/* Indexes into CustomScan.custom_exprs. */
enum KeyJoinExprIndex
{
	KeyJoinExprKey,				/* the key clause (OpExpr) */
	KeyJoinExprQuals,			/* other join conditions, per pair (List) */
	KeyJoinExprMore				/* more key clauses, also sent (List) */
};

/* A local row of the current batch. */
typedef struct KeyJoinRow
{
	struct KeyJoinRow *next;	/* next row of the same key */
	struct KeyJoinRow *next_all;	/* next row of the batch */
	MinimalTuple tuple;
	bool		matched;
} KeyJoinRow;

/* A distinct value of a more key in the current batch. */
typedef struct KeyJoinValue
{
	struct KeyJoinValue *next;
	uint32		hash;
	Datum		value;
} KeyJoinValue;

/*
 * Another equality of the join, also sent as an IN list of its local
 * values (a superset filter; the pairs are matched by the join's
 * conditions).
 */
typedef struct KeyJoinMore
{
	ExprState  *expr;			/* the local value, over the scan tuple */
	Oid			type;
	int16		len;
	bool		byval;
	Oid			collation;
	FmgrInfo	hash_fn;
	FmgrInfo	eq_fn;
	KeyJoinValue **buckets;
	int			nsent;
	StringInfoData keys;
} KeyJoinMore;

/* A distinct key of the current batch. */
typedef struct KeyJoinKey
{
	struct KeyJoinKey *next;	/* next key in the bucket */
	uint32		hash;
	Datum		value;
	KeyJoinRow *rows;
	KeyJoinRow *last;
} KeyJoinKey;

typedef enum KeyJoinPhase
{
	KJ_FILL,					/* read the next batch of local rows */
	KJ_PROBE,					/* stream the batch's remote rows */
	KJ_UNMATCHED,				/* LEFT, ANTI: the batch's unmatched rows */
	KJ_DONE
} KeyJoinPhase;

typedef struct KeyJoinState
{
	CustomScanState css;
	JoinType	jointype;
	bool		outer_is_left;
	PlanState  *outer_ps;		/* the local side */
	ForeignScanState *inner_ps; /* the foreign table's scan */
	int			natts_outer;
	int			natts_inner;
	int			inner_key_att;	/* the key column in the foreign scan's
								 * output (0-based) */
	ExprState  *outer_key;		/* over the scan tuple */
	ExprState  *join_quals;		/* over the scan tuple; NULL: none */
	Oid			key_type;		/* the local key's type */
	int16		key_len;
	bool		key_byval;
	Oid			collation;
	FmgrInfo	eq_fn;			/* the join operator */
	FmgrInfo	outer_eq_fn;	/* local key = local key */
	FmgrInfo	outer_hash_fn;
	FmgrInfo	inner_hash_fn;
	int			batch_keys;
	int			nmore;
	KeyJoinMore *more;			/* more keys sent (nmore) */
	Datum	   *more_values;	/* a row's values of them */
	ChFdwConn  *conn;			/* for literals that depend on the server */

	TupleTableSlot *row_slot;	/* a stored local row */
	MemoryContext batch_cxt;
	KeyJoinKey **buckets;
	int			nbuckets;
	KeyJoinRow *all_head;
	KeyJoinRow *all_tail;
	int			nkeys;			/* distinct keys of the batch */
	int			nsent;			/* ... of them in the key list */
	StringInfoData keys;		/* the key list, in batch_cxt */

	KeyJoinPhase phase;
	bool		outer_done;
	bool		inner_started;
	TupleTableSlot *inner_slot; /* the current remote row */
	KeyJoinRow *cur;			/* next candidate row for it */

	/* EXPLAIN ANALYZE */
	int64		batches;
	int64		queries;
	int64		keys_sent;
	int64		remote_rows;
} KeyJoinState;

static Plan *keyjoin_plan_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
							   List *tlist, List *clauses, List *custom_plans);
static Node *keyjoin_create_state(CustomScan *cscan);
static void keyjoin_begin(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *keyjoin_exec(CustomScanState *node);
static void keyjoin_end(CustomScanState *node);
static void keyjoin_rescan(CustomScanState *node);
static void keyjoin_explain(CustomScanState *node, List *ancestors, ExplainState *es);

static const CustomPathMethods keyjoin_path_methods = {
	.CustomName = KEY_JOIN_NAME,
	.PlanCustomPath = keyjoin_plan_path,
};

static const CustomScanMethods keyjoin_scan_methods = {
	.CustomName = KEY_JOIN_NAME,
	.CreateCustomScanState = keyjoin_create_state,
};

static const CustomExecMethods keyjoin_exec_methods = {
	.CustomName = KEY_JOIN_NAME,
	.BeginCustomScan = keyjoin_begin,
	.ExecCustomScan = keyjoin_exec,
	.EndCustomScan = keyjoin_end,
	.ReScanCustomScan = keyjoin_rescan,
	.ExplainCustomScan = keyjoin_explain,
};

/* ---------------------------------------------------------------- planning */

/* A foreign base relation of clickhouse_fdw (not a join, not grouped). */
static bool
is_our_base_rel(RelOptInfo *rel)
{
	ChFdwRelInfo *fp;

	if (rel->reloptkind != RELOPT_BASEREL || rel->rtekind != RTE_RELATION ||
		!rel->fdwroutine || rel->fdwroutine->GetForeignJoinPaths != chfdwGetForeignJoinPaths)
		return false;
	fp = (ChFdwRelInfo *) rel->fdw_private;
	return fp && !fp->is_join && !fp->is_upper && OidIsValid(fp->relid);
}

/*
 * The condition "foreign column = <a value of the local key's type>" as
 * the remote scan sends it (a Param stands for the value), if the
 * shippability walker accepts it; NULL if not. The value's type must be
 * one the batch's literals are written for.
 */
static OpExpr *
key_condition(PlannerInfo *root, RelOptInfo *frel, OpExpr *clause, bool outer_is_left)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) frel->fdw_private;
	Node	   *local = outer_is_left ? linitial(clause->args) : lsecond(clause->args);
	Node	   *remote = outer_is_left ? lsecond(clause->args) : linitial(clause->args);
	Node	   *rvar = chfdw_strip_relabel(remote);
	Oid			opno = outer_is_left ? get_commutator(clause->opno) : clause->opno;
	Param	   *p;
	OpExpr	   *cond;
	TypeClass	tc = chfdw_type_class(exprType(local));

	if (!OidIsValid(opno) || !rvar || !IsA(rvar, Var) ||
		((Var *) rvar)->varno != frel->relid || ((Var *) rvar)->varattno <= 0 ||
		((Var *) rvar)->varlevelsup != 0)
		return NULL;
	/*
	 * timestamps: ClickHouse's IN would convert sub-second literals;
	 * (numparam) numeric keys only for an integer column (the shippability
	 * check below: numconst.c), written as integers (chfdw_numparam_key)
	 */
	if (tc != TC_INT && tc != TC_TEXT && tc != TC_DATE && tc != TC_UUID && tc != TC_BOOL &&
		tc != TC_NUMERIC)
		return NULL;
	if (contain_volatile_functions(local))
		return NULL;
	p = makeNode(Param);
	p->paramkind = PARAM_EXEC;
	p->paramid = 0;				/* never evaluated: replaced by the key list */
	p->paramtype = exprType(local);
	p->paramtypmod = exprTypmod(local);
	p->paramcollid = exprCollation(local);
	p->location = -1;
	cond = (OpExpr *) make_opclause(opno, BOOLOID, false, (Expr *) copyObject(remote),
									(Expr *) p, InvalidOid, clause->inputcollid);
	if (!chfdw_is_shippable(root, frel, fp->relid, (Expr *) cond))
		return NULL;
	return cond;
}

/* An unparameterized, unsorted scan of the foreign table. */
static Path *
plain_foreign_path(RelOptInfo *frel)
{
	ListCell   *lc;

	foreach(lc, frel->pathlist)
	{
		Path	   *p = (Path *) lfirst(lc);

		if (IsA(p, ForeignPath) && p->param_info == NULL && p->pathkeys == NIL)
			return p;
	}
	return NULL;
}

/*
 * set_join_pathlist_hook: a key join for outerrel (local) JOIN innerrel (a
 * ClickHouse table) when there is a key, costed against the other paths.
 * (Some 160 lines: the checks, the choice of keys and the costs of the one
 * path, in the order each needs the one before.)
 */
static void
keyjoin_join_pathlist(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
					  RelOptInfo *innerrel, JoinType jointype, JoinPathExtraData *extra)
{
	Path	   *outer_path;
	Path	   *inner_path;
	RestrictInfo *key_ri = NULL;
	OpExpr	   *key_cond = NULL;
	bool		outer_is_left = false;
	List	   *cand_ris = NIL;
	List	   *cand_conds = NIL;
	List	   *cand_lefts = NIL;
	List	   *more_ris = NIL;
	List	   *more_conds = NIL;
	List	   *more_lefts = NIL;
	ListCell   *lc2;
	ListCell   *lc3;
	CustomPath *cpath;
	SpecialJoinInfo sj;
	ListCell   *lc;
	double		outer_rows,
				nbatches,
				fetched,
				sel;
	Cost		run_cost,
				remote_per_batch;
	QualCost	quals_cost;

	if (prev_join_pathlist_hook)
		prev_join_pathlist_hook(root, joinrel, outerrel, innerrel, jointype, extra);
	if (!enable_key_join || !is_our_base_rel(innerrel) || is_our_base_rel(outerrel))
		return;
	if (jointype != JOIN_INNER && jointype != JOIN_LEFT && jointype != JOIN_SEMI &&
		jointype != JOIN_ANTI && jointype != JOIN_UNIQUE_OUTER)
		return;
	/*
	 * Row marks (FOR UPDATE, UPDATE/DELETE ... FROM): an EvalPlanQual
	 * recheck of a scanrelid-0 scan would need the joined row rebuilt.
	 */
	if (root->rowMarks != NIL)
		return;
	if (!bms_is_empty(joinrel->lateral_relids) || !bms_is_empty(innerrel->lateral_relids) ||
		!bms_is_empty(outerrel->lateral_relids))
		return;
	outer_path = outerrel->cheapest_total_path;
	inner_path = plain_foreign_path(innerrel);
	if (!outer_path || outer_path->param_info || !inner_path)
		return;
	if (jointype == JOIN_UNIQUE_OUTER)
	{
		/* IN (SELECT ...): the local side made distinct, then an inner join */
		outer_path = (Path *) create_unique_path(root, outerrel, outer_path, extra->sjinfo);
		if (!outer_path)
			return;
		jointype = JOIN_INNER;
	}

	/* an inner join of the two sides, for the keys' selectivities */
	memset(&sj, 0, sizeof(sj));
	sj.type = T_SpecialJoinInfo;
	sj.min_lefthand = sj.syn_lefthand = outerrel->relids;
	sj.min_righthand = sj.syn_righthand = innerrel->relids;
	sj.jointype = JOIN_INNER;

	/* the key: of the usable equalities, the one that matches fewest rows */
	sel = 2.0;
	foreach(lc, extra->restrictlist)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		OpExpr	   *cond;
		bool		left;
		Selectivity s;

		/* a gating condition has no place in a scan's quals */
		if (ri->pseudoconstant)
			return;
		/* an outer join's keys are its own conditions (as a hash join's) */
		if (IS_OUTER_JOIN(jointype) && RINFO_IS_PUSHED_DOWN(ri, joinrel->relids))
			continue;
		if (!ri->can_join || !OidIsValid(ri->hashjoinoperator) || !IsA(ri->clause, OpExpr))
			continue;
		if (bms_is_subset(ri->left_relids, outerrel->relids) &&
			bms_is_subset(ri->right_relids, innerrel->relids))
			left = true;
		else if (bms_is_subset(ri->left_relids, innerrel->relids) &&
				 bms_is_subset(ri->right_relids, outerrel->relids))
			left = false;
		else
			continue;
		cond = key_condition(root, innerrel, (OpExpr *) ri->clause, left);
		if (!cond)
			continue;
		cand_ris = lappend(cand_ris, ri);
		cand_conds = lappend(cand_conds, cond);
		cand_lefts = lappend_int(cand_lefts, left);
		s = clause_selectivity(root, (Node *) ri, 0, JOIN_INNER, &sj);
		if (s < sel)
		{
			sel = s;
			key_ri = ri;
			key_cond = cond;
			outer_is_left = left;
		}
	}
	/* the other usable equalities are sent too (each its IN list) */
	forthree(lc, cand_ris, lc2, cand_conds, lc3, cand_lefts)
	{
		if (lfirst(lc) == key_ri)
			continue;
		more_ris = lappend(more_ris, lfirst(lc));
		more_conds = lappend(more_conds, lfirst(lc2));
		more_lefts = lappend_int(more_lefts, lfirst_int(lc3));
	}
	if (!key_ri)
		return;

	/*
	 * Costs: the local side; per batch one remote query, in which ClickHouse
	 * reads the table (at most) and returns the rows of the batch's keys;
	 * the rows that travel (at most the inner join's share of the table);
	 * hashing and writing each local key; the pairs' conditions.
	 */
	outer_rows = Max(outer_path->rows, 1.0);
	nbatches = ceil(outer_rows / key_join_batch_keys);
	fetched = clamp_row_est(Min(innerrel->rows, outer_rows * innerrel->rows * sel));
	cost_qual_eval(&quals_cost, extra->restrictlist, root);
	remote_per_batch = DEFAULT_STARTUP_COST + innerrel->tuples * REMOTE_SCAN_ROW_COST;
	run_cost = nbatches * remote_per_batch +
		fetched * (DEFAULT_ROW_COST + cpu_tuple_cost) +
		outer_rows * (2 * cpu_operator_cost + cpu_tuple_cost) +
		fetched * quals_cost.per_tuple + joinrel->rows * cpu_tuple_cost;

	cpath = makeNode(CustomPath);
	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = joinrel;
	cpath->path.pathtarget = joinrel->reltarget;
	cpath->path.param_info = NULL;
	cpath->path.parallel_aware = false;
	cpath->path.parallel_safe = false;
	cpath->path.parallel_workers = 0;
	cpath->path.rows = joinrel->rows;
	/* the first batch is read and sent before the first row comes back */
	cpath->path.startup_cost = outer_path->startup_cost +
		(outer_path->total_cost - outer_path->startup_cost) / nbatches +
		remote_per_batch + quals_cost.startup;
	cpath->path.total_cost = outer_path->total_cost + run_cost + quals_cost.startup;
	cpath->path.pathkeys = NIL;
	cpath->flags = 0;
	cpath->custom_paths = list_make2(outer_path, inner_path);
	cpath->custom_private = list_make5(makeInteger(jointype), makeInteger(outer_is_left),
									   key_ri, lcons(key_cond, more_conds), extra->restrictlist);
	cpath->custom_private = lappend(cpath->custom_private, more_ris);
	cpath->custom_private = lappend(cpath->custom_private, more_lefts);
	cpath->methods = &keyjoin_path_methods;
	add_path(joinrel, (Path *) cpath);
}

/*
 * The foreign scan's SQL with the key conditions, each one's values a
 * \x03 marker: the same SELECT list and conditions chfdwGetForeignPlan
 * wrote, the key conditions last, in key_conds' order.
 */
static void
add_key_condition(PlannerInfo *root, RelOptInfo *frel, ForeignScan *fscan, List *key_conds)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) frel->fdw_private;
	List	   *retrieved = (List *) list_nth(fscan->fdw_private, 1);
	List	   *retrieved2;
	Bitmapset  *attrs_used = NULL;
	List	   *conds;
	ListCell   *lc;
	StringInfoData sql;
	StringInfoData out;
	ChFdwDeparse dp;
	Relation	rel;
	const char *at;
	int			len;
	List	   *priv;
	int			nparams;
	int			nkeys = list_length(key_conds);
	int			j;

	foreach(lc, retrieved)
		attrs_used = bms_add_member(attrs_used,
									lfirst_int(lc) - FirstLowInvalidHeapAttributeNumber);
	conds = list_concat(list_copy(fscan->fdw_recheck_quals), key_conds);
	rel = table_open(fp->relid, NoLock);
	chfdw_deparse_init(&dp, root);
	initStringInfo(&sql);
	chfdw_deparse_rel_select(&dp, &sql, frel, rel, attrs_used, NIL, conds, NIL, -1,
							 &retrieved2);
	table_close(rel, NoLock);
	nparams = list_length(dp.params);
	if (!equal(retrieved, retrieved2) || nparams < nkeys)
		elog(ERROR, "unexpected remote SQL for a key join: %s", sql.data);
	/*
	 * the keys' values are the last run-time values, each a comparison's
	 * operand (shippable.c, deparse_marker): "(`k` = \x01nc\x01)"
	 */
	for (j = 0; j < nkeys; j++)
	{
		at = chfdw_find_key_marker(sql.data, nparams - nkeys + j, &len);
		if (!at)
			elog(ERROR, "unexpected remote SQL for a key join: %s", sql.data);
		initStringInfo(&out);
		appendBinaryStringInfo(&out, sql.data, at - sql.data);
		appendStringInfoString(&out, " IN \x03)");
		appendStringInfoString(&out, at + len);
		sql = out;
	}

	priv = list_copy(fscan->fdw_private);
	linitial(priv) = makeString(out.data);
	lthird(priv) = chfdw_plan_zone(&dp);
	fscan->fdw_private = priv;
	fscan->fdw_exprs = list_truncate(dp.params, nparams - nkeys);
}

/* PlanCustomPath: the CustomScan over the local side's plan and the foreign scan. */
static Plan *
keyjoin_plan_path(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path, List *tlist,
				  List *clauses, List *custom_plans)
{
	JoinType	jointype = (JoinType) intVal(list_nth(best_path->custom_private,
												  KeyJoinPrivateJoinType));
	RestrictInfo *key_ri = (RestrictInfo *) list_nth(best_path->custom_private, 2);
	List	   *key_conds = (List *) list_nth(best_path->custom_private, 3);
	List	   *restrictlist = (List *) list_nth(best_path->custom_private, 4);
	List	   *more_ris = (List *) list_nth(best_path->custom_private, 5);
	List	   *more_lefts = (List *) list_nth(best_path->custom_private, 6);
	List	   *more_clauses = NIL;
	Plan	   *outer_plan = (Plan *) linitial(custom_plans);
	ForeignScan *fscan = castNode(ForeignScan, lsecond(custom_plans));
	Path	   *inner_path = (Path *) lsecond(best_path->custom_paths);
	CustomScan *cscan = makeNode(CustomScan);
	List	   *joinquals;
	List	   *otherquals = NIL;
	List	   *scan_tlist = NIL;
	ListCell   *lc;
	int			resno = 1;

	(void) clauses;
	add_key_condition(root, inner_path->parent, fscan, key_conds);
	foreach(lc, more_ris)
		more_clauses = lappend(more_clauses, copyObject(lfirst_node(RestrictInfo, lc)->clause));
	if (IS_OUTER_JOIN(jointype))
		extract_actual_join_clauses(restrictlist, rel->relids, &joinquals, &otherquals);
	else
		joinquals = extract_actual_clauses(restrictlist, false);
	/* the key is matched by the hash table */
	joinquals = list_delete_ptr(joinquals, key_ri->clause);

	/* the scan tuple: the local side's columns, then the foreign scan's */
	foreach(lc, outer_plan->targetlist)
		scan_tlist = lappend(scan_tlist,
							 makeTargetEntry(copyObject(lfirst_node(TargetEntry, lc)->expr),
											 resno++, NULL, false));
	foreach(lc, fscan->scan.plan.targetlist)
		scan_tlist = lappend(scan_tlist,
							 makeTargetEntry(copyObject(lfirst_node(TargetEntry, lc)->expr),
											 resno++, NULL, false));

	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = otherquals;
	cscan->scan.scanrelid = 0;
	cscan->flags = best_path->flags;
	cscan->custom_plans = custom_plans;
	cscan->custom_exprs = list_make3(copyObject(key_ri->clause), joinquals, more_clauses);
	cscan->custom_private = list_make3(makeInteger(jointype),
									   list_nth(best_path->custom_private,
												KeyJoinPrivateOuterIsLeft),
									   more_lefts);
	cscan->custom_scan_tlist = scan_tlist;
	cscan->methods = &keyjoin_scan_methods;
	return &cscan->scan.plan;
}

/* ---------------------------------------------------------------- execution */

static Node *
keyjoin_create_state(CustomScan *cscan)
{
	KeyJoinState *ks = palloc0(sizeof(KeyJoinState));

	NodeSetTag(ks, T_CustomScanState);
	ks->css.methods = &keyjoin_exec_methods;
	return (Node *) ks;
}

static void
keyjoin_begin(CustomScanState *node, EState *estate, int eflags)
{
	KeyJoinState *ks = (KeyJoinState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	OpExpr	   *key = (OpExpr *) list_nth(cscan->custom_exprs, KeyJoinExprKey);
	List	   *quals = (List *) list_nth(cscan->custom_exprs, KeyJoinExprQuals);
	Node	   *outer_key;
	Node	   *inner_key;
	Oid			lhs_hash,
				rhs_hash,
				lhs_eq,
				rhs_eq;
	Plan	   *outer_plan = (Plan *) linitial(cscan->custom_plans);
	Plan	   *inner_plan = (Plan *) lsecond(cscan->custom_plans);
	List	   *more = (List *) list_nth(cscan->custom_exprs, KeyJoinExprMore);
	List	   *more_lefts = (List *) list_nth(cscan->custom_private, KeyJoinPrivateMoreLeft);
	ListCell   *lc;
	ListCell   *lc2;

	ks->jointype = (JoinType) intVal(list_nth(cscan->custom_private, KeyJoinPrivateJoinType));
	ks->outer_is_left = intVal(list_nth(cscan->custom_private, KeyJoinPrivateOuterIsLeft)) != 0;
	ks->batch_keys = key_join_batch_keys;
	ks->outer_ps = ExecInitNode(outer_plan, estate, eflags);
	ks->inner_ps = (ForeignScanState *) ExecInitNode(inner_plan, estate, eflags);
	node->custom_ps = list_make2(ks->outer_ps, ks->inner_ps);
	if (eflags & EXEC_FLAG_EXPLAIN_ONLY)
		return;

	ks->natts_outer = list_length(outer_plan->targetlist);
	ks->natts_inner = list_length(inner_plan->targetlist);
	outer_key = ks->outer_is_left ? linitial(key->args) : lsecond(key->args);
	inner_key = chfdw_strip_relabel(ks->outer_is_left ? lsecond(key->args) : linitial(key->args));
	if (!IsA(inner_key, Var) || ((Var *) inner_key)->varno != INDEX_VAR ||
		((Var *) inner_key)->varattno <= ks->natts_outer)
		elog(ERROR, "unexpected key of a key join");
	ks->inner_key_att = ((Var *) inner_key)->varattno - ks->natts_outer - 1;
	ks->outer_key = ExecInitExpr((Expr *) outer_key, &node->ss.ps);
	ks->join_quals = quals ? ExecInitQual(quals, &node->ss.ps) : NULL;
	ks->key_type = exprType(outer_key);
	get_typlenbyval(ks->key_type, &ks->key_len, &ks->key_byval);
	ks->collation = key->inputcollid;
	if (!get_op_hash_functions(key->opno, &lhs_hash, &rhs_hash) ||
		!get_compatible_hash_operators(key->opno, &lhs_eq, &rhs_eq))
		elog(ERROR, "could not find hash functions for operator %u", key->opno);
	fmgr_info(get_opcode(key->opno), &ks->eq_fn);
	fmgr_info(get_opcode(ks->outer_is_left ? lhs_eq : rhs_eq), &ks->outer_eq_fn);
	fmgr_info(ks->outer_is_left ? lhs_hash : rhs_hash, &ks->outer_hash_fn);
	fmgr_info(ks->outer_is_left ? rhs_hash : lhs_hash, &ks->inner_hash_fn);

	ks->row_slot = MakeSingleTupleTableSlot(ExecGetResultType(ks->outer_ps),
											&TTSOpsMinimalTuple);
	ks->batch_cxt = AllocSetContextCreate(estate->es_query_cxt, "clickhouse_fdw key join batch",
										  ALLOCSET_DEFAULT_SIZES);
	ks->nbuckets = 1;
	while (ks->nbuckets < ks->batch_keys * 2 && ks->nbuckets < (1 << 20))
		ks->nbuckets <<= 1;
	ks->buckets = MemoryContextAllocZero(estate->es_query_cxt,
										 sizeof(KeyJoinKey *) * ks->nbuckets);
	/* more keys: their local values, deduplicated per batch */
	ks->nmore = list_length(more);
	ks->more = palloc0(sizeof(KeyJoinMore) * Max(ks->nmore, 1));
	ks->more_values = palloc0(sizeof(Datum) * Max(ks->nmore, 1));
	forboth(lc, more, lc2, more_lefts)
	{
		OpExpr	   *op = lfirst_node(OpExpr, lc);
		bool		left = lfirst_int(lc2) != 0;
		KeyJoinMore *m = &ks->more[foreach_current_index(lc)];
		Node	   *local = left ? linitial(op->args) : lsecond(op->args);

		m->expr = ExecInitExpr((Expr *) local, &node->ss.ps);
		m->type = exprType(local);
		get_typlenbyval(m->type, &m->len, &m->byval);
		m->collation = op->inputcollid;
		if (!get_op_hash_functions(op->opno, &lhs_hash, &rhs_hash) ||
			!get_compatible_hash_operators(op->opno, &lhs_eq, &rhs_eq))
			elog(ERROR, "could not find hash functions for operator %u", op->opno);
		fmgr_info(left ? lhs_hash : rhs_hash, &m->hash_fn);
		fmgr_info(get_opcode(left ? lhs_eq : rhs_eq), &m->eq_fn);
		m->buckets = MemoryContextAllocZero(estate->es_query_cxt,
											sizeof(KeyJoinValue *) * ks->nbuckets);
	}
	ks->phase = KJ_FILL;
}

/* The scan tuple of a local row and (NULL: none) a remote one. */
static TupleTableSlot *
scan_tuple(KeyJoinState *ks, KeyJoinRow *row, TupleTableSlot *remote)
{
	TupleTableSlot *scan = ks->css.ss.ss_ScanTupleSlot;

	ExecClearTuple(scan);
	ExecStoreMinimalTuple(row->tuple, ks->row_slot, false);
	slot_getallattrs(ks->row_slot);
	memcpy(scan->tts_values, ks->row_slot->tts_values, sizeof(Datum) * ks->natts_outer);
	memcpy(scan->tts_isnull, ks->row_slot->tts_isnull, sizeof(bool) * ks->natts_outer);
	if (remote)
	{
		memcpy(scan->tts_values + ks->natts_outer, remote->tts_values,
			   sizeof(Datum) * ks->natts_inner);
		memcpy(scan->tts_isnull + ks->natts_outer, remote->tts_isnull,
			   sizeof(bool) * ks->natts_inner);
	}
	else
		memset(scan->tts_isnull + ks->natts_outer, true, sizeof(bool) * ks->natts_inner);
	return ExecStoreVirtualTuple(scan);
}

/*
 * A key into an IN list (its *nsent-th, after ", "), if a ClickHouse column
 * can hold it: false, writing nothing, for a key no row holds. Dates outside
 * Date (and, where the server has it, Date32) match nothing there; the
 * literal writer (chfdw_deparse_datum) would reject them. (numparam) A
 * numeric key of an integer column is written as an integer, or not at all
 * (chfdw_numparam_key).
 */
static bool
add_key(KeyJoinState *ks, StringInfo buf, int *nsent, Oid type, Datum v)
{
	int			len = buf->len;
	DateADT		d;
	int			y,
				m,
				dd;

	if (*nsent > 0)
		appendStringInfoString(buf, ", ");
	if (type == NUMERICOID)
	{
		if (chfdw_numparam_key(buf, v))
			goto sent;
		goto unsent;
	}
	if (type == DATEOID)
	{
		d = DatumGetDateADT(v);
		if (DATE_NOT_FINITE(d))
			goto unsent;
		if (d + UNIX_TO_PG_DAYS < 0 || d + UNIX_TO_PG_DAYS > 65535)
		{
			j2date(d + POSTGRES_EPOCH_JDATE, &y, &m, &dd);
			if (!ks->conn->caps.date32 || y < 1900 || y > 2299)
				goto unsent;
		}
	}
	chfdw_deparse_datum(buf, type, v, ks->conn);
sent:
	(*nsent)++;
	return true;
unsent:
	buf->len = len;
	buf->data[len] = '\0';
	return false;
}

/* The connection of the foreign scan's user mapping (as BeginForeignScan finds it). */
static ChFdwConn *
scan_connection(KeyJoinState *ks)
{
	ForeignScan *fs = (ForeignScan *) ks->inner_ps->ss.ps.plan;
	EState	   *estate = ks->css.ss.ps.state;
	RangeTblEntry *rte = exec_rt_fetch(fs->scan.scanrelid, estate);
	Oid			userid = OidIsValid(rte->checkAsUser) ? rte->checkAsUser : GetUserId();
	ForeignTable *table = GetForeignTable(rte->relid);
	ChFdwConn  *conn = chfdw_get_connection(GetUserMapping(userid, table->serverid));

	chfdw_server_caps(conn);
	return conn;
}

/* A more key's value into its batch's IN list, once (in batch_cxt). */
static void
add_more_value(KeyJoinState *ks, KeyJoinMore *m, Datum v)
{
	uint32		hash = DatumGetUInt32(FunctionCall1Coll(&m->hash_fn, m->collation, v));
	KeyJoinValue *e;

	for (e = m->buckets[hash & (ks->nbuckets - 1)]; e; e = e->next)
		if (e->hash == hash &&
			DatumGetBool(FunctionCall2Coll(&m->eq_fn, m->collation, e->value, v)))
			return;
	e = palloc(sizeof(KeyJoinValue));
	e->hash = hash;
	e->value = datumCopy(v, m->byval, m->len);
	e->next = m->buckets[hash & (ks->nbuckets - 1)];
	m->buckets[hash & (ks->nbuckets - 1)] = e;
	(void) add_key(ks, &m->keys, &m->nsent, m->type, e->value);
}

/* The batch's key lists, in bytes. */
static int
keys_bytes(KeyJoinState *ks)
{
	int			n = ks->keys.len;
	int			i;

	for (i = 0; i < ks->nmore; i++)
		n += ks->more[i].keys.len;
	return n;
}

/* Add the local row in outer to the batch. */
static void
add_row(KeyJoinState *ks, TupleTableSlot *outer)
{
	TupleTableSlot *scan = ks->css.ss.ss_ScanTupleSlot;
	ExprContext *econtext = ks->css.ss.ps.ps_ExprContext;
	MemoryContext old;
	KeyJoinRow *row;
	KeyJoinKey *k = NULL;
	Datum		key;
	Datum	   *more = ks->more_values;
	bool		isnull;
	uint32		hash = 0;
	int			i;

	/* the key, over the scan tuple (the local side's columns come first) */
	slot_getallattrs(outer);
	ExecClearTuple(scan);
	memcpy(scan->tts_values, outer->tts_values, sizeof(Datum) * ks->natts_outer);
	memcpy(scan->tts_isnull, outer->tts_isnull, sizeof(bool) * ks->natts_outer);
	memset(scan->tts_isnull + ks->natts_outer, true, sizeof(bool) * ks->natts_inner);
	ExecStoreVirtualTuple(scan);
	ResetExprContext(econtext);
	econtext->ecxt_scantuple = scan;
	key = ExecEvalExprSwitchContext(ks->outer_key, econtext, &isnull);

	/* more keys: a NULL one matches nothing either */
	for (i = 0; i < ks->nmore && !isnull; i++)
	{
		more[i] = ExecEvalExprSwitchContext(ks->more[i].expr, econtext, &isnull);
	}

	/* a NULL key matches nothing: only LEFT and ANTI keep the row */
	if (isnull && ks->jointype != JOIN_LEFT && ks->jointype != JOIN_ANTI)
		return;
	old = MemoryContextSwitchTo(ks->batch_cxt);
	for (i = 0; i < ks->nmore && !isnull; i++)
		add_more_value(ks, &ks->more[i], more[i]);
	row = palloc0(sizeof(KeyJoinRow));
	row->tuple = ExecCopySlotMinimalTuple(outer);
	if (ks->all_tail)
		ks->all_tail->next_all = row;
	else
		ks->all_head = row;
	ks->all_tail = row;
	if (!isnull)
	{
		hash = DatumGetUInt32(FunctionCall1Coll(&ks->outer_hash_fn, ks->collation, key));
		for (k = ks->buckets[hash & (ks->nbuckets - 1)]; k; k = k->next)
			if (k->hash == hash &&
				DatumGetBool(FunctionCall2Coll(&ks->outer_eq_fn, ks->collation, k->value, key)))
				break;
		if (!k)
		{
			k = palloc0(sizeof(KeyJoinKey));
			k->hash = hash;
			k->value = datumCopy(key, ks->key_byval, ks->key_len);
			k->next = ks->buckets[hash & (ks->nbuckets - 1)];
			ks->buckets[hash & (ks->nbuckets - 1)] = k;
			ks->nkeys++;
			(void) add_key(ks, &ks->keys, &ks->nsent, ks->key_type, k->value);
		}
		if (k->last)
			k->last->next = row;
		else
			k->rows = row;
		k->last = row;
	}
	MemoryContextSwitchTo(old);
}

/* Read the next batch of local rows and start its remote query. */
static void
fill_batch(KeyJoinState *ks)
{
	MemoryContext old;
	bool		need_conn = ks->key_type == DATEOID;
	bool		none = false;
	int			i;

	MemoryContextReset(ks->batch_cxt);
	memset(ks->buckets, 0, sizeof(KeyJoinKey *) * ks->nbuckets);
	ks->all_head = ks->all_tail = NULL;
	ks->nkeys = ks->nsent = 0;
	old = MemoryContextSwitchTo(ks->batch_cxt);
	initStringInfo(&ks->keys);
	appendStringInfoChar(&ks->keys, '(');
	for (i = 0; i < ks->nmore; i++)
	{
		KeyJoinMore *m = &ks->more[i];

		memset(m->buckets, 0, sizeof(KeyJoinValue *) * ks->nbuckets);
		m->nsent = 0;
		initStringInfo(&m->keys);
		appendStringInfoString(&m->keys, "\x03(");
		if (m->type == DATEOID)
			need_conn = true;
	}
	MemoryContextSwitchTo(old);
	/* date literals depend on the server's version */
	if (!ks->conn && need_conn)
		ks->conn = scan_connection(ks);

	while (!ks->outer_done && ks->nkeys < ks->batch_keys &&
		   keys_bytes(ks) < KEY_LIST_MAX_BYTES &&
		   MemoryContextMemAllocated(ks->batch_cxt, true) < (Size) work_mem * 1024)
	{
		TupleTableSlot *outer = ExecProcNode(ks->outer_ps);

		if (TupIsNull(outer))
			ks->outer_done = true;
		else
			add_row(ks, outer);
	}
	if (ks->all_head == NULL)
	{
		ks->phase = KJ_DONE;
		return;
	}
	ks->batches++;
	ks->cur = NULL;
	for (i = 0; i < ks->nmore; i++)
		if (ks->more[i].nsent == 0)
			none = true;
	if (ks->nsent == 0 || none)
	{
		/* no key that could match: no remote query */
		ks->phase = KJ_UNMATCHED;
		ks->cur = ks->all_head;
		return;
	}
	/* the lists, each after a \x03 but the first (chfdw_keyjoin_sql) */
	appendStringInfoChar(&ks->keys, ')');
	old = MemoryContextSwitchTo(ks->batch_cxt);
	for (i = 0; i < ks->nmore; i++)
	{
		appendStringInfoString(&ks->keys, ks->more[i].keys.data);
		appendStringInfoChar(&ks->keys, ')');
	}
	MemoryContextSwitchTo(old);
	chfdw_scan_set_keys(ks->inner_ps, ks->keys.data);
	if (ks->inner_started)
		ExecReScan(&ks->inner_ps->ss.ps);
	ks->inner_started = true;
	ks->queries++;
	ks->keys_sent += ks->nsent;
	for (i = 0; i < ks->nmore; i++)
		ks->keys_sent += ks->more[i].nsent;
	ks->phase = KJ_PROBE;
}

/* The next remote row's candidates (ks->cur); false at the end of the rows. */
static bool
next_remote_row(KeyJoinState *ks)
{
	for (;;)
	{
		TupleTableSlot *slot = ExecProcNode(&ks->inner_ps->ss.ps);
		Datum		v;
		uint32		hash;
		KeyJoinKey *k;

		if (TupIsNull(slot))
			return false;
		ks->remote_rows++;
		slot_getallattrs(slot);
		if (slot->tts_isnull[ks->inner_key_att])
			continue;
		v = slot->tts_values[ks->inner_key_att];
		hash = DatumGetUInt32(FunctionCall1Coll(&ks->inner_hash_fn, ks->collation, v));
		for (k = ks->buckets[hash & (ks->nbuckets - 1)]; k; k = k->next)
		{
			bool		eq;

			if (k->hash != hash)
				continue;
			eq = ks->outer_is_left ?
				DatumGetBool(FunctionCall2Coll(&ks->eq_fn, ks->collation, k->value, v)) :
				DatumGetBool(FunctionCall2Coll(&ks->eq_fn, ks->collation, v, k->value));
			if (eq)
				break;
		}
		if (!k)
			continue;			/* fetched but not a match (see the header) */
		ks->inner_slot = slot;
		ks->cur = k->rows;
		return true;
	}
}

/* ExecScan's access method: the next joined scan tuple, NULL at the end. */
static TupleTableSlot *
keyjoin_next(ScanState *ss)
{
	KeyJoinState *ks = (KeyJoinState *) ss;
	ExprContext *econtext = ss->ps.ps_ExprContext;

	for (;;)
	{
		switch (ks->phase)
		{
			case KJ_FILL:
				fill_batch(ks);
				break;
			case KJ_PROBE:
				while (ks->cur)
				{
					KeyJoinRow *row = ks->cur;
					TupleTableSlot *scan;

					ks->cur = row->next;
					/* SEMI, ANTI: one match decides */
					if ((ks->jointype == JOIN_SEMI || ks->jointype == JOIN_ANTI) && row->matched)
						continue;
					scan = scan_tuple(ks, row, ks->inner_slot);
					if (ks->join_quals)
					{
						ResetExprContext(econtext);
						econtext->ecxt_scantuple = scan;
						if (!ExecQual(ks->join_quals, econtext))
							continue;
					}
					row->matched = true;
					if (ks->jointype != JOIN_ANTI)
						return scan;
				}
				if (!next_remote_row(ks))
				{
					ks->phase = ks->jointype == JOIN_LEFT || ks->jointype == JOIN_ANTI ?
						KJ_UNMATCHED : KJ_FILL;
					ks->cur = ks->all_head;
				}
				break;
			case KJ_UNMATCHED:
				while (ks->cur)
				{
					KeyJoinRow *row = ks->cur;

					ks->cur = row->next_all;
					if (!row->matched && (ks->jointype == JOIN_LEFT || ks->jointype == JOIN_ANTI))
						return scan_tuple(ks, row, NULL);
				}
				ks->phase = ks->outer_done ? KJ_DONE : KJ_FILL;
				break;
			case KJ_DONE:
				return ExecClearTuple(ss->ss_ScanTupleSlot);
		}
		if (ks->phase == KJ_FILL && ks->outer_done)
			ks->phase = KJ_DONE;
	}
}

static bool
keyjoin_recheck(ScanState *ss, TupleTableSlot *slot)
{
	return true;
}

static TupleTableSlot *
keyjoin_exec(CustomScanState *node)
{
	return ExecScan(&node->ss, keyjoin_next, keyjoin_recheck);
}

static void
keyjoin_end(CustomScanState *node)
{
	KeyJoinState *ks = (KeyJoinState *) node;

	ExecEndNode(ks->outer_ps);
	ExecEndNode(&ks->inner_ps->ss.ps);
	if (ks->row_slot)
		ExecDropSingleTupleTableSlot(ks->row_slot);
}

static void
keyjoin_rescan(CustomScanState *node)
{
	KeyJoinState *ks = (KeyJoinState *) node;

	if (node->ss.ps.chgParam != NULL)
	{
		UpdateChangedParamSet(ks->outer_ps, node->ss.ps.chgParam);
		UpdateChangedParamSet(&ks->inner_ps->ss.ps, node->ss.ps.chgParam);
	}
	if (ks->outer_ps->chgParam == NULL)
		ExecReScan(ks->outer_ps);
	ks->phase = KJ_FILL;
	ks->outer_done = false;
	ks->cur = NULL;
}

static void
keyjoin_explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	KeyJoinState *ks = (KeyJoinState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	JoinType	jointype = (JoinType) intVal(list_nth(cscan->custom_private,
													  KeyJoinPrivateJoinType));
	List	   *context = set_deparse_context_plan(es->deparse_cxt, &cscan->scan.plan,
												   ancestors);
	bool		useprefix = list_length(es->rtable) > 1 || es->verbose;
	List	   *quals = (List *) list_nth(cscan->custom_exprs, KeyJoinExprQuals);

	ExplainPropertyText("Join Type",
						jointype == JOIN_INNER ? "Inner" : jointype == JOIN_LEFT ? "Left" :
						jointype == JOIN_SEMI ? "Semi" : "Anti", es);
	ExplainPropertyText("Key",
						deparse_expression(list_nth(cscan->custom_exprs, KeyJoinExprKey),
										   context, useprefix, false), es);
	if (quals)
		ExplainPropertyText("Join Filter",
							deparse_expression((Node *) make_ands_explicit(quals), context,
											   useprefix, false), es);
	if (es->verbose)
		ExplainPropertyInteger("Batch Keys", NULL, key_join_batch_keys, es);
	if (es->analyze)
	{
		ExplainPropertyInteger("Batches", NULL, ks->batches, es);
		ExplainPropertyInteger("Remote Queries", NULL, ks->queries, es);
		ExplainPropertyInteger("Keys Sent", NULL, ks->keys_sent, es);
		ExplainPropertyInteger("Remote Rows", NULL, ks->remote_rows, es);
	}
}

/*
 * The remote SQL of a key join's foreign scan with the batch's key lists in
 * place of its \x03 markers, allocated in cxt: keys is the lists in marker
 * order, "(k1, k2, ...)", each after the first preceded by \x03 (no
 * literal holds a control byte).
 */
char *
chfdw_keyjoin_sql(const char *sql, const char *keys, MemoryContext cxt)
{
	const char *at = strchr(sql, '\x03');
	StringInfoData buf;
	MemoryContext old;

	if (!at)
		return (char *) sql;
	if (!keys)
		elog(ERROR, "key join scan started without its keys");
	old = MemoryContextSwitchTo(cxt);
	initStringInfo(&buf);
	while (at)
	{
		const char *end = strchr(keys, '\x03');

		if (!*keys)
			elog(ERROR, "key join scan started without all its keys");
		appendBinaryStringInfo(&buf, sql, at - sql);
		appendBinaryStringInfo(&buf, keys, end ? end - keys : (int) strlen(keys));
		keys = end ? end + 1 : keys + strlen(keys);
		sql = at + 1;
		at = strchr(sql, '\x03');
	}
	appendStringInfoString(&buf, sql);
	MemoryContextSwitchTo(old);
	return buf.data;
}

/* From _PG_init: the GUCs, the custom scan and the join path hook. */
void
chfdw_keyjoin_init(void)
{
	DefineCustomBoolVariable("clickhouse_fdw.enable_key_join",
							 "Joins a local relation with a ClickHouse table by sending its keys.",
							 "The local side's distinct join keys go to ClickHouse in IN lists, "
							 "batch by batch, and the rows that come back are joined locally.",
							 &enable_key_join, true, PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("clickhouse_fdw.key_join_batch_keys",
							"Distinct keys sent to ClickHouse in one query of a key join.",
							NULL, &key_join_batch_keys, 5000, 1, 100000, PGC_USERSET, 0,
							NULL, NULL, NULL);
	RegisterCustomScanMethods(&keyjoin_scan_methods);
	prev_join_pathlist_hook = set_join_pathlist_hook;
	set_join_pathlist_hook = keyjoin_join_pathlist;
}
