/*-------------------------------------------------------------------------
 * window.c
 *	  The upper stages ClickHouse computes above a relation it computes
 *	  already (a foreign table, a join of foreign tables, a grouped
 *	  relation): SELECT DISTINCT (UPPERREL_DISTINCT), window functions
 *	  (UPPERREL_WINDOW), and the GROUP BY GROUPING SETS form of a grouped
 *	  relation. Each is sent only where ClickHouse gives PostgreSQL's answer:
 *
 *	- DISTINCT: over columns and shippable values of exact equality (not
 *	  floats: ClickHouse keeps -0 apart from 0, and 18.16 one NaN apart
 *	  from another; text under a deterministic collation, where equality is
 *	  byte equality), or over every output of a grouped relation. DISTINCT
 *	  ON stays local (PostgreSQL keeps the first row of each set in the
 *	  query's ORDER BY, which the remote DISTINCT cannot express), and so
 *	  does DISTINCT over grouping sets (26.5 applies it within each set).
 *	- Windows (servers with caps.window_functions): row_number, rank,
 *	  dense_rank, percent_rank, cume_dist, ntile, lag/lead, first_value,
 *	  last_value, nth_value and the aggregates of window_agg_ok (count, sum,
 *	  min, max, avg, bool_*, bit_*, the integer variance family, string_agg
 *	  and array_agg over ordered windows, running float sums), PARTITION BY
 *	  and ORDER BY of columns with explicit NULLS
 *	  placement, ROWS frames and the RANGE frames without offsets, always
 *	  written out (PostgreSQL's default: RANGE BETWEEN UNBOUNDED PRECEDING
 *	  AND CURRENT ROW, peers included). See deparse_window_func for how each
 *	  keeps PostgreSQL's value.
 *	- Grouping sets (servers with caps.grouping_sets): GROUP BY GROUPING
 *	  SETS (...) (ROLLUP and CUBE expanded by PostgreSQL), with
 *	  group_by_use_nulls = 1 (the columns a set does not group are NULL, as
 *	  PostgreSQL's; ClickHouse fills the type's default otherwise, which
 *	  18.16's WITH ROLLUP always does) and force_grouping_standard_
 *	  compatibility = 1 (GROUPING() is 1 for a column not grouped).
 * The capabilities are the server's (chfdw_caps_try): planning a window or
 * a grouping set over a foreign table asks the server its version once per
 * connection; a server that cannot be asked (probe.c) has neither.
 *
 * src/fdw/window.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/planmain.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "parser/parse_clause.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/typcache.h"

#include "chfdw.h"
#include "shippable.h"

#define STAGE_CREDIT 2.0		/* as the grouped relation's REMOTE_AGG_CREDIT */

/* The base relation or join a relation ClickHouse computes is built on. */
static RelOptInfo *
bottom_rel(RelOptInfo *rel)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) rel->fdw_private;

	return fp->is_upper ? fp->outerrel : rel;
}

/*
 * What the server of a base relation or join can do (one probe per
 * connection), or NULL when it cannot be asked (probe.c: the construct is
 * then PostgreSQL's).
 */
static const ch_caps *
rel_caps(RelOptInfo *bottom)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) bottom->fdw_private;

	return chfdw_caps_try(fp->userid, fp->serverid);
}

/* A relation below an upper stage: a foreign table or a join, all of its conditions sent. */
static bool
plain_input(RelOptInfo *rel)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) rel->fdw_private;

	return fp && !fp->is_upper && fp->local_conds == NIL &&
		(fp->is_join || rel->reloptkind == RELOPT_BASEREL);
}

/*
 * Are two values equal in ClickHouse exactly when they are in PostgreSQL
 * (DISTINCT, PARTITION BY)? Not floats (-0 and 0, NaNs), not types without
 * a mapping; text under a deterministic collation (byte equality).
 */
static bool
equality_exact(Node *e)
{
	TypeClass	tc = chfdw_type_class(exprType(e));
	Oid			coll = exprCollation(e);

	if (tc == TC_NONE || tc == TC_FLOAT)
		return false;
	if (tc == TC_TEXT && OidIsValid(coll) && !get_collation_isdeterministic(coll))
		return false;
	return true;
}

/* Costs: ClickHouse reads the rows, computes the stage, sends rows back. */
static void
stage_costs(RelOptInfo *bottom, double rows, Cost *startup, Cost *total)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) bottom->fdw_private;

	*startup = DEFAULT_STARTUP_COST + fp->scanned * REMOTE_SCAN_ROW_COST - STAGE_CREDIT;
	*total = *startup + rows * (DEFAULT_ROW_COST + cpu_tuple_cost);
}

static ChFdwRelInfo *
make_stage(RelOptInfo *input_rel, UpperRelationKind stage, List *tlist)
{
	ChFdwRelInfo *ifp = (ChFdwRelInfo *) input_rel->fdw_private;
	RelOptInfo *bottom = bottom_rel(input_rel);
	ChFdwRelInfo *bfp = (ChFdwRelInfo *) bottom->fdw_private;
	ChFdwRelInfo *fp = palloc0(sizeof(ChFdwRelInfo));

	fp->relid = ifp->relid;
	fp->serverid = bfp->serverid;
	fp->userid = bfp->userid;
	fp->scanned = bfp->scanned;
	fp->is_upper = true;
	fp->outerrel = bottom;
	fp->stage = stage;
	fp->stage_input = input_rel;
	fp->stage_tlist = tlist;
	fp->grouping_sets = ifp->grouping_sets;
	return fp;
}

/* ---- DISTINCT ---- */

void
chfdw_distinct_paths(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *output_rel)
{
	ChFdwRelInfo *ifp = (ChFdwRelInfo *) input_rel->fdw_private;
	Query	   *parse = root->parse;
	PathTarget *target = root->upper_targets[UPPERREL_DISTINCT];
	RelOptInfo *bottom;
	ChFdwRelInfo *fp;
	List	   *tlist = NIL;
	List	   *exprs = NIL;
	ListCell   *lc;
	double		rows;
	Cost		startup,
				total;
	int			i = 0;
	bool		grouped;

	if (!ifp || output_rel->fdw_private || ifp->stage || parse->hasDistinctOn ||
		parse->hasTargetSRFs || parse->hasWindowFuncs || !target)
		return;
	grouped = ifp->is_upper;
	if (grouped ? ifp->local_conds != NIL : !plain_input(input_rel))
		return;
	/*
	 * Not over grouping sets: 26.5 keeps a row of each set apart under
	 * SELECT DISTINCT (GROUPING SETS ((p), (p)) returns every row twice).
	 */
	if (grouped && ifp->grouping_sets)
		return;
	bottom = bottom_rel(input_rel);
	foreach(lc, target->exprs)
	{
		Expr	   *e = (Expr *) lfirst(lc);
		Index		ref = get_pathtarget_sortgroupref(target, i++);

		/* every output is a DISTINCT key */
		if (!ref || !get_sortgroupref_clause_noerr(ref, parse->distinctClause))
			return;
		/* (tskey) a timestamp column (or date_trunc of one): its wall time's key */
		if (!equality_exact((Node *) e) &&
			!(exprType((Node *) e) == TIMESTAMPOID &&
			  chfdw_is_shippable_grouping_expr(bottom, ifp->relid, e, true)))
			return;
		if (grouped)
		{
			/* one of the grouped relation's outputs, as ClickHouse returns it */
			if (!tlist_member(e, ifp->grouped_tlist) ||
				chfdw_agg_finish(e) != CHFDW_FINISH_NONE)
				return;
		}
		else if (!chfdw_is_shippable_value(bottom, ifp->relid, e) &&
				 !((chfdw_is_key_only_call((Node *) e) || exprType((Node *) e) == TIMESTAMPOID) &&
				   chfdw_is_shippable_grouping_expr(bottom, ifp->relid, e, true)))
			return;				/* (tsdate) ts::date, date_trunc: as keys */
		else
		{
			ShipCtx		cx = chfdw_ship_ctx(bottom, ifp->relid);

			if (chfdw_dates5_fine_ticks(&cx, (Node *) e))
				return;			/* (dates5) ticks of one microsecond */
		}
		exprs = lappend(exprs, e);
	}
	if (grouped)
	{
		/* SELECT DISTINCT over the groups: exactly the grouped outputs */
		foreach(lc, ifp->grouped_tlist)
			if (!list_member(exprs, lfirst_node(TargetEntry, lc)->expr))
				return;
		tlist = ifp->grouped_tlist;
	}
	else
		tlist = add_to_flat_tlist(NIL, exprs);

	fp = make_stage(input_rel, UPPERREL_DISTINCT, tlist);
	output_rel->fdw_private = fp;
	rows = estimate_num_groups(root, exprs, input_rel->rows, NULL, NULL);
	stage_costs(bottom, rows, &startup, &total);
	add_path(output_rel, (Path *) create_foreign_upper_path(root, output_rel, target, rows,
															startup, total, NIL, NULL, NIL));
	/* the query's ORDER BY, sorted by ClickHouse */
	if (root->sort_pathkeys &&
		(grouped ?
		 chfdw_grouped_pathkeys_shippable(bottom, ifp->relid, root->sort_pathkeys,
										  ifp->grouped_tlist) :
		 chfdw_pathkeys_shippable(bottom, ifp->relid, root->sort_pathkeys, exprs)))
		add_path(output_rel, (Path *) create_foreign_upper_path(root, output_rel, target, rows,
																startup,
																total + rows * cpu_operator_cost,
																root->sort_pathkeys, NULL, NIL));
}

/* ---- windows ---- */

/* The WindowClause a window function is computed over. */
static WindowClause *
window_clause(Query *parse, Index winref)
{
	ListCell   *lc;

	foreach(lc, parse->windowClause)
	{
		WindowClause *wc = lfirst_node(WindowClause, lc);

		if (wc->winref == winref)
			return wc;
	}
	return NULL;
}

/* A constant integer >= min (a frame offset, an ntile or nth_value argument). */
static bool
const_count(Node *n, int64 min, int64 *v)
{
	Const	   *c;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Const) || ((Const *) n)->constisnull)
		return false;
	c = (Const *) n;
	switch (c->consttype)
	{
		case INT8OID:
			*v = DatumGetInt64(c->constvalue);
			break;
		case INT4OID:
			*v = DatumGetInt32(c->constvalue);
			break;
		case INT2OID:
			*v = DatumGetInt16(c->constvalue);
			break;
		default:
			return false;
	}
	return *v >= min;
}

/*
 * A value a window uses (an argument, a PARTITION BY or ORDER BY key):
 * over a table or join, a column (keys) or a shippable value; over groups,
 * a grouping column or an aggregate the grouped query returns as itself.
 */
static bool
stage_value_ok(ShipCtx *cx, RelOptInfo *input_rel, Node *e, bool key)
{
	ChFdwRelInfo *ifp = (ChFdwRelInfo *) input_rel->fdw_private;
	Node	   *n = chfdw_strip_relabel(e);

	if (ifp->is_upper)
		return (IsA(n, Var) || IsA(n, Aggref)) && tlist_member((Expr *) n, ifp->grouped_tlist) &&
			chfdw_agg_finish((Expr *) n) == CHFDW_FINISH_NONE;
	if (key && !chfdw_is_our_var(cx, e))
		return false;
	return chfdw_is_shippable_value(input_rel, ifp->relid, (Expr *) e) &&
		!contain_volatile_functions(e);
}

/* A value of a window, as ClickHouse SQL: an aggregate of the groups, or a value. */
static void
deparse_item(StringInfo buf, ShipCtx *cx, Node *e)
{
	if (IsA(chfdw_strip_relabel(e), Aggref))
		chfdw_deparse_aggref(buf, cx, (Aggref *) chfdw_strip_relabel(e));
	else
		chfdw_deparse_value(buf, cx, e);
}

/*
 * Can ClickHouse sort by this window ORDER BY key as PostgreSQL does: the
 * type's default order (ascending or descending), text under a collation
 * that orders by bytes, not uuid; floats sort with NaN placed
 * (chfdw_deparse_sort_value).
 */
static bool
window_sort_ok(ShipCtx *cx, SortGroupClause *sgc, Node *e)
{
	Oid			type = exprType(e);
	TypeClass	tc = chfdw_type_class(type);
	TypeCacheEntry *tce;

	if (tc == TC_NONE || tc == TC_UUID)
		return false;
	if (tc == TC_TEXT && !chfdw_ordering_collation_ok(cx, exprCollation(e)))
		return false;
	tce = lookup_type_cache(type, TYPECACHE_LT_OPR | TYPECACHE_GT_OPR);
	return sgc->sortop == tce->lt_opr || sgc->sortop == tce->gt_opr;
}

/*
 * The frame: ROWS with offsets ClickHouse takes (it refuses a start after
 * the end), RANGE without offsets (ClickHouse's take one numeric column),
 * no GROUPS, no EXCLUDE.
 */
static bool
frame_ok(WindowClause *wc)
{
	int			fo = wc->frameOptions;
	int64		s = 0,
				e = 0;

	if (!(fo & FRAMEOPTION_NONDEFAULT))
		return true;
	if (fo & (FRAMEOPTION_GROUPS | FRAMEOPTION_EXCLUSION))
		return false;
	if (fo & FRAMEOPTION_RANGE)
		return !(fo & (FRAMEOPTION_START_OFFSET | FRAMEOPTION_END_OFFSET));
	if ((fo & FRAMEOPTION_START_OFFSET) && !const_count(wc->startOffset, 0, &s))
		return false;
	if ((fo & FRAMEOPTION_END_OFFSET) && !const_count(wc->endOffset, 0, &e))
		return false;
	if ((fo & FRAMEOPTION_START_OFFSET_PRECEDING) && (fo & FRAMEOPTION_END_OFFSET_PRECEDING) &&
		s < e)
		return false;
	if ((fo & FRAMEOPTION_START_OFFSET_FOLLOWING) && (fo & FRAMEOPTION_END_OFFSET_FOLLOWING) &&
		s > e)
		return false;
	return true;
}

/* Can the frame hold no row (it need not hold the current one)? */
static bool
frame_may_be_empty(WindowClause *wc)
{
	int			fo = wc->frameOptions;

	return (fo & FRAMEOPTION_NONDEFAULT) &&
		(fo & (FRAMEOPTION_START_OFFSET_FOLLOWING | FRAMEOPTION_END_OFFSET_PRECEDING));
}

/* PARTITION BY and ORDER BY of a window: columns ClickHouse compares as PostgreSQL. */
static bool
window_clause_ok(ShipCtx *cx, Query *parse, WindowClause *wc, RelOptInfo *input_rel)
{
	ListCell   *lc;

	if (!frame_ok(wc))
		return false;
	foreach(lc, wc->partitionClause)
	{
		Node	   *e = (Node *) get_sortgroupclause_expr(lfirst_node(SortGroupClause, lc),
														  parse->targetList);

		if (!equality_exact(e) || !stage_value_ok(cx, input_rel, e, true) ||
			chfdw_dates5_fine_ticks(cx, e))
			return false;
	}
	foreach(lc, wc->orderClause)
	{
		SortGroupClause *sgc = lfirst_node(SortGroupClause, lc);
		Node	   *e = (Node *) get_sortgroupclause_expr(sgc, parse->targetList);

		/* (peers: ticks of one microsecond are one value in PostgreSQL) */
		if (!window_sort_ok(cx, sgc, e) || !stage_value_ok(cx, input_rel, e, true) ||
			chfdw_dates5_fine_ticks(cx, e))
			return false;
	}
	return true;
}

/* A window aggregate as the Aggref the aggregate deparser knows. */
static Aggref *
window_aggref(WindowFunc *wf)
{
	Aggref	   *agg = makeNode(Aggref);
	ListCell   *lc;
	int			i = 0;

	agg->aggfnoid = wf->winfnoid;
	agg->aggtype = wf->wintype;
	agg->aggcollid = wf->wincollid;
	agg->inputcollid = wf->inputcollid;
	agg->aggfilter = wf->aggfilter;
	agg->aggstar = wf->winstar;
	agg->aggkind = AGGKIND_NORMAL;
	agg->aggsplit = AGGSPLIT_SIMPLE;
	agg->location = wf->location;
	foreach(lc, wf->args)
		agg->args = lappend(agg->args, makeTargetEntry((Expr *) lfirst(lc), ++i, NULL, false));
	return agg;
}

/* A value argument of a window function. */
static bool
window_arg_ok(ShipCtx *cx, RelOptInfo *input_rel, Node *e)
{
	return chfdw_type_class(exprType(e)) != TC_NONE && stage_value_ok(cx, input_rel, e, false);
}

/*
 * The aggregates sent over a window (tc: the class of the first argument's
 * type), each in the form of grouped queries (chfdw_deparse_aggref), every
 * ClickHouse aggregate call of it over the window's frame, which ClickHouse
 * fills in the window's order (it adds a frame's rows again when the frame's
 * start moves, never subtracts):
 * - count, sum, min, max, avg: as grouped. sum of double precision only
 *	 over ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW (a running sum:
 *	 ClickHouse adds one row per row, in the frame's order, as PostgreSQL's
 *	 float8pl does; a frame whose start moves or whose end jumps over peers
 *	 is added again as a batch summed in several partial sums: 1e17 and then
 *	 99,999 ones gave 1e17 + 96,020, PostgreSQL 1e17), with PostgreSQL's
 *	 22003 where a sum of finite values overflows (float_sum_guard), and
 *	 only when PostgreSQL reads every row (reads_all: no LIMIT, no cursor),
 *	 as it then raises too. Not of real (PostgreSQL sums real in float4),
 *	 nor avg of floats: float8_accum also raises where its Youngs-Cramer
 *	 sum of squares overflows (1e300 and -1e300), which ClickHouse does not
 *	 compute; min / max of floats stay local as grouped;
 * - bool_and, bool_or, every: min / max of 0 and 1 (NULL over a frame of
 *	 only NULLs or no rows);
 * - bit_and, bit_or, bit_xor of integers: groupBit* of the unsigned bits;
 * - the variance family of smallint, integer and bigint: the exact count,
 *	 sum and sum of squares of each row's frame, finished per row by
 *	 PostgreSQL with numeric arithmetic (finish.c), as grouped; not of
 *	 floats: ClickHouse's varSamp is not PostgreSQL's Youngs-Cramer update,
 *	 nor does it raise on overflow;
 * - string_agg(text, constant), array_agg: only with ORDER BY in the window
 *	 (PostgreSQL's frame is then in that order, peers in the order of its
 *	 sort: any such order is PostgreSQL's answer); NULLs kept in arrays
 *	 (1-tuples), an empty frame NULL.
 */
static bool
window_agg_ok(const char *name, Oid argtype, WindowClause *wc, bool reads_all)
{
	TypeClass	tc = chfdw_type_class(argtype);
	int			fo = wc->frameOptions;

	if (strcmp(name, "count") == 0)
		return true;
	if (strcmp(name, "avg") == 0)
		return tc != TC_FLOAT;
	if (strcmp(name, "sum") == 0)
		return tc != TC_FLOAT ||
			(argtype == FLOAT8OID && reads_all &&
			 (fo & FRAMEOPTION_NONDEFAULT) && (fo & FRAMEOPTION_ROWS) &&
			 (fo & FRAMEOPTION_START_UNBOUNDED_PRECEDING) && (fo & FRAMEOPTION_END_CURRENT_ROW) &&
			 !(fo & FRAMEOPTION_EXCLUSION));
	if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0)
		return tc != TC_FLOAT;
	if (strcmp(name, "bool_and") == 0 || strcmp(name, "bool_or") == 0 ||
		strcmp(name, "every") == 0)
		return tc == TC_BOOL;
	if (strcmp(name, "bit_and") == 0 || strcmp(name, "bit_or") == 0 ||
		strcmp(name, "bit_xor") == 0)
		return tc == TC_INT;
	if (strcmp(name, "stddev") == 0 || strcmp(name, "stddev_samp") == 0 ||
		strcmp(name, "stddev_pop") == 0 || strcmp(name, "variance") == 0 ||
		strcmp(name, "var_samp") == 0 || strcmp(name, "var_pop") == 0)
		return tc == TC_INT;
	if (strcmp(name, "string_agg") == 0 || strcmp(name, "array_agg") == 0)
		return wc->orderClause != NIL;
	return false;
}

static bool
window_func_ok(ShipCtx *cx, Query *parse, WindowFunc *wf, RelOptInfo *input_rel, bool reads_all)
{
	RelOptInfo *bottom = bottom_rel(input_rel);
	Oid			relid = ((ChFdwRelInfo *) input_rel->fdw_private)->relid;
	WindowClause *wc = window_clause(parse, wf->winref);
	char	   *name;
	int			nargs = list_length(wf->args);
	int64		n;

	if (!wc || wf->winfnoid >= FirstGenbkiObjectId ||
		!window_clause_ok(cx, parse, wc, input_rel))
		return false;
	name = get_func_name(wf->winfnoid);
	if (!name)
		return false;
	if (wf->winagg)
	{
		Aggref	   *agg;

		if (!window_agg_ok(name, nargs >= 1 ? exprType((Node *) linitial(wf->args)) : INT8OID, wc,
						   reads_all))
			return false;
		if (wf->aggfilter && contain_volatile_functions((Node *) wf->aggfilter))
			return false;
		agg = window_aggref(wf);
		return chfdw_aggref_shippable(cx, agg);
	}
	if (wf->aggfilter)
		return false;
	if (strcmp(name, "row_number") == 0 || strcmp(name, "rank") == 0 ||
		strcmp(name, "dense_rank") == 0 || strcmp(name, "percent_rank") == 0 ||
		strcmp(name, "cume_dist") == 0)
		return nargs == 0;
	if (strcmp(name, "ntile") == 0)
		return nargs == 1 && const_count(linitial(wf->args), 1, &n);
	if (strcmp(name, "first_value") == 0 || strcmp(name, "last_value") == 0)
		return nargs == 1 && window_arg_ok(cx, input_rel, linitial(wf->args));
	if (strcmp(name, "nth_value") == 0)
		return nargs == 2 && window_arg_ok(cx, input_rel, linitial(wf->args)) &&
			const_count(lsecond(wf->args), 1, &n);
	if (strcmp(name, "lag") == 0 || strcmp(name, "lead") == 0)
	{
		if (nargs < 1 || !window_arg_ok(cx, input_rel, linitial(wf->args)))
			return false;
		if (nargs >= 2 && !const_count(lsecond(wf->args), 0, &n))
			return false;
		if (nargs == 3)
		{
			/*
			 * A constant default of a type ClickHouse's if() unifies with
			 * the column's without changing the value.
			 */
			Node	   *d = chfdw_strip_relabel(lthird(wf->args));
			TypeClass	tc = chfdw_type_class(exprType(d));

			if (!IsA(d, Const))
				return false;
			/*
			 * (a double precision default of a double precision value: if()
			 * of two Float64s; NaN is no shippable constant)
			 */
			if (!((Const *) d)->constisnull &&
				!(tc == TC_INT || tc == TC_TEXT || tc == TC_DATE || tc == TC_BOOL ||
				  (exprType(d) == FLOAT8OID && exprType(linitial(wf->args)) == FLOAT8OID)))
				return false;
			if (!chfdw_is_shippable_value(bottom, relid, (Expr *) d))
				return false;
		}
		return true;
	}
	return false;
}

/* "PARTITION BY ..." (with a leading space), or nothing. */
static void
deparse_partition(StringInfo buf, ShipCtx *cx, Query *parse, WindowClause *wc)
{
	ListCell   *lc;
	bool		first = true;

	foreach(lc, wc->partitionClause)
	{
		appendStringInfoString(buf, first ? "PARTITION BY " : ", ");
		deparse_item(buf, cx, (Node *) get_sortgroupclause_expr(lfirst_node(SortGroupClause, lc),
																parse->targetList));
		first = false;
	}
}

static void
deparse_order(StringInfo buf, ShipCtx *cx, Query *parse, WindowClause *wc)
{
	ListCell   *lc;
	bool		first = true;

	foreach(lc, wc->orderClause)
	{
		SortGroupClause *sgc = lfirst_node(SortGroupClause, lc);
		Node	   *e = (Node *) get_sortgroupclause_expr(sgc, parse->targetList);
		TypeCacheEntry *tce = lookup_type_cache(exprType(e), TYPECACHE_GT_OPR);

		appendStringInfoString(buf, first ? (buf->len > 1 ? " ORDER BY " : "ORDER BY ") : ", ");
		chfdw_deparse_sort_value(buf, cx, e, sgc->sortop == tce->gt_opr, sgc->nulls_first);
		first = false;
	}
}

static void
frame_bound(StringInfo buf, int fo, bool start, Node *offset)
{
	if (fo & (start ? FRAMEOPTION_START_UNBOUNDED_PRECEDING : FRAMEOPTION_END_UNBOUNDED_PRECEDING))
		appendStringInfoString(buf, "UNBOUNDED PRECEDING");
	else if (fo & (start ? FRAMEOPTION_START_UNBOUNDED_FOLLOWING : FRAMEOPTION_END_UNBOUNDED_FOLLOWING))
		appendStringInfoString(buf, "UNBOUNDED FOLLOWING");
	else if (fo & (start ? FRAMEOPTION_START_CURRENT_ROW : FRAMEOPTION_END_CURRENT_ROW))
		appendStringInfoString(buf, "CURRENT ROW");
	else
	{
		int64		n = 0;

		(void) const_count(offset, 0, &n);
		appendStringInfo(buf, INT64_FORMAT " %s", n,
						 (fo & (start ? FRAMEOPTION_START_OFFSET_PRECEDING :
								FRAMEOPTION_END_OFFSET_PRECEDING)) ? "PRECEDING" : "FOLLOWING");
	}
}

/* How a window spec is written (whole: its partitions' every row, in order). */
typedef enum WinForm
{
	WIN_FRAME,					/* the window's own frame, written out */
	WIN_WHOLE_ORDERED,			/* ORDER BY, every row of the partition */
	WIN_WHOLE,					/* no ORDER BY, every row of the partition */
	WIN_PEERS					/* ORDER BY, up to the current row's last peer */
} WinForm;

/* "(PARTITION BY ... ORDER BY ... <frame>)" */
static char *
window_spec(ShipCtx *cx, Query *parse, WindowClause *wc, WinForm form)
{
	StringInfoData buf;
	int			fo = wc->frameOptions;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '(');
	deparse_partition(&buf, cx, parse, wc);
	if (form != WIN_WHOLE)
		deparse_order(&buf, cx, parse, wc);
	if (buf.len > 1)
		appendStringInfoChar(&buf, ' ');
	if (form == WIN_FRAME && (fo & FRAMEOPTION_NONDEFAULT))
	{
		appendStringInfoString(&buf, (fo & FRAMEOPTION_ROWS) ? "ROWS BETWEEN " : "RANGE BETWEEN ");
		frame_bound(&buf, fo, true, wc->startOffset);
		appendStringInfoString(&buf, " AND ");
		frame_bound(&buf, fo, false, wc->endOffset);
	}
	else if (form == WIN_FRAME || form == WIN_PEERS)
		appendStringInfoString(&buf, "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW");
	else
		appendStringInfoString(&buf, "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING");
	appendStringInfoChar(&buf, ')');
	return buf.data;
}

/* sum of double precision over a window (window_agg_ok) */
static bool
is_float_sum(WindowFunc *wf, const char *name)
{
	return strcmp(name, "sum") == 0 &&
		list_length(wf->args) == 1 &&
		chfdw_type_class(exprType((Node *) linitial(wf->args))) == TC_FLOAT;
}

/*
 * A running float sum with PostgreSQL's overflow error: where the frame's
 * sum is infinite though none of its values is (NaN or infinite), float8pl
 * raised 22003 at the row that made it so ("value out of range:
 * overflow"): the guard makes ClickHouse raise (chfdw_raise_marker, as
 * pushdown_map.c's raising forms).
 */
static void
float_sum_guard(StringInfo buf, ShipCtx *cx, WindowFunc *wf, const char *frame)
{
	StringInfoData v;
	Node	   *arg = (Node *) linitial(wf->args);

	initStringInfo(&v);
	chfdw_deparse_aggref(&v, cx, window_aggref(wf));
	appendStringInfo(buf, "if(toInt8(multiIf(ifNull(isInfinite(%s) AND countIf(NOT isFinite(", v.data);
	chfdw_deparse_value(buf, cx, arg);
	appendStringInfoChar(buf, ')');
	if (wf->aggfilter)
	{
		appendStringInfoString(buf, " AND ");
		chfdw_deparse_cond(buf, cx, (Node *) wf->aggfilter, true, false);
	}
	appendStringInfo(buf, ") OVER %s = 0, 0), '%s', '0')) = 0, %s, %s)", frame,
					 chfdw_raise_marker(CHFDW_RAISE_OVERFLOW), v.data, v.data);
}

/*
 * A window function as ClickHouse SQL giving PostgreSQL's value:
 * - row_number, rank, dense_rank: themselves (UInt64, read as bigint);
 * - percent_rank: (rank - 1) / (rows of the partition - 1), 0 for a
 *	 partition of one row; cume_dist: rows up to the current row's last
 *	 peer / rows of the partition (Float64 divisions, as PostgreSQL's);
 * - ntile(n): from row_number and the partition's rows, PostgreSQL's
 *	 buckets (the first rows % n buckets one row larger);
 * - lag/lead(x, k, d): lagInFrame/leadInFrame over the whole partition
 *	 (PostgreSQL's ignore the frame), d (or NULL) where the row k away is
 *	 outside the partition, told by row_number (ClickHouse would give the
 *	 type's default);
 * - first_value/last_value/nth_value: over 1-tuples (ClickHouse's skip
 *	 NULLs, PostgreSQL's do not), NULL where the frame is empty or shorter
 *	 than n (ClickHouse would give the default);
 * - aggregates: the grouped forms (NULL over no rows, exact sums, avg
 *	 finished by PostgreSQL), each aggregate call over the window.
 */
static void
deparse_window_func(StringInfo buf, ShipCtx *cx, Query *parse, WindowFunc *wf)
{
	WindowClause *wc = window_clause(parse, wf->winref);
	char	   *name = get_func_name(wf->winfnoid);
	char	   *frame = window_spec(cx, parse, wc, WIN_FRAME);
	char	   *whole = window_spec(cx, parse, wc, WIN_WHOLE);
	char	   *ordered = window_spec(cx, parse, wc, WIN_WHOLE_ORDERED);
	int64		n = 1;

	if (wf->winagg)
	{
		cx->dp->over = frame;
		if (is_float_sum(wf, name))
			float_sum_guard(buf, cx, wf, frame);
		else
			chfdw_deparse_aggref(buf, cx, window_aggref(wf));
		cx->dp->over = NULL;
	}
	else if (strcmp(name, "row_number") == 0 || strcmp(name, "rank") == 0 ||
			 strcmp(name, "dense_rank") == 0)
		appendStringInfo(buf, "%s() OVER %s", name, window_spec(cx, parse, wc, WIN_PEERS));
	else if (strcmp(name, "percent_rank") == 0)
		appendStringInfo(buf, "if(count() OVER %s > 1, (rank() OVER %s - 1) / (count() OVER %s - 1), toFloat64(0))",
						 whole, window_spec(cx, parse, wc, WIN_PEERS), whole);
	else if (strcmp(name, "cume_dist") == 0)
		appendStringInfo(buf, "count() OVER %s / count() OVER %s",
						 window_spec(cx, parse, wc, WIN_PEERS), whole);
	else if (strcmp(name, "ntile") == 0)
	{
		char	   *r;
		char	   *q;
		char	   *m;

		(void) const_count(linitial(wf->args), 1, &n);
		r = psprintf("row_number() OVER %s", ordered);
		q = psprintf("intDiv(count() OVER %s, " INT64_FORMAT ")", whole, n);
		m = psprintf("modulo(count() OVER %s, " INT64_FORMAT ")", whole, n);
		appendStringInfo(buf,
						 "toInt32(if(%s <= %s * (%s + 1), intDiv(%s - 1, %s + 1) + 1, "
						 "%s + intDiv(%s - 1 - %s * (%s + 1), greatest(%s, 1)) + 1))",
						 r, m, q, r, q, m, r, m, q, q);
	}
	else if (strcmp(name, "lag") == 0 || strcmp(name, "lead") == 0)
	{
		bool		lag = strcmp(name, "lag") == 0;

		if (list_length(wf->args) >= 2)
			(void) const_count(lsecond(wf->args), 0, &n);
		if (lag)
			appendStringInfo(buf, "if(row_number() OVER %s > " INT64_FORMAT ", lagInFrame(",
							 ordered, n);
		else
			appendStringInfo(buf, "if(row_number() OVER %s + " INT64_FORMAT " <= count() OVER %s, leadInFrame(",
							 ordered, n, whole);
		deparse_item(buf, cx, linitial(wf->args));
		appendStringInfo(buf, ", " INT64_FORMAT ") OVER %s, ", n, ordered);
		if (list_length(wf->args) == 3 &&
			!((Const *) chfdw_strip_relabel(lthird(wf->args)))->constisnull)
			chfdw_deparse_value(buf, cx, chfdw_strip_relabel(lthird(wf->args)));
		else
			appendStringInfoString(buf, "NULL");
		appendStringInfoChar(buf, ')');
	}
	else
	{
		/* first_value, last_value, nth_value */
		bool		nth = strcmp(name, "nth_value") == 0;

		if (nth)
			(void) const_count(lsecond(wf->args), 1, &n);
		if (nth || frame_may_be_empty(wc))
			appendStringInfo(buf, "if(count() OVER %s < " INT64_FORMAT ", NULL, ", frame, n);
		appendStringInfo(buf, "tupleElement(%s(tuple(", name);
		deparse_item(buf, cx, linitial(wf->args));
		if (nth)
			appendStringInfo(buf, "), " INT64_FORMAT ") OVER %s, 1)", n, frame);
		else
			appendStringInfo(buf, ")) OVER %s, 1)", frame);
		if (nth || frame_may_be_empty(wc))
			appendStringInfoChar(buf, ')');
	}
}

/*
 * Does PostgreSQL compute every row's windows, so that a raising form may
 * be sent? A SELECT without LIMIT or cursor (tuple_fraction 0), itself or
 * the only relation of queries that read all of it (no LIMIT, join, set
 * operation, CTE or sublink above it: a MATERIALIZED CTE, a join's other
 * side or a scalar sublink may read a subquery's rows only in part).
 */
static bool
reads_every_row(PlannerInfo *root)
{
	PlannerInfo *r;

	if (root->parse->commandType != CMD_SELECT || root->tuple_fraction != 0.0)
		return false;
	for (r = root->parent_root; r; r = r->parent_root)
	{
		Query	   *q = r->parse;

		if (q->commandType != CMD_SELECT || r->tuple_fraction != 0.0 ||
			list_length(q->rtable) != 1 || q->cteList != NIL || q->hasSubLinks ||
			q->limitCount != NULL || q->setOperations != NULL || q->rowMarks != NIL)
			return false;
	}
	return true;
}

/*
 * (winrun) A run condition of a window clause (PostgreSQL 15's
 * find_window_run_conditions: "rn <= 3" over a subquery whose rn is
 * row_number() OVER w, a qual the planner may then drop): an OpExpr of a
 * window function and a constant. Sent as a WHERE over the window query
 * (chfdw_stage_plan): the functions PostgreSQL makes run conditions of are
 * monotonic within a partition, so stopping at the first row where the
 * condition fails (the top WindowAgg's pass-through) keeps exactly the rows
 * where it holds. Only of integer functions sent whole (row_number, rank,
 * dense_rank, ntile, count: no float compared, nothing PostgreSQL finishes)
 * against a non-NULL integer constant, with the window function among the
 * outputs (*wf) and the operator's name as written with the function on
 * the left (name); tlist: TargetEntries.
 */
static bool
run_condition(Node *n, List *tlist, WindowFunc **wf, Const **c, char *name)
{
	OpExpr	   *op;
	Node	   *l,
			   *r;
	bool		flip;

	if (!IsA(n, OpExpr) || list_length(((OpExpr *) n)->args) != 2)
		return false;
	op = (OpExpr *) n;
	if (!chfdw_builtin_operator(op->opno, name, NAMEDATALEN))
		return false;
	l = chfdw_strip_relabel(linitial(op->args));
	r = chfdw_strip_relabel(lsecond(op->args));
	flip = !IsA(l, WindowFunc);
	if (flip)
	{
		Node	   *t = l;

		l = r;
		r = t;
	}
	if (!IsA(l, WindowFunc) || !IsA(r, Const) || ((Const *) r)->constisnull ||
		chfdw_type_class(((Const *) r)->consttype) != TC_INT ||
		chfdw_type_class(exprType(l)) != TC_INT ||
		!tlist_member((Expr *) l, tlist))
		return false;
	if (((WindowFunc *) l)->winagg &&
		chfdw_agg_finish((Expr *) window_aggref((WindowFunc *) l)) != CHFDW_FINISH_NONE)
		return false;
	if (strcmp(name, "<") != 0 && strcmp(name, "<=") != 0 && strcmp(name, ">") != 0 &&
		strcmp(name, ">=") != 0 && strcmp(name, "=") != 0)
		return false;
	if (flip)
		strcpy(name, name[0] == '<' ? (name[1] ? ">=" : ">") :
			   name[0] == '>' ? (name[1] ? "<=" : "<") : "=");
	*wf = (WindowFunc *) l;
	*c = (Const *) r;
	return true;
}

/* (winrun) every run condition of the query's window clauses is run_condition's */
static bool
run_conditions_ok(Query *parse, List *tlist, bool *any)
{
	ListCell   *lc;

	*any = false;
	foreach(lc, parse->windowClause)
	{
		WindowClause *wc = lfirst_node(WindowClause, lc);
		ListCell   *lr;

		foreach(lr, wc->runCondition)
		{
			WindowFunc *wf;
			Const	   *c;
			char		name[NAMEDATALEN];

			/*
			 * Any window clause: a run condition is a condition of the
			 * subquery's WHERE on its output, which the WHERE around the
			 * window query applies as written (a WindowAgg below the top one
			 * passes its rows through, and the qual above it holds them to
			 * the same condition).
			 */
			if (!run_condition(lfirst(lr), tlist, &wf, &c, name))
				return false;
			*any = true;
		}
	}
	return true;
}

void
chfdw_window_paths(PlannerInfo *root, RelOptInfo *input_rel, RelOptInfo *output_rel)
{
	ChFdwRelInfo *ifp = (ChFdwRelInfo *) input_rel->fdw_private;
	Query	   *parse = root->parse;
	PathTarget *target = root->upper_targets[UPPERREL_WINDOW];
	List	   *tlist = NIL;
	ListCell   *lc;
	ShipCtx		cx;
	const ch_caps *caps;
	ChFdwRelInfo *fp;
	Cost		startup,
				total;
	bool		reads_all = reads_every_row(root);
	bool		run;

	if (!ifp || output_rel->fdw_private || !target || parse->hasTargetSRFs)
		return;
	/*
	 * Over a table or join, or over groups ClickHouse computes whole (all of
	 * HAVING sent: the windows see the groups PostgreSQL's would), not
	 * grouping sets.
	 */
	if (ifp->is_upper ? (ifp->stage || ifp->local_conds != NIL || ifp->grouping_sets) :
		!plain_input(input_rel))
		return;
	cx = chfdw_ship_ctx(bottom_rel(input_rel), ifp->relid);
	foreach(lc, target->exprs)
	{
		Node	   *e = (Node *) lfirst(lc);
		List	   *pieces;
		ListCell   *lp;

		/*
		 * Columns and window functions ClickHouse returns; an expression
		 * over them (rank() OVER w + 1) is computed by PostgreSQL.
		 */
		pieces = IsA(e, Var) || IsA(e, WindowFunc) || IsA(e, Aggref) ? list_make1(e) :
			pull_var_clause(e, PVC_INCLUDE_WINDOWFUNCS | PVC_INCLUDE_AGGREGATES |
							PVC_RECURSE_PLACEHOLDERS);
		foreach(lp, pieces)
		{
			Node	   *p = (Node *) lfirst(lp);

			if (IsA(p, WindowFunc) ?
				!window_func_ok(&cx, parse, (WindowFunc *) p, input_rel, reads_all) :
				ifp->is_upper ?
				!((IsA(p, Var) || IsA(p, Aggref)) && tlist_member((Expr *) p, ifp->grouped_tlist)) :
				!(IsA(p, Var) && chfdw_is_shippable_value(input_rel, ifp->relid, (Expr *) p)))
				return;
		}
		tlist = add_to_flat_tlist(tlist, pieces);
	}
	/* (winrun) run conditions: a WHERE over the window query (of a table, a join or groups) */
	if (!run_conditions_ok(parse, tlist, &run))
		return;
	/* last: it may ask the server */
	caps = rel_caps(bottom_rel(input_rel));
	if (!caps || !caps->window_functions)
		return;
	fp = make_stage(input_rel, UPPERREL_WINDOW, tlist);
	output_rel->fdw_private = fp;
	stage_costs(bottom_rel(input_rel), input_rel->rows, &startup, &total);
	add_path(output_rel, (Path *) create_foreign_upper_path(root, output_rel, target,
															input_rel->rows, startup, total,
															NIL, NULL, NIL));
	/*
	 * the query's ORDER BY of columns, sorted by ClickHouse after the windows
	 * (not after a run condition's WHERE: PostgreSQL sorts those rows)
	 */
	if (root->sort_pathkeys && !ifp->is_upper && !run &&
		chfdw_pathkeys_shippable(input_rel, ifp->relid, root->sort_pathkeys, NIL))
		add_path(output_rel, (Path *) create_foreign_upper_path(root, output_rel, target,
																input_rel->rows, startup,
																total + input_rel->rows * cpu_operator_cost,
																root->sort_pathkeys, NULL, NIL));
}

/* ---- grouping sets ---- */

/*
 * Grouping sets on servers without GROUPING SETS (18.16, whose WITH
 * ROLLUP / WITH CUBE fill the rolled-up columns with the type's default, 0
 * or '', so a real 0 could not be told from a rolled-up row): one SELECT per
 * set, joined by UNION ALL, each grouping by its set's columns (the empty
 * set by nothing: one row, also over no rows, as PostgreSQL). In a member a
 * grouping column of its set is toNullable(col); one it does not group is
 * if(count() < 0, any(toNullable(col)), NULL): NULL of the same type (18.16
 * unites no two types), and an aggregate, so a member without GROUP BY still
 * aggregates (a bare NULL would make `SELECT NULL FROM t` return every row;
 * 18.16's anyIf(x, 0) answers '' instead of NULL over rows it skips).
 * GROUPING() is the member's constant, as PostgreSQL computes it: a bit per
 * argument, 1 for a column the set does not group, the first argument the
 * highest bit. Each member scans the table again: at most
 * CHFDW_MAX_UNION_SETS sets. Only over a foreign table (not a join: 18.16
 * joins once per SELECT, and the join's columns would need the same care).
 */
#define CHFDW_MAX_UNION_SETS 32

/* The sortgroupref of the GROUP BY column equal to e, 0 if none. */
static Index
grouping_ref_of(Query *parse, Node *e)
{
	ListCell   *lc;

	e = chfdw_strip_relabel(e);
	foreach(lc, parse->groupClause)
	{
		SortGroupClause *sgc = lfirst_node(SortGroupClause, lc);
		TargetEntry *tle = get_sortgroupclause_tle(sgc, parse->targetList);

		if (equal(chfdw_strip_relabel((Node *) tle->expr), e))
			return sgc->tleSortGroupRef;
	}
	return 0;
}

static bool
union_sets_ok(PlannerInfo *root, RelOptInfo *input_rel)
{
	return input_rel->reloptkind == RELOPT_BASEREL &&
		list_length(root->parse->groupingSets) <= CHFDW_MAX_UNION_SETS;
}

/*
 * Can each member return every output (the grouped query's TargetEntries,
 * HAVING's pieces included): an aggregate, GROUPING() or a GROUP BY column?
 */
bool
chfdw_grouping_union_ok(PlannerInfo *root, List *outputs)
{
	ListCell   *lc;

	foreach(lc, outputs)
	{
		Node	   *n = chfdw_strip_relabel((Node *) lfirst_node(TargetEntry, lc)->expr);

		if (!IsA(n, Aggref) && !IsA(n, GroupingFunc) && grouping_ref_of(root->parse, n) == 0)
			return false;
	}
	return true;
}

static int64
grouping_bits(GroupingFunc *gf, List *set)
{
	ListCell   *lc;
	int64		bits = 0;

	foreach(lc, gf->refs)
		bits = (bits << 1) | (list_member_int(set, lfirst_int(lc)) ? 0 : 1);
	return bits;
}

/*
 * "SELECT ... FROM t WHERE ... GROUP BY <set 1> UNION ALL SELECT ...": the
 * grouped query's outputs (TargetEntries) over each of the query's sets.
 */
void
chfdw_deparse_grouping_union(ChFdwDeparse *dp, StringInfo buf, PlannerInfo *root,
							 RelOptInfo *baserel, Oid relid, List *outputs, List *conds)
{
	Query	   *parse = root->parse;
	ListCell   *ls;

	foreach(ls, parse->groupingSets)
	{
		List	   *set = (List *) lfirst(ls);
		ListCell   *lc;

		if (ls != list_head(parse->groupingSets))
			appendStringInfoString(buf, " UNION ALL ");
		appendStringInfoString(buf, "SELECT ");
		foreach(lc, outputs)
		{
			Expr	   *e = lfirst_node(TargetEntry, lc)->expr;
			Node	   *n = chfdw_strip_relabel((Node *) e);

			if (lc != list_head(outputs))
				appendStringInfoString(buf, ", ");
			if (IsA(n, Aggref))
				chfdw_deparse_grouped_output(dp, buf, baserel, relid, e, false);
			else if (IsA(n, GroupingFunc))
				appendStringInfo(buf, "toUInt64(" INT64_FORMAT ")",
								 grouping_bits((GroupingFunc *) n, set));
			else if (list_member_int(set, (int) grouping_ref_of(parse, n)))
				chfdw_deparse_grouped_output(dp, buf, baserel, relid, e, true);
			else
			{
				appendStringInfoString(buf, "if(count() < 0, any(");
				chfdw_deparse_grouped_output(dp, buf, baserel, relid, e, true);
				appendStringInfoString(buf, "), NULL)");
			}
		}
		appendStringInfoString(buf, " FROM ");
		chfdw_deparse_grouped_from(dp, buf, baserel, relid, conds);	/* (lcfix) */
		foreach(lc, set)
		{
			SortGroupClause *sgc = get_sortgroupref_clause(lfirst_int(lc), parse->groupClause);
			TargetEntry *tle = get_sortgroupclause_tle(sgc, parse->targetList);

			appendStringInfoString(buf, lc == list_head(set) ? " GROUP BY " : ", ");
			chfdw_deparse_grouping_expr(dp, buf, baserel, relid, tle->expr);
		}
		/*
		 * (guards2) the float aggregates' overflow guards over each set's
		 * groups, as ClickHouse's HAVING (HAVING itself is PostgreSQL's with
		 * grouping sets): a LIMIT around the UNION ALL must not skip a
		 * group's raise (agg_float.c)
		 */
		chfdw_deparse_float_guards(dp, buf, baserel, relid, outputs);
	}
}

/*
 * Can ClickHouse compute the query's grouping sets over input_rel (a
 * foreign table or join) with PostgreSQL's NULLs and GROUPING()?
 * *as_union: as one SELECT per set (servers without GROUPING SETS).
 */
bool
chfdw_grouping_sets_ok(PlannerInfo *root, RelOptInfo *input_rel, bool *as_union)
{
	const ch_caps *caps;

	*as_union = false;
	if (!plain_input(input_rel))
		return false;
	caps = rel_caps(input_rel);
	if (!caps)
		return false;			/* the server cannot be asked: PostgreSQL's */
	if (caps->grouping_sets)
		return true;
	if (!union_sets_ok(root, input_rel))
		return false;
	*as_union = true;
	return true;
}

/* (subq3) Does node hold an aggregate of this query level? */
static bool
has_aggref(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Aggref))
		return true;
	return expression_tree_walker(node, has_aggref, context);
}

/*
 * (subq3) Does a GROUP BY GROUPING SETS query need an aggregate in its
 * SELECT list? An empty set is one row, also over no rows, in PostgreSQL;
 * 26.5 returns no row for it when the query computes no aggregate
 * (SELECT toNullable(k) ... GROUPING SETS ((), (toNullable(k))) over no
 * rows: none, with count() beside it: one). The first output is then
 * if(count() < 0, NULL, <output>).
 */
bool
chfdw_grouping_sets_need_agg(PlannerInfo *root, List *outputs)
{
	ListCell   *lc;
	bool		empty = false;

	foreach(lc, root->parse->groupingSets)
		if (lfirst(lc) == NIL)
			empty = true;
	if (!empty)
		return false;
	foreach(lc, outputs)
		if (has_aggref((Node *) lfirst_node(TargetEntry, lc)->expr, NULL))
			return false;
	return true;
}

/*
 * " GROUP BY GROUPING SETS ((a, b), (a), ())": the sets as PostgreSQL
 * expanded them (ROLLUP, CUBE, nested sets), each of grouping columns.
 */
void
chfdw_deparse_grouping_sets(ChFdwDeparse *dp, StringInfo buf, PlannerInfo *root,
							RelOptInfo *baserel, Oid relid)
{
	Query	   *parse = root->parse;
	ListCell   *ls;
	bool		first_set = true;

	appendStringInfoString(buf, " GROUP BY GROUPING SETS (");
	foreach(ls, parse->groupingSets)
	{
		ListCell   *lc;
		bool		first = true;

		appendStringInfoString(buf, first_set ? "(" : ", (");
		foreach(lc, (List *) lfirst(ls))
		{
			SortGroupClause *sgc = get_sortgroupref_clause(lfirst_int(lc), parse->groupClause);
			TargetEntry *tle = get_sortgroupclause_tle(sgc, parse->targetList);

			if (!first)
				appendStringInfoString(buf, ", ");
			chfdw_deparse_grouped_output(dp, buf, baserel, relid, tle->expr, true);
			first = false;
		}
		appendStringInfoChar(buf, ')');
		first_set = false;
	}
	appendStringInfoChar(buf, ')');
}

/*
 * An output of a grouped query (a grouping column, an aggregate). With
 * grouping sets a grouping column is toNullable(col), in the SELECT list,
 * the sets and GROUPING() alike: 26.5 refuses grouping() of a column that
 * is not Nullable under group_by_use_nulls ("Argument d of GROUPING
 * function is not a part of GROUP BY clause"), and the NULL rows need a
 * Nullable column anyway.
 */
void
chfdw_deparse_grouped_output(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel, Oid relid,
							 Expr *expr, bool grouping_sets)
{
	Node	   *n = chfdw_strip_relabel((Node *) expr);
	bool		wrap = grouping_sets && !IsA(n, Aggref) && !IsA(n, GroupingFunc);

	if (wrap)
		appendStringInfoString(buf, "toNullable(");
	chfdw_deparse_grouping_expr(dp, buf, baserel, relid, expr);
	if (wrap)
		appendStringInfoChar(buf, ')');
}

/*
 * An output of a grouped query with windows over its groups: a window
 * function, or a grouped output (chfdw_deparse_grouped_output); *finish:
 * how PostgreSQL finishes its value (CHFDW_FINISH_*).
 */
void
chfdw_deparse_stage_output(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel, Oid relid,
						   Expr *expr, bool grouping_sets, int *finish)
{
	if (IsA(expr, WindowFunc))
	{
		ShipCtx		cx = chfdw_ship_ctx(baserel, relid);

		cx.dp = dp;
		deparse_window_func(buf, &cx, dp->root->parse, (WindowFunc *) expr);
		*finish = ((WindowFunc *) expr)->winagg ?
			chfdw_agg_finish((Expr *) window_aggref((WindowFunc *) expr)) : CHFDW_FINISH_NONE;
		return;
	}
	chfdw_deparse_grouped_output(dp, buf, baserel, relid, expr, grouping_sets);
	*finish = chfdw_agg_finish(expr);
}

/*
 * " SETTINGS ...": join_use_nulls = 1 over a join (deparse.c);
 * group_by_use_nulls = 1, force_grouping_standard_compatibility = 1 for
 * grouping sets; optimize_functions_to_subcolumns = 0 with windows (26.5
 * rewrites count(x) of a Nullable x to read x's null map and then cannot
 * find it under a window: "Not found column x.null in block"). Nothing
 * when none applies.
 */
void
chfdw_deparse_stage_settings(StringInfo buf, bool join, bool grouping_sets, bool windows)
{
	const char *sep = " SETTINGS ";

	if (join)
	{
		appendStringInfo(buf, "%sjoin_use_nulls = 1", sep);
		sep = ", ";
	}
	if (grouping_sets)
	{
		appendStringInfo(buf, "%sgroup_by_use_nulls = 1, force_grouping_standard_compatibility = 1",
						 sep);
		sep = ", ";
	}
	if (windows)
		appendStringInfo(buf, "%soptimize_functions_to_subcolumns = 0", sep);
}

/* ---- the plan of a stage over a foreign table or join ---- */

/* (winrun) does the window query of a stage get a WHERE of run conditions? */
bool
chfdw_window_run(Query *parse, List *stage_tlist)
{
	bool		run;

	return run_conditions_ok(parse, stage_tlist, &run) && run;
}

/*
 * (winrun) The prefix of the window query's output aliases, "w_" unless a
 * column of a table the query reads starts with it (then "w__", ...):
 * ClickHouse resolves an identifier to a SELECT alias before a column of
 * the same name (`SELECT id AS w_1, w_1 AS w_2` read id twice on 26.5), so
 * a column w_1 would have been read as another output.
 */
char *
chfdw_run_alias(PlannerInfo *root, RelOptInfo *bottom)
{
	StringInfoData prefix;
	bool		clash;

	initStringInfo(&prefix);
	appendStringInfoString(&prefix, "w_");
	do
	{
		int			rti = -1;

		clash = false;
		while (!clash && (rti = bms_next_member(bottom->relids, rti)) >= 0)
		{
			RelOptInfo *br = find_base_rel(root, rti);
			Oid			relid = root->simple_rte_array[rti]->relid;
			int			natts = br->max_attr;

			for (AttrNumber a = 1; a <= natts && !clash; a++)
				if (get_attname(relid, a, true) != NULL &&
					strncmp(chfdw_column_name(relid, a), prefix.data, prefix.len) == 0)
					clash = true;
		}
		if (clash)
			appendStringInfoChar(&prefix, '_');
	} while (clash);
	return prefix.data;
}

/* (winrun) ") WHERE `<alias><i>` op c AND ...": the run conditions over the window query's outputs */
void
chfdw_deparse_run_conditions(StringInfo buf, Query *parse, List *stage_tlist, const char *alias)
{
	const char *sep = ") WHERE ";
	ListCell   *lc;

	foreach(lc, parse->windowClause)
	{
		ListCell   *lr;

		foreach(lr, lfirst_node(WindowClause, lc)->runCondition)
		{
			WindowFunc *wf;
			Const	   *c;
			char		name[NAMEDATALEN];
			TargetEntry *tle;

			if (!run_condition(lfirst(lr), stage_tlist, &wf, &c, name))
				elog(ERROR, "clickhouse_fdw: a window run condition not prepared for sending");
			tle = tlist_member((Expr *) wf, stage_tlist);
			appendStringInfo(buf, "%s`%s%d` %s ", sep, alias, (int) tle->resno, name);
			chfdw_deparse_const(buf, c);
			sep = " AND ";
		}
	}
}

ForeignScan *
chfdw_stage_plan(PlannerInfo *root, RelOptInfo *rel, ForeignPath *best_path, List *tlist,
				 Plan *outer_plan, int64 limit)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) rel->fdw_private;
	RelOptInfo *bottom = fp->outerrel;
	ChFdwRelInfo *bfp = (ChFdwRelInfo *) bottom->fdw_private;
	StringInfoData sql;
	ChFdwDeparse dp;
	ShipCtx		cx;
	List	   *retrieved = NIL;
	List	   *finish = NIL;
	List	   *private;
	ListCell   *lc;
	int			i = 0;
	bool		groups;
	int			nkeys;
	bool		run = false;
	char	   *alias = NULL;

	chfdw_deparse_init(&dp, root);
	cx = chfdw_ship_ctx(bottom, fp->relid);
	cx.dp = &dp;
	initStringInfo(&sql);
	/*
	 * SELECT DISTINCT over a join as a GROUP BY of its outputs: 18.16's
	 * DISTINCT after a JOIN keeps one set per stream of the join's rows (a
	 * table of two parts gave each row twice; max_threads = 1 did not) and
	 * tells the NULLs of the rows a FULL JOIN adds from other NULLs (its
	 * rows come as a stream of their own); its GROUP BY does neither (test
	 * join_pushdown; deparse.c deparse_side).
	 */
	groups = fp->stage == UPPERREL_DISTINCT && bfp->is_join;
	nkeys = 0;
	foreach(lc, fp->stage_tlist)
		if (!IsA(lfirst_node(TargetEntry, lc)->expr, Const))
			nkeys++;
	/* constants only (18.16's DISTINCT gave two rows): the first row is the answer */
	if (groups && nkeys == 0)
		limit = limit == 0 ? 0 : 1;
	/* (winrun) the window query's rows where its run conditions hold */
	run = fp->stage == UPPERREL_WINDOW && chfdw_window_run(root->parse, fp->stage_tlist);
	if (run)
	{
		alias = chfdw_run_alias(root, bottom);
		appendStringInfoString(&sql, "SELECT * FROM (");
	}
	appendStringInfoString(&sql, fp->stage == UPPERREL_DISTINCT && !groups ?
						   "SELECT DISTINCT " : "SELECT ");
	foreach(lc, fp->stage_tlist)
	{
		Expr	   *e = lfirst_node(TargetEntry, lc)->expr;
		int			fin = CHFDW_FINISH_NONE;

		if (i > 0)
			appendStringInfoString(&sql, ", ");
		if (IsA(e, WindowFunc))
		{
			WindowFunc *wf = (WindowFunc *) e;

			deparse_window_func(&sql, &cx, root->parse, wf);
			if (wf->winagg)
				fin = chfdw_agg_finish((Expr *) window_aggref(wf));
		}
		else
			chfdw_deparse_value_expr(&dp, &sql, bottom, fp->relid, e);
		retrieved = lappend_int(retrieved, ++i);
		finish = lappend_int(finish, fin);
		if (run)
			appendStringInfo(&sql, " AS `%s%d`", alias, i);
	}
	appendStringInfoString(&sql, " FROM ");
	if (bfp->is_join)
		chfdw_deparse_join_from(&dp, &sql, bottom);
	else						/* (lcfix) lowcard.c */
		chfdw_deparse_grouped_from(&dp, &sql, bottom, fp->relid,
								   extract_actual_clauses(bfp->remote_conds, false));
	if (groups)
	{
		const char *sep = " GROUP BY ";

		/* not a constant: ClickHouse takes GROUP BY 0 for a position */
		foreach(lc, fp->stage_tlist)
		{
			Expr	   *e = lfirst_node(TargetEntry, lc)->expr;

			if (IsA(e, Const))
				continue;
			appendStringInfoString(&sql, sep);
			sep = ", ";
			chfdw_deparse_value_expr(&dp, &sql, bottom, fp->relid, e);
		}
	}
	if (best_path->path.pathkeys)
		chfdw_deparse_order_by(&dp, &sql, bottom, fp->relid, best_path->path.pathkeys,
							   fp->stage == UPPERREL_DISTINCT ?
							   get_tlist_exprs(fp->stage_tlist, false) : NIL);
	if (run)
		chfdw_deparse_run_conditions(&sql, root->parse, fp->stage_tlist, alias);
	if (limit >= 0)
		appendStringInfo(&sql, " LIMIT " INT64_FORMAT, limit);
	chfdw_deparse_stage_settings(&sql, bfp->is_join, false, fp->stage == UPPERREL_WINDOW);
	appendStringInfoString(&sql, " FORMAT Native");
	private = list_make4(makeString(sql.data), retrieved, chfdw_plan_zone(&dp), finish);
	if (bfp->is_join)
		private = lappend(private, makeString(psprintf("%s on (%s)",
													   fp->stage == UPPERREL_DISTINCT ?
													   "Distinct" : "Window",
													   chfdw_join_relations(root, bottom))));
	return make_foreignscan(tlist, NIL, 0, dp.params, private, fp->stage_tlist, NIL, outer_plan);
}

static bool
grouping_func_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, GroupingFunc))
		return true;
	return expression_tree_walker(node, grouping_func_walker, context);
}

/* Does a grouped query's output or HAVING use GROUPING()? */
bool
chfdw_contains_grouping_func(Node *node)
{
	return grouping_func_walker(node, NULL);
}
