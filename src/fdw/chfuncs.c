/*-------------------------------------------------------------------------
 * chfuncs.c
 *	  ClickHouse's own functions and aggregates, declared by the extension
 *	  (sql/clickhouse_fdw--1.2--1.3.sql) and always computed by ClickHouse:
 *	  argMax, uniq, quantile, topK, dictGet, toStartOfInterval, ... and
 *	  merge_state() of an AggregateFunction column.
 *
 * Design:
 *	- PostgreSQL cannot compute them. Their SQL bodies are one C function,
 *	  clickhouse_fdw_ch_only, which raises feature_not_supported naming the
 *	  function: an aggregate's transition function (every row) and final
 *	  function (no rows) both do, so a query the FDW does not send fails
 *	  clearly instead of answering something else.
 *	- The deparser knows them by OID: every row of the table below names
 *	  its function by signature in the extension's schema, resolved at the
 *	  first use and again after any change of pg_proc (CREATE, DROP, ALTER
 *	  EXTENSION UPDATE / SET SCHEMA: a syscache callback forgets the OIDs).
 *	  Before the extension is updated to 1.3 none resolves.
 *	- Each row gives the ClickHouse form and what the arguments must be: the
 *	  parameters of a parametric aggregate (quantile(level)(x), topK(n)(x))
 *	  are constants, the others values the walker (shippable.c) ships. The
 *	  result is ClickHouse's, with its exact type: uniq UInt64 (bigint),
 *	  quantile Float64 (toFloat64: a Float32 argument gives Float32),
 *	  argMax the type of its first argument, topK an array.
 *	- A row may need a server capability (ch_caps: groupBitmap and
 *	  toStartOfInterval are newer than 18.16); asking it connects once per
 *	  connection at plan time, as window.c does.
 *	- AggregateFunction columns: the column option aggregate names the
 *	  state's function (with its parameters); a scan reads
 *	  finalizeAggregation(col) (deparse.c, chfdw_deparse_column), and
 *	  merge_state(col) in a grouped query sends <fn>Merge(col).
 *
 * src/fdw/chfuncs.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "foreign/foreign.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "nodes/memnodes.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/tlist.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/float.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "chfdw.h"
#include "pushdown_map.h"

PG_FUNCTION_INFO_V1(clickhouse_fdw_ch_only);

/* How a row's arguments are checked and written */
typedef enum ChfKind
{
	CHF_PLAIN,					/* fn(a, b, ...): shippable values */
	CHF_NUMBER,					/* fn(x), x an integer or float */
	CHF_LEVEL,					/* fn(level)(x): a constant in [0, 1], x a
								 * number */
	CHF_LEVELS,					/* fn(l1, l2, ...)(x): a constant array */
	CHF_TOPK,					/* fn(n)(x): a constant n >= 1 */
	CHF_COND,					/* fn(cond): a shippable condition */
	CHF_MERGE					/* <state fn>Merge(col) */
} ChfKind;

typedef struct ChfAgg
{
	const char *sig;			/* regprocedure text in the extension's
								 * schema */
	const char *ch;				/* ClickHouse's name */
	ChfKind		kind;
	bool		to_float;		/* wrap the result in toFloat64 */
	bool		(*cap) (const ch_caps *caps);	/* NULL: every server */
} ChfAgg;

static bool
cap_bitmap(const ch_caps *caps)
{
	return caps->group_bitmap;
}

static bool
cap_interval(const ch_caps *caps)
{
	return caps->start_of_interval;
}

static const ChfAgg agg_rows[] = {
	{"argmax(anyelement,\"any\")", "argMax", CHF_PLAIN},
	{"argmin(anyelement,\"any\")", "argMin", CHF_PLAIN},
	{"uniq(\"any\")", "uniq", CHF_PLAIN},
	{"uniqexact(\"any\")", "uniqExact", CHF_PLAIN},
	{"uniqcombined(\"any\")", "uniqCombined", CHF_PLAIN},
	{"quantile(double precision,\"any\")", "quantile", CHF_LEVEL, true},
	{"quantiles(double precision[],\"any\")", "quantiles", CHF_LEVELS, true},
	{"quantileexact(double precision,anyelement)", "quantileExact", CHF_LEVEL},
	{"topk(integer,anyelement)", "topK", CHF_TOPK},
	{"any_value(anyelement)", "any", CHF_PLAIN},
	{"anylast(anyelement)", "anyLast", CHF_PLAIN},
	{"countif(boolean)", "countIf", CHF_COND},
	{"groupbitmap(\"any\")", "groupBitmap", CHF_NUMBER, false, cap_bitmap},
	{"merge_state(anyelement)", "Merge", CHF_MERGE},
};

/* ---- the scalar functions: pushdown_map.c rows ---- */

static const ch_caps *cx_caps(ShipCtx *cx);
static bool value_ok(ShipCtx *cx, Node *n);

/* dictGet(constant dictionary, constant attribute, integer key) */
static bool
check_dictget(ShipCtx *cx, List *args, const ChFnRow *row)
{
	Node	   *key = chfdw_strip_relabel(lthird(args));

	(void) row;
	return chfdw_const_text(linitial(args)) != NULL &&
		chfdw_const_text(lsecond(args)) != NULL &&
		chfdw_type_class(exprType(key)) == TC_INT &&
		!(IsA(key, Const) && ((Const *) key)->constisnull) &&
		chfdw_value_shippable(cx, key);
}

/* NULL for a NULL key (dictGet wants a UInt64 that is not Nullable) */
static void
deparse_dictget(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	(void) row;
	appendStringInfoString(buf, "if(isNull(");
	chfdw_deparse_value(buf, cx, lthird(args));
	appendStringInfoString(buf, "), NULL, toString(dictGet(");
	chfdw_quote_literal(buf, chfdw_const_text(linitial(args)));
	appendStringInfoString(buf, ", ");
	chfdw_quote_literal(buf, chfdw_const_text(lsecond(args)));
	appendStringInfoString(buf, ", toUInt64(assumeNotNull(");
	chfdw_deparse_value(buf, cx, lthird(args));
	appendStringInfoString(buf, ")))))");
}

/*
 * An interval constant of one unit ClickHouse's INTERVAL says: n months,
 * n days or a whole number of seconds (n > 0). false otherwise.
 */
static bool
interval_unit(Node *n, int64 *count, const char **unit)
{
	Interval   *iv;

	n = chfdw_strip_relabel(n);
	if (!IsA(n, Const) || ((Const *) n)->consttype != INTERVALOID || ((Const *) n)->constisnull)
		return false;
	iv = DatumGetIntervalP(((Const *) n)->constvalue);
	if (iv->month > 0 && iv->day == 0 && iv->time == 0)
	{
		*count = iv->month;
		*unit = iv->month % 12 == 0 ? "year" : "month";
		if (iv->month % 12 == 0)
			*count = iv->month / 12;
		return true;
	}
	if (iv->month == 0 && iv->day > 0 && iv->time == 0)
	{
		*count = iv->day;
		*unit = "day";
		return true;
	}
	if (iv->month == 0 && iv->day == 0 && iv->time > 0 && iv->time % USECS_PER_SEC == 0)
	{
		if (iv->time % USECS_PER_HOUR == 0)
			*count = iv->time / USECS_PER_HOUR, *unit = "hour";
		else if (iv->time % USECS_PER_MINUTE == 0)
			*count = iv->time / USECS_PER_MINUTE, *unit = "minute";
		else
			*count = iv->time / USECS_PER_SEC, *unit = "second";
		return true;
	}
	return false;
}

static bool
check_start_of_interval(ShipCtx *cx, List *args, const ChFnRow *row)
{
	int64		count;
	const char *unit;
	const ch_caps *caps;

	(void) row;
	if (chfdw_type_class(exprType(linitial(args))) != TC_TIMESTAMPTZ ||
		!value_ok(cx, linitial(args)) || !interval_unit(lsecond(args), &count, &unit) || !chfdw_session_zone())
		return false;
	caps = cx_caps(cx);
	return caps && cap_interval(caps);
}

/* toDateTime(...): a month, year or day interval gives a Date */
static void
deparse_start_of_interval(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	int64		count;
	const char *unit;

	(void) row;
	(void) interval_unit(lsecond(args), &count, &unit);
	appendStringInfoString(buf, "toDateTime(toStartOfInterval(");
	chfdw_deparse_value(buf, cx, linitial(args));
	appendStringInfo(buf, ", INTERVAL " INT64_FORMAT " %s", count, unit);
	chfdw_deparse_zone(buf, cx);
	appendStringInfoChar(buf, ')');
	chfdw_deparse_zone(buf, cx);
	appendStringInfoChar(buf, ')');
}

static const ChFnRow fn_rows[] = {
	{"dictget(text,text,\"any\")", NULL, CHFN_OWN_ARGS, check_dictget, deparse_dictget},
	{"tostartofinterval(timestamp with time zone,interval)", NULL, CHFN_OWN_ARGS,
	check_start_of_interval, deparse_start_of_interval},
};

/* ---- OIDs: resolved at first use, forgotten when pg_proc changes ---- */

static Oid	agg_oids[lengthof(agg_rows)];
static Oid	fn_oids[lengthof(fn_rows)];
static bool resolved;
static bool callback_set;

static void
forget_oids(Datum arg, int cacheid, uint32 hashvalue)
{
	(void) arg;
	(void) cacheid;
	(void) hashvalue;
	resolved = false;
}

/*
 * The OID of schema.sig, or InvalidOid when there is none (before ALTER
 * EXTENSION UPDATE to 1.3): to_regprocedure answers NULL then, which
 * DirectFunctionCall1 would take for an error, so it is called directly.
 */
static Oid
resolve_one(const char *schema, const char *sig)
{
	LOCAL_FCINFO(fcinfo, 1);
	char	   *name = psprintf("%s.%s", quote_identifier(schema), sig);
	Datum		d;

	InitFunctionCallInfoData(*fcinfo, NULL, 1, InvalidOid, NULL, NULL);
	fcinfo->args[0].value = CStringGetTextDatum(name);
	fcinfo->args[0].isnull = false;
	d = to_regprocedure(fcinfo);
	pfree(name);
	return fcinfo->isnull ? InvalidOid : DatumGetObjectId(d);
}

static void
resolve_all(void)
{
	ForeignDataWrapper *fdw;
	char	   *schema = NULL;
	int			i;

	if (resolved)
		return;
	if (!callback_set)
	{
		CacheRegisterSyscacheCallback(PROCOID, forget_oids, (Datum) 0);
		callback_set = true;
	}
	/* the extension's schema: its wrapper's handler's (syscaches only) */
	fdw = GetForeignDataWrapperByName("clickhouse_fdw", true);
	if (fdw && OidIsValid(fdw->fdwhandler))
		schema = get_namespace_name(get_func_namespace(fdw->fdwhandler));
	for (i = 0; i < lengthof(agg_rows); i++)
		agg_oids[i] = schema ? resolve_one(schema, agg_rows[i].sig) : InvalidOid;
	for (i = 0; i < lengthof(fn_rows); i++)
		fn_oids[i] = schema ? resolve_one(schema, fn_rows[i].sig) : InvalidOid;
	resolved = true;
}

static const ChfAgg *
agg_row(Oid aggfnoid)
{
	int			i;

	if (aggfnoid < FirstNormalObjectId)
		return NULL;
	resolve_all();
	for (i = 0; i < lengthof(agg_rows); i++)
		if (agg_oids[i] == aggfnoid)
			return &agg_rows[i];
	return NULL;
}

/* The pushdown row of one of the extension's ClickHouse functions, or NULL. */
const ChFnRow *
chfdw_chfunc_row(Oid funcid)
{
	int			i;

	if (funcid < FirstNormalObjectId)
		return NULL;
	resolve_all();
	for (i = 0; i < lengthof(fn_rows); i++)
		if (fn_oids[i] == funcid)
			return &fn_rows[i];
	return NULL;
}

/* Is this aggregate one of the extension's ClickHouse aggregates? */
bool
chfdw_is_chagg(Oid aggfnoid)
{
	return agg_row(aggfnoid) != NULL;
}

/* ---- the scalar functions in a plain scan's SELECT list ---- */

static bool
calls_chfunc(Node *n, void *context)
{
	(void) context;
	if (!n)
		return false;
	if (IsA(n, FuncExpr) && chfdw_chfunc_row(((FuncExpr *) n)->funcid))
		return true;
	return expression_tree_walker(n, calls_chfunc, context);
}

typedef struct ChTlistCtx
{
	ShipCtx		cx;
	List	   *exprs;			/* the largest shippable pieces calling one */
	bool		ok;
} ChTlistCtx;

/*
 * The largest subexpressions that call one of the extension's functions
 * and that ClickHouse computes (whole when it can, else the pieces inside
 * PostgreSQL's part of it); a call it cannot compute makes the scan as
 * before (PostgreSQL then raises the function's error).
 */
static bool
collect_ch_pieces(Node *n, void *context)
{
	ChTlistCtx *tc = (ChTlistCtx *) context;

	if (!n || !calls_chfunc(n, NULL))
		return false;
	if (exprType(n) != TIMESTAMPOID && chfdw_type_class(exprType(n)) != TC_NONE &&
		!contain_volatile_functions(n) && chfdw_value_shippable(&tc->cx, n))
	{
		tc->exprs = lappend(tc->exprs, n);
		return false;
	}
	if (IsA(n, FuncExpr) && chfdw_chfunc_row(((FuncExpr *) n)->funcid))
		return false;			/* not computable here: PostgreSQL raises */
	return expression_tree_walker(n, collect_ch_pieces, context);
}

/*
 * chfdw_chfunc_scan_tlist
 *		The fdw_scan_tlist of a plain scan of one foreign table whose query's
 *		SELECT list calls ClickHouse's own scalar functions (dictget,
 *		tostartofinterval), or NIL. PostgreSQL computes a scan's SELECT list
 *		(its final target list is set on the scan after GetForeignPlan,
 *		create_projection_plan); an expression that is also an entry of
 *		fdw_scan_tlist is read from the scan's tuple instead
 *		(set_foreign_scan_references matches whole expressions,
 *		search_indexed_tlist_for_non_var), so ClickHouse computes it. The
 *		list holds the columns the scan returns and its local conditions
 *		use, then those expressions. Only for a SELECT of one relation
 *		without aggregates, windows, set operations or row locks (where the
 *		final target list is the scan's), not for system or whole-row
 *		columns; values that raise are not sent (ShipCtx.may_raise stays
 *		false: PostgreSQL's local conditions or LIMIT may skip rows).
 */
/*
 * Is rel's scan the query's whole FROM, under a SELECT list that is the
 * final target list (no aggregates, windows, set operations, row locks),
 * and does that list call one of the functions?
 */
static bool
tlist_is_scans(PlannerInfo *root, RelOptInfo *rel)
{
	Query	   *parse = root->parse;

	return !(parse->commandType != CMD_SELECT || parse->rowMarks != NIL || parse->hasAggs ||
			 parse->groupClause != NIL || parse->groupingSets != NIL || parse->hasWindowFuncs ||
			 parse->hasTargetSRFs || parse->setOperations || parse->havingQual ||
			 !bms_equal(root->all_baserels, rel->relids) ||
			 !calls_chfunc((Node *) root->processed_tlist, NULL));
}

/* The pieces of the query's SELECT list (collect_ch_pieces) shippable in cx. */
static List *
tlist_pieces(PlannerInfo *root, ShipCtx cx)
{
	ChTlistCtx	tc;
	ListCell   *lc;

	memset(&tc, 0, sizeof(tc));
	tc.cx = cx;
	foreach(lc, root->processed_tlist)
		(void) collect_ch_pieces((Node *) lfirst_node(TargetEntry, lc)->expr, &tc);
	return tc.exprs;
}

List *
chfdw_chfunc_scan_tlist(PlannerInfo *root, RelOptInfo *baserel, Oid relid, List *local_exprs)
{
	List	   *exprs;
	List	   *vars;
	List	   *tlist;
	ListCell   *lc;

	if (baserel->reloptkind != RELOPT_BASEREL || !tlist_is_scans(root, baserel))
		return NIL;
	exprs = tlist_pieces(root, chfdw_ship_ctx(baserel, relid));
	if (exprs == NIL)
		return NIL;
	vars = pull_var_clause((Node *) baserel->reltarget->exprs, PVC_RECURSE_PLACEHOLDERS);
	foreach(lc, local_exprs)
		vars = list_concat(vars, pull_var_clause((Node *) lfirst(lc), PVC_RECURSE_PLACEHOLDERS));
	foreach(lc, vars)
	{
		Var		   *v = (Var *) lfirst(lc);

		if (!IsA(v, Var) || v->varno != baserel->relid || v->varattno <= 0 || v->varlevelsup != 0)
			return NIL;
	}
	tlist = add_to_flat_tlist(NIL, vars);
	return add_to_flat_tlist(tlist, exprs);
}

/*
 * chfdw_chfunc_join_tlist
 *		The fdw_scan_tlist of a join ClickHouse computes (scan_tlist: its
 *		columns, chfdw_join_scan_tlist) with, when the join is the query's
 *		whole FROM and its SELECT list calls ClickHouse's own scalar
 *		functions, the largest pieces of that list that call one and that
 *		ClickHouse computes over the join's columns (the rules of
 *		chfdw_chfunc_scan_tlist: PostgreSQL reads each from the join's row,
 *		setrefs matching whole expressions). Written by
 *		chfdw_chfunc_deparse_join_value in the join's outer SELECT.
 */
List *
chfdw_chfunc_join_tlist(PlannerInfo *root, RelOptInfo *joinrel, List *scan_tlist)
{
	List	   *exprs;

	if (joinrel->reloptkind != RELOPT_JOINREL || !tlist_is_scans(root, joinrel))
		return scan_tlist;
	exprs = tlist_pieces(root, chfdw_ship_ctx_join(root, joinrel));
	return exprs == NIL ? scan_tlist : add_to_flat_tlist(scan_tlist, exprs);
}

/* One such piece in a join's SELECT, its columns named by their aliases. */
void
chfdw_chfunc_deparse_join_value(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *joinrel, Expr *e)
{
	ShipCtx		cx = chfdw_ship_ctx_join(dp->root, joinrel);

	cx.dp = dp;
	chfdw_deparse_value(buf, &cx, (Node *) e);
}

/* ---- the server's capabilities ---- */

/*
 * The capabilities of the server a relation is read from (connecting if
 * this backend has not yet), or NULL when the relation is not the FDW's or
 * its server cannot be asked (probe.c: what needs them stays PostgreSQL's;
 * ClickHouse's own functions then raise 0A000, their hint saying why).
 */
static const ch_caps *
cx_caps(ShipCtx *cx)
{
	RelOptInfo *rel = cx->baserel;
	ChFdwRelInfo *fp;

	if (!rel)
		return NULL;
	/* a base relation's conditions are classified before fdw_private is set */
	if (!rel->fdw_private)
	{
		/* ... and a join's (plan.c): the server the planner found its tables on */
		if (rel->reloptkind == RELOPT_JOINREL && OidIsValid(rel->serverid))
			return chfdw_caps_try(rel->userid, rel->serverid);
		if (!OidIsValid(cx->relid))
			return NULL;
		return chfdw_caps_try(rel->userid, GetForeignTable(cx->relid)->serverid);
	}
	fp = (ChFdwRelInfo *) rel->fdw_private;
	if (fp->is_upper && fp->outerrel)
		fp = (ChFdwRelInfo *) fp->outerrel->fdw_private;
	if (!fp)
		return NULL;
	return chfdw_caps_try(fp->userid, fp->serverid);
}

/*
 * The capabilities of the server a shipped expression goes to, or NULL
 * (pushdown_map.c: rows that need one, as ChFnRow.cap says).
 */
const ch_caps *
chfdw_ship_caps(ShipCtx *cx)
{
	return cx_caps(cx);
}

/* ---- aggregates ---- */

static Node *
agg_arg(Aggref *agg, int i)
{
	return (Node *) ((TargetEntry *) list_nth(agg->args, i))->expr;
}

static bool
is_null_const(Node *n)
{
	n = chfdw_strip_relabel(n);
	return IsA(n, Const) && ((Const *) n)->constisnull;
}

/* A value ClickHouse computes: shippable, of a mapped type, not NULL. */
static bool
value_ok(ShipCtx *cx, Node *n)
{
	return n && chfdw_type_class(exprType(n)) != TC_NONE && !is_null_const(n) &&
		chfdw_value_shippable(cx, n);
}

static bool
number_ok(ShipCtx *cx, Node *n)
{
	TypeClass	tc = chfdw_type_class(exprType(n));

	return (tc == TC_INT || tc == TC_FLOAT) && value_ok(cx, n);
}

static bool
float_const(Node *n, double *v)
{
	n = chfdw_strip_relabel(n);
	if (!IsA(n, Const) || ((Const *) n)->consttype != FLOAT8OID || ((Const *) n)->constisnull)
		return false;
	*v = DatumGetFloat8(((Const *) n)->constvalue);
	return true;
}

/* The levels of quantiles(): a constant float8[] of values in [0, 1]. */
static bool
levels_const(Node *n, Datum **elems, int *nelems)
{
	ArrayType  *a;
	bool	   *nulls;
	int			i;

	n = chfdw_strip_relabel(n);
	if (!IsA(n, Const) || ((Const *) n)->consttype != FLOAT8ARRAYOID || ((Const *) n)->constisnull)
		return false;
	a = DatumGetArrayTypeP(((Const *) n)->constvalue);
	if (ARR_NDIM(a) != 1)
		return false;
	deconstruct_array(a, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  elems, &nulls, nelems);
	if (*nelems < 1)
		return false;
	for (i = 0; i < *nelems; i++)
	{
		double		v = DatumGetFloat8((*elems)[i]);

		if (nulls[i] || !(v >= 0 && v <= 1))
			return false;
	}
	return true;
}

/* The state function of an AggregateFunction column (option aggregate), or NULL. */
static const char *
aggregate_column(ShipCtx *cx, Node *n)
{
	Var		   *v;

	n = chfdw_strip_relabel(n);
	/* a base relation's column: a join's sub-SELECT reads it finalized */
	if (!n || !IsA(n, Var) || cx->qualify || !OidIsValid(cx->relid))
		return NULL;
	v = (Var *) n;
	if (v->varlevelsup != 0 || v->varattno <= 0 || !bms_is_member(v->varno, cx->visible))
		return NULL;
	return chfdw_column_aggregate(cx->relid, v->varattno);
}

/*
 * Can ClickHouse compute this call of one of the extension's aggregates
 * here? Plain calls only (no DISTINCT, ORDER BY, explicit VARIADIC); FILTER
 * becomes the -If combinator except for countIf and merge_state.
 */
bool
chfdw_chagg_shippable(ShipCtx *cx, Aggref *agg)
{
	const ChfAgg *row = agg_row(agg->aggfnoid);
	int			nargs = list_length(agg->args);
	double		level;
	int64		k;
	Datum	   *elems;
	int			nelems;
	ListCell   *lc;

	if (!row || agg->aggdistinct != NIL || agg->aggorder != NIL || agg->aggvariadic ||
		agg->aggsplit != AGGSPLIT_SIMPLE || agg->agglevelsup != 0 || agg->aggstar ||
		nargs == 0)
		return false;
	if (agg->aggfilter &&
		(row->kind == CHF_COND || row->kind == CHF_MERGE ||
		 !chfdw_expr_shippable(cx, (Node *) agg->aggfilter)))
		return false;
	if (row->cap)
	{
		const ch_caps *caps = cx_caps(cx);

		if (!caps || !row->cap(caps))
			return false;
	}
	switch (row->kind)
	{
		case CHF_PLAIN:
			foreach(lc, agg->args)
				if (!value_ok(cx, (Node *) ((TargetEntry *) lfirst(lc))->expr))
					return false;
			return true;
		case CHF_NUMBER:
			return chfdw_type_class(exprType(agg_arg(agg, 0))) == TC_INT &&
				value_ok(cx, agg_arg(agg, 0));
		case CHF_LEVEL:
			return float_const(agg_arg(agg, 0), &level) && level >= 0 && level <= 1 &&
				number_ok(cx, agg_arg(agg, 1));
		case CHF_LEVELS:
			return levels_const(agg_arg(agg, 0), &elems, &nelems) &&
				number_ok(cx, agg_arg(agg, 1));
		case CHF_TOPK:
			{
				Node	   *n = chfdw_strip_relabel(agg_arg(agg, 0));

				if (!IsA(n, Const) || ((Const *) n)->consttype != INT4OID ||
					((Const *) n)->constisnull)
					return false;
				k = DatumGetInt32(((Const *) n)->constvalue);
				return k >= 1 && value_ok(cx, agg_arg(agg, 1));
			}
		case CHF_COND:
			return chfdw_expr_shippable(cx, agg_arg(agg, 0));
		case CHF_MERGE:
			return aggregate_column(cx, agg_arg(agg, 0)) != NULL;
	}
	return false;
}

/* ", cond" of FILTER (WHERE cond), strictly 0 or 1 */
static void
filter_arg(StringInfo buf, ShipCtx *cx, Aggref *agg)
{
	if (!agg->aggfilter)
		return;
	appendStringInfoString(buf, ", ");
	chfdw_deparse_cond(buf, cx, (Node *) agg->aggfilter, true, false);
}

/* The ClickHouse call of an aggregate chfdw_chagg_shippable accepted. */
void
chfdw_deparse_chagg(StringInfo buf, ShipCtx *cx, Aggref *agg)
{
	const ChfAgg *row = agg_row(agg->aggfnoid);
	const char *iff = agg->aggfilter ? "If" : "";
	ListCell   *lc;

	Assert(row != NULL);
	if (row->to_float)
		appendStringInfoString(buf, row->kind == CHF_LEVELS ?
							   "arrayMap(v -> toFloat64(v), " : "toFloat64(");
	switch (row->kind)
	{
		case CHF_PLAIN:
		case CHF_NUMBER:
			appendStringInfo(buf, "%s%s(", row->ch, iff);
			foreach(lc, agg->args)
			{
				if (foreach_current_index(lc) > 0)
					appendStringInfoString(buf, ", ");
				chfdw_deparse_value(buf, cx, (Node *) ((TargetEntry *) lfirst(lc))->expr);
			}
			break;
		case CHF_LEVEL:
		case CHF_TOPK:
			{
				Const	   *c = (Const *) chfdw_strip_relabel(agg_arg(agg, 0));

				/* a parameter is a literal */
				appendStringInfo(buf, "%s%s(%s)(", row->ch, iff,
								 row->kind == CHF_TOPK ?
								 psprintf("%d", DatumGetInt32(c->constvalue)) :
								 float8out_internal(DatumGetFloat8(c->constvalue)));
			}
			chfdw_deparse_value(buf, cx, agg_arg(agg, 1));
			break;
		case CHF_LEVELS:
			{
				Datum	   *elems;
				int			nelems;
				int			i;

				(void) levels_const(agg_arg(agg, 0), &elems, &nelems);
				appendStringInfo(buf, "%s%s(", row->ch, iff);
				for (i = 0; i < nelems; i++)
					appendStringInfo(buf, "%s%s", i > 0 ? ", " : "",
									 float8out_internal(DatumGetFloat8(elems[i])));
				appendStringInfoString(buf, ")(");
				chfdw_deparse_value(buf, cx, agg_arg(agg, 1));
				break;
			}
		case CHF_COND:
			appendStringInfo(buf, "%s(", row->ch);
			chfdw_deparse_cond(buf, cx, agg_arg(agg, 0), true, false);
			break;
		case CHF_MERGE:
			{
				Var		   *v = (Var *) chfdw_strip_relabel(agg_arg(agg, 0));
				const char *state = aggregate_column(cx, (Node *) v);
				size_t		len = strcspn(state, "(");

				/* quantiles(0.5, 0.9) → quantilesMerge(0.5, 0.9)(col) */
				appendBinaryStringInfo(buf, state, (int) len);
				appendStringInfoString(buf, "Merge");
				if (state[len] == '(')
					appendStringInfoString(buf, state + len);
				appendStringInfoChar(buf, '(');
				chfdw_quote_identifier(buf, chfdw_column_name(cx->relid, v->varattno));
				break;
			}
	}
	if (row->kind != CHF_COND && row->kind != CHF_MERGE)
		filter_arg(buf, cx, agg);
	appendStringInfoChar(buf, ')');
	if (row->to_float)
		appendStringInfoChar(buf, ')');
	/* an aggregate over a window (window.c) */
	if (cx->dp && cx->dp->over)
		appendStringInfo(buf, " OVER %s", cx->dp->over);
}

/* ---- why PostgreSQL was asked: the statement's tables ---- */

/*
 * The range table of each statement running a scan of this FDW, by its
 * executor's memory context (chfdw_chfunc_note_executor, called as a scan
 * begins), forgotten when that context goes (a reset callback): how
 * clickhouse_fdw_ch_only, called by PostgreSQL's own executor with no
 * handle on the statement, finds the tables of the one it runs in.
 */
typedef struct ChfExec
{
	MemoryContext cxt;			/* the statement's es_query_cxt */
	List	   *rtable;
	struct ChfExec *next;
} ChfExec;

static ChfExec *execs;

static void
forget_exec(void *arg)
{
	ChfExec   **p;

	for (p = &execs; *p; p = &(*p)->next)
		if (*p == (ChfExec *) arg)
		{
			*p = (*p)->next;
			return;
		}
}

void
chfdw_chfunc_note_executor(struct EState *estate)
{
	ChfExec    *e;
	MemoryContextCallback *cb;

	for (e = execs; e; e = e->next)
		if (e->cxt == estate->es_query_cxt)
			return;
	e = MemoryContextAlloc(estate->es_query_cxt, sizeof(ChfExec));
	e->cxt = estate->es_query_cxt;
	e->rtable = estate->es_range_table;
	e->next = execs;
	cb = MemoryContextAlloc(estate->es_query_cxt, sizeof(MemoryContextCallback));
	cb->func = forget_exec;
	cb->arg = e;
	MemoryContextRegisterResetCallback(estate->es_query_cxt, cb);
	execs = e;
}

/*
 * The range table of the statement a function runs in: an aggregate's
 * (its node's executor state), else that of the nearest executor context
 * above the current memory context (CreateExecutorState names it
 * "ExecutorState"; expressions are evaluated in its children) when one of
 * this FDW's scans noted it. *found: an executor context was found (so a
 * NIL answer means the statement scans no table of this FDW).
 */
static List *
running_rtable(FunctionCallInfo fcinfo, bool *found)
{
	MemoryContext c;
	ChfExec    *e;

	*found = false;
	if (fcinfo->context && (IsA(fcinfo->context, AggState) || IsA(fcinfo->context, WindowAggState)))
	{
		*found = true;
		return ((PlanState *) fcinfo->context)->state->es_range_table;
	}
	for (c = CurrentMemoryContext; c; c = c->parent)
		if (c->name && strcmp(c->name, "ExecutorState") == 0)
		{
			*found = true;
			for (e = execs; e; e = e->next)
				if (e->cxt == c)
					return e->rtable;
			return NIL;
		}
	return NIL;
}

/*
 * The hint of clickhouse_fdw_ch_only for a statement over rtable: what in
 * it PostgreSQL computes. A relation that is not a foreign table of this
 * FDW (a local table, a materialized view, another wrapper's table), or
 * foreign tables of two servers (a join ClickHouse computes is over one
 * server's tables); otherwise something the FDW does not send.
 */
static char *
reason_hint(Oid fn, bool is_agg, List *rtable, bool found)
{
	char	   *name = OidIsValid(fn) ? get_func_name(fn) : pstrdup("this function");
	ForeignDataWrapper *fdw = GetForeignDataWrapperByName("clickhouse_fdw", true);
	Oid			server = InvalidOid;
	Oid			server2 = InvalidOid;
	Oid			local = InvalidOid;
	ListCell   *lc;

	if (!found || !fdw)
		return psprintf("%s is computed by ClickHouse; it is only usable in a query sent to ClickHouse: "
						"over foreign tables of one clickhouse_fdw server, with arguments ClickHouse "
						"computes (EXPLAIN VERBOSE shows the remote SQL).", name);
	foreach(lc, rtable)
	{
		RangeTblEntry *rte = lfirst_node(RangeTblEntry, lc);
		char		kind;
		Oid			srv;

		if (rte->rtekind != RTE_RELATION)
			continue;
		kind = get_rel_relkind(rte->relid);
		if (kind == RELKIND_PARTITIONED_TABLE || kind == RELKIND_VIEW)
			continue;			/* their partitions, their tables are entries too */
		if (kind != RELKIND_FOREIGN_TABLE ||
			GetForeignServer(GetForeignTable(rte->relid)->serverid)->fdwid != fdw->fdwid)
		{
			if (!OidIsValid(local))
				local = rte->relid;
			continue;
		}
		srv = GetForeignTable(rte->relid)->serverid;
		if (!OidIsValid(server))
			server = srv;
		else if (srv != server && !OidIsValid(server2))
			server2 = srv;
	}
	if (!OidIsValid(server))
		return psprintf("%s is computed by ClickHouse, but the query reads no foreign table of a "
						"clickhouse_fdw server.", name);
	if (OidIsValid(local))
		return psprintf("%s is computed by ClickHouse, but the query also reads \"%s\", which is "
						"not a foreign table of a clickhouse_fdw server: what is computed over "
						"its rows (a join with it, and aggregates over that join) runs in "
						"PostgreSQL. Compute %s in a subquery over the foreign tables alone "
						"(%s) and join its result.",
						name, get_rel_name(local), name,
						is_agg ? "SELECT key, ... GROUP BY key" : "SELECT ... OFFSET 0");
	if (OidIsValid(server2))
		return psprintf("%s is computed by ClickHouse, but the query reads foreign tables of two "
						"servers, \"%s\" and \"%s\": a join ClickHouse computes is over the tables "
						"of one server, a join of two runs in PostgreSQL. Compute %s in a subquery "
						"over one server's tables and join its result.",
						name, GetForeignServer(server)->servername,
						GetForeignServer(server2)->servername, name);
	/* (probes) the plan was made while the server could not be asked (probe.c) */
	if (chfdw_caps_failed(server))
		return psprintf("%s is computed by ClickHouse, but server \"%s\" could not be asked what "
						"it can do when the query was planned (it could not be reached, or refused "
						"the user mapping), so the query was planned to run in PostgreSQL. Run it "
						"again once the server answers (a prepared statement: DISCARD PLANS or "
						"PREPARE it again).",
						name, GetForeignServer(server)->servername);
	return psprintf("%s is computed by ClickHouse; the query's tables are foreign tables of server "
					"\"%s\", but this part of it is computed by PostgreSQL: an argument, condition, "
					"join or clause the FDW does not send, or a function this server lacks (EXPLAIN "
					"VERBOSE shows the remote SQL and what runs above it).",
					name, GetForeignServer(server)->servername);
}

/* ---- the SQL bodies ---- */

/*
 * clickhouse_fdw_ch_only
 *		The body of every function and aggregate step the extension declares
 *		for ClickHouse: PostgreSQL was asked to compute it, so the query was
 *		not sent to ClickHouse. Raises feature_not_supported.
 */
Datum
clickhouse_fdw_ch_only(PG_FUNCTION_ARGS)
{
	Oid			fn = fcinfo->flinfo ? fcinfo->flinfo->fn_oid : InvalidOid;
	bool		is_agg = false;
	char	   *name;
	List	   *rtable;
	bool		found;

	if (AggCheckCallContext(fcinfo, NULL))
	{
		Aggref	   *agg = AggGetAggref(fcinfo);

		if (agg)
		{
			fn = agg->aggfnoid;
			is_agg = true;
		}
	}
	name = OidIsValid(fn) ? format_procedure(fn) : pstrdup("this function");
	rtable = running_rtable(fcinfo, &found);
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s %s cannot be computed by PostgreSQL", is_agg ? "aggregate" : "function", name),
			 errdetail("The query, or this part of it, was not sent to ClickHouse."),
			 errhint("%s", reason_hint(fn, is_agg, rtable, found))));
	PG_RETURN_NULL();
}
