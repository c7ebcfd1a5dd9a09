/*-------------------------------------------------------------------------
 * aggregates.c
 *	  What of a grouped query ClickHouse computes with PostgreSQL's answer:
 *	  aggregates (with FILTER as -If combinators, NULL over no rows, exact
 *	  pieces PostgreSQL finishes: see finish.c), grouping outputs, and the
 *	  ORDER BY of a scan or of its groups. The walker for conditions and
 *	  values is shippable.c.
 *
 * src/fdw/aggregates.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/stratnum.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_am.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "optimizer/tlist.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "chfdw.h"
#include "shippable.h"

/* ---- ORDER BY ---- */

/*
 * Does ClickHouse order values of this type as the pathkey asks: the
 * type's default btree order, not a uuid (ClickHouse compares its halves in
 * another order), text only under C? Floats are sorted with NaN put where
 * PostgreSQL puts it (deparse_sort_key).
 */
static bool
sorts_like_postgres(ShipCtx *cx, PathKey *pk, Oid type)
{
	TypeClass	tc = chfdw_type_class(type);

	if (tc == TC_UUID || tc == TC_NONE)
		return false;
	if (tc == TC_TEXT && !chfdw_ordering_collation_ok(cx, pk->pk_eclass->ec_collation))
		return false;
	/* the type's default btree ordering only */
	return pk->pk_opfamily == get_opclass_family(GetDefaultOpClass(type, BTREE_AM_OID));
}

/*
 * The column an ORDER BY pathkey sorts by, if ClickHouse orders it the
 * same way (default btree order; floats with NaN placed; text under C).
 */
static Var *
pathkey_var(ShipCtx *cx, PathKey *pk)
{
	EquivalenceClass *ec = pk->pk_eclass;
	ListCell   *lc;

	if (ec->ec_has_volatile)
		return NULL;
	foreach(lc, ec->ec_members)
	{
		EquivalenceMember *em = (EquivalenceMember *) lfirst(lc);
		Node	   *e = chfdw_strip_relabel((Node *) em->em_expr);

		if (!chfdw_is_our_var(cx, e))
			continue;
		return sorts_like_postgres(cx, pk, ((Var *) e)->vartype) ? (Var *) e : NULL;
	}
	return NULL;
}

/*
 * One ORDER BY key, with explicit NULLS placement (ClickHouse puts NULLs
 * last either way). A float is sorted by isNaN() first: ClickHouse sorts
 * NaN with the NULLs (before them under NULLS FIRST), PostgreSQL above
 * every number, so "isNaN(x) ASC NULLS LAST, x ASC NULLS LAST" gives the
 * numbers, then NaN, then NULL, as PostgreSQL's ORDER BY x (isNaN(NULL) is
 * NULL: the NULL rows keep their place).
 */
static void
deparse_sort_key(StringInfo buf, ShipCtx *cx, PathKey *pk, Node *e)
{
	chfdw_deparse_sort_value(buf, cx, e, pk->pk_strategy != BTLessStrategyNumber,
							 pk->pk_nulls_first);
}

/* One sort key (see deparse_sort_key): a value or an aggregate, its direction, its NULLs. */
void
chfdw_deparse_sort_value(StringInfo buf, ShipCtx *cx, Node *e, bool desc, bool nulls_first)
{
	const char *dir = desc ? " DESC" : " ASC";
	const char *nulls = nulls_first ? " NULLS FIRST" : " NULLS LAST";

	if (chfdw_type_class(exprType(e)) == TC_FLOAT)
	{
		appendStringInfoString(buf, "isNaN(");
		if (IsA(e, Aggref))
			chfdw_deparse_aggref(buf, cx, (Aggref *) e);
		else
			chfdw_deparse_value(buf, cx, e);
		appendStringInfo(buf, ")%s%s, ", dir, nulls);
	}
	if (IsA(e, Aggref))
		chfdw_deparse_aggref(buf, cx, (Aggref *) e);
	else
		chfdw_deparse_value(buf, cx, e);
	appendStringInfo(buf, "%s%s", dir, nulls);
}

/* Can every pathkey be sorted by ClickHouse? */
bool
chfdw_pathkeys_shippable(RelOptInfo *baserel, Oid relid, List *pathkeys)
{
	ShipCtx		cx;
	ListCell   *lc;

	cx = chfdw_ship_ctx(baserel, relid);
	foreach(lc, pathkeys)
		if (!pathkey_var(&cx, (PathKey *) lfirst(lc)))
			return false;
	return pathkeys != NIL;
}

/* " ORDER BY `c` ASC NULLS LAST, ..." with explicit NULLS placement. */
void
chfdw_deparse_order_by(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel, Oid relid,
					   List *pathkeys)
{
	ShipCtx		cx;
	ListCell   *lc;
	bool		first = true;

	cx = chfdw_ship_ctx(baserel, relid);
	cx.dp = dp;
	appendStringInfoString(buf, " ORDER BY ");
	foreach(lc, pathkeys)
	{
		PathKey    *pk = (PathKey *) lfirst(lc);
		Var		   *v = pathkey_var(&cx, pk);

		if (!first)
			appendStringInfoString(buf, ", ");
		deparse_sort_key(buf, &cx, pk, (Node *) v);
		first = false;
	}
}

/* ---- aggregates ---- */

/*
 * An aggregate ClickHouse computes with PostgreSQL's result: count(*),
 * count([DISTINCT] col), sum(col) of integers and floats, min/max of
 * integers, numeric, dates, timestamptz and C-collated text. Empty input
 * gives NULL as in PostgreSQL (not ClickHouse's 0); sum(bigint) is summed
 * as Decimal(38, 0), so it cannot wrap.
 */
/* ClickHouse's name of a float variance aggregate, or NULL */
static const char *
variance_function(const char *name)
{
	if (strcmp(name, "stddev") == 0 || strcmp(name, "stddev_samp") == 0)
		return "stddevSamp";
	if (strcmp(name, "stddev_pop") == 0)
		return "stddevPop";
	if (strcmp(name, "variance") == 0 || strcmp(name, "var_samp") == 0)
		return "varSamp";
	if (strcmp(name, "var_pop") == 0)
		return "varPop";
	return NULL;
}

/*
 * How PostgreSQL finishes a value ClickHouse returns for this grouping
 * output: CHFDW_FINISH_AVG for avg() of integers (ClickHouse returns the
 * exact sum and count as text "sum/count", PostgreSQL divides them as its
 * own avg() does, with numeric's result scale); CHFDW_FINISH_ARRAY for
 * array_agg (an empty array, ClickHouse's answer over no rows, is NULL);
 * CHFDW_FINISH_VAR_* / STDDEV_* for the variance family of smallint and
 * integer ("N/sum/sum of squares"); else CHFDW_FINISH_NONE (finish.c).
 */
int
chfdw_agg_finish(Expr *expr)
{
	Node	   *n = chfdw_strip_relabel((Node *) expr);
	Aggref	   *agg;
	char	   *name;

	if (!n || !IsA(n, Aggref))
		return CHFDW_FINISH_NONE;
	agg = (Aggref *) n;
	if (agg->aggstar || list_length(agg->args) != 1)
		return CHFDW_FINISH_NONE;
	name = get_func_name(agg->aggfnoid);
	if (name && strcmp(name, "avg") == 0 &&
		chfdw_type_class(exprType((Node *) ((TargetEntry *) linitial(agg->args))->expr)) == TC_INT)
		return CHFDW_FINISH_AVG;
	if (name && strcmp(name, "array_agg") == 0)
		return CHFDW_FINISH_ARRAY;
	if (name && variance_function(name) && !agg->aggstar)
	{
		Oid			t = exprType((Node *) ((TargetEntry *) linitial(agg->args))->expr);

		if (t == INT2OID || t == INT4OID)
		{
			bool		samp = strstr(name, "pop") == NULL;

			return strncmp(name, "stddev", 6) == 0 ?
				(samp ? CHFDW_FINISH_STDDEV_SAMP : CHFDW_FINISH_STDDEV_POP) :
				(samp ? CHFDW_FINISH_VAR_SAMP : CHFDW_FINISH_VAR_POP);
		}
	}
	return CHFDW_FINISH_NONE;
}

/*
 * percentile_disc / percentile_cont(constant fraction) WITHIN GROUP (ORDER BY
 * col), ascending: computed from ClickHouse's sorted groupArray() with
 * PostgreSQL's own arithmetic (percentile_*_final): disc takes the value at
 * ceil(f * n), cont interpolates between floor and ceil of f * (n - 1).
 * NULLs are skipped and NaN sorts last in both.
 */
static bool
percentile_shippable(ShipCtx *cx, Aggref *agg, bool *cont)
{
	char	   *name = get_func_name(agg->aggfnoid);
	Node	   *frac;
	Node	   *arg;
	SortGroupClause *sgc;
	TypeClass	tc;
	double		f;

	if (!name || agg->aggfilter || agg->aggvariadic || agg->aggsplit != AGGSPLIT_SIMPLE ||
		agg->agglevelsup != 0 || agg->aggdistinct != NIL ||
		list_length(agg->aggdirectargs) != 1 || list_length(agg->args) != 1 ||
		list_length(agg->aggorder) != 1)
		return false;
	if (strcmp(name, "percentile_disc") == 0)
		*cont = false;
	else if (strcmp(name, "percentile_cont") == 0)
		*cont = true;
	else
		return false;
	frac = chfdw_strip_relabel((Node *) linitial(agg->aggdirectargs));
	if (!IsA(frac, Const) || ((Const *) frac)->consttype != FLOAT8OID ||
		((Const *) frac)->constisnull)
		return false;
	f = DatumGetFloat8(((Const *) frac)->constvalue);
	if (!(f >= 0 && f <= 1))
		return false;			/* PostgreSQL raises the error */
	arg = (Node *) ((TargetEntry *) linitial(agg->args))->expr;
	if (!chfdw_is_our_var(cx, arg))
		return false;
	tc = chfdw_type_class(exprType(chfdw_strip_relabel(arg)));
	sgc = linitial_node(SortGroupClause, agg->aggorder);
	/* ascending in the type's default order */
	if (sgc->sortop != lookup_type_cache(exprType(chfdw_strip_relabel(arg)), TYPECACHE_LT_OPR)->lt_opr)
		return false;
	if (*cont)
		return exprType(chfdw_strip_relabel(arg)) == FLOAT8OID;
	return tc == TC_INT || tc == TC_FLOAT || tc == TC_NUMERIC || tc == TC_DATE ||
		tc == TC_TIMESTAMPTZ || (tc == TC_TEXT && chfdw_ordering_collation_ok(cx, agg->inputcollid));
}

static void
deparse_percentile(StringInfo buf, ShipCtx *cx, Aggref *agg, bool cont)
{
	Node	   *arg = (Node *) ((TargetEntry *) linitial(agg->args))->expr;
	Const	   *frac = (Const *) chfdw_strip_relabel((Node *) linitial(agg->aggdirectargs));
	StringInfoData sorted;
	StringInfoData pos;

	initStringInfo(&sorted);
	appendStringInfoString(&sorted, "arraySort(groupArray(");
	chfdw_deparse_value(&sorted, cx, arg);
	appendStringInfoString(&sorted, "))");
	initStringInfo(&pos);
	chfdw_deparse_const(&pos, frac);
	appendStringInfoString(&pos, cont ? " * (count(" : " * count(");
	chfdw_deparse_value(&pos, cx, arg);
	appendStringInfoString(&pos, cont ? ") - 1)" : ")");

	appendStringInfoString(buf, "if(count(");
	chfdw_deparse_value(buf, cx, arg);
	appendStringInfoString(buf, ") = 0, NULL, ");
	if (!cont)
		appendStringInfo(buf, "%s[toUInt64(greatest(ceil(%s), 1))])", sorted.data, pos.data);
	else
		appendStringInfo(buf,
						 "if(floor(%s) = ceil(%s), %s[toUInt64(floor(%s)) + 1], "
						 "%s[toUInt64(floor(%s)) + 1] + (%s[toUInt64(ceil(%s)) + 1] - "
						 "%s[toUInt64(floor(%s)) + 1]) * ((%s) - floor(%s))))",
						 pos.data, pos.data, sorted.data, pos.data,
						 sorted.data, pos.data, sorted.data, pos.data,
						 sorted.data, pos.data, pos.data, pos.data);
}

bool
chfdw_aggref_shippable(ShipCtx *cx, Aggref *agg)
{
	char	   *name;
	Node	   *arg = NULL;
	TypeClass	tc = TC_NONE;
	bool		cont;

	if (agg->aggkind == AGGKIND_ORDERED_SET && agg->aggfnoid < FirstGenbkiObjectId)
		return percentile_shippable(cx, agg, &cont);

	if (agg->aggfnoid >= FirstGenbkiObjectId || agg->aggkind != AGGKIND_NORMAL ||
		agg->aggorder != NIL || agg->aggvariadic ||
		agg->aggsplit != AGGSPLIT_SIMPLE || agg->agglevelsup != 0)
		return false;
	/* FILTER (WHERE c): ClickHouse's -If combinators, with c as "is it true" */
	if (agg->aggfilter && !chfdw_expr_shippable(cx, (Node *) agg->aggfilter))
		return false;
	name = get_func_name(agg->aggfnoid);
	if (agg->aggstar)
		return strcmp(name, "count") == 0 && agg->args == NIL;
	if (strcmp(name, "string_agg") == 0)
	{
		/* string_agg(text column, constant delimiter), in any order */
		Node	   *delim;

		if (list_length(agg->args) != 2 || agg->aggdistinct != NIL)
			return false;
		arg = (Node *) ((TargetEntry *) linitial(agg->args))->expr;
		delim = (Node *) ((TargetEntry *) lsecond(agg->args))->expr;
		return chfdw_is_our_var(cx, arg) && chfdw_type_class(exprType(chfdw_strip_relabel(arg))) == TC_TEXT &&
			chfdw_const_text(delim) != NULL;
	}
	if (list_length(agg->args) != 1)
		return false;
	arg = (Node *) ((TargetEntry *) linitial(agg->args))->expr;
	if (!chfdw_is_our_var(cx, arg))
		return false;
	tc = chfdw_type_class(exprType(chfdw_strip_relabel(arg)));
	if (agg->aggdistinct != NIL && strcmp(name, "count") != 0)
		return false;
	if (strcmp(name, "count") == 0)
		return tc != TC_FLOAT || agg->aggdistinct == NIL;
	if (strcmp(name, "sum") == 0)
		return tc == TC_INT || tc == TC_FLOAT;
	if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0)
		return tc == TC_INT || tc == TC_NUMERIC || tc == TC_DATE || tc == TC_TIMESTAMPTZ ||
			(tc == TC_TEXT && chfdw_ordering_collation_ok(cx, agg->inputcollid));
	/* array_agg: NULLs kept; an empty array (no rows) becomes NULL here */
	if (strcmp(name, "array_agg") == 0)
		return agg->aggdistinct == NIL &&
			(tc == TC_INT || tc == TC_FLOAT || tc == TC_TEXT || tc == TC_DATE ||
			 tc == TC_TIMESTAMPTZ);
	/* avg of integers: numeric, finished by PostgreSQL (chfdw_agg_finish) */
	if (strcmp(name, "avg") == 0)
		return tc == TC_INT || tc == TC_FLOAT;
	/* floats: ClickHouse's; smallint/integer: exact sums PostgreSQL finishes */
	if (variance_function(name))
		return tc == TC_FLOAT || exprType(chfdw_strip_relabel(arg)) == INT2OID ||
			exprType(chfdw_strip_relabel(arg)) == INT4OID;
	/* bool_and / bool_or: min / max of 0 and 1 */
	if (strcmp(name, "bool_and") == 0 || strcmp(name, "bool_or") == 0 ||
		strcmp(name, "every") == 0)
		return tc == TC_BOOL;
	return false;
}

/*
 * fn(pre arg post), or with FILTER (WHERE c) fnIf(pre arg post, c) with c
 * strictly 0 or 1 (ClickHouse's -If combinator). arg NULL: no argument.
 */
static void
agg_call(StringInfo buf, ShipCtx *cx, Aggref *agg, const char *fn, const char *pre,
		 Node *arg, const char *post)
{
	appendStringInfo(buf, "%s%s(%s", fn, agg->aggfilter ? "If" : "", pre);
	if (arg)
		chfdw_deparse_value(buf, cx, arg);
	appendStringInfoString(buf, post);
	if (agg->aggfilter)
	{
		if (arg || pre[0])
			appendStringInfoString(buf, ", ");
		chfdw_deparse_cond(buf, cx, (Node *) agg->aggfilter, true, false);
	}
	appendStringInfoChar(buf, ')');
	/* an aggregate over a window (window.c): every call gets the window */
	if (cx->dp && cx->dp->over)
		appendStringInfo(buf, " OVER %s", cx->dp->over);
}

/*
 * "if(count(arg) < min_rows, NULL, " (FILTER counted too): PostgreSQL's
 * NULL over no rows (a sample's variance: over fewer than two), where
 * ClickHouse answers 0 or NaN. The caller closes the parenthesis.
 */
static void
null_below(StringInfo buf, ShipCtx *cx, Aggref *agg, Node *arg, int min_rows)
{
	appendStringInfoString(buf, "if(");
	agg_call(buf, cx, agg, "count", "", arg, "");
	if (min_rows == 1)
		appendStringInfoString(buf, " = 0, NULL, ");
	else
		appendStringInfo(buf, " < %d, NULL, ", min_rows);
}

void
chfdw_deparse_aggref(StringInfo buf, ShipCtx *cx, Aggref *agg)
{
	char	   *name = get_func_name(agg->aggfnoid);
	int			finish = chfdw_agg_finish((Expr *) agg);
	Node	   *arg;
	const char *fn;

	if (agg->aggkind == AGGKIND_ORDERED_SET)
	{
		bool		cont;

		(void) percentile_shippable(cx, agg, &cont);
		deparse_percentile(buf, cx, agg, cont);
		return;
	}
	if (agg->aggstar)
	{
		agg_call(buf, cx, agg, "count", "", NULL, "");
		return;
	}
	arg = (Node *) ((TargetEntry *) linitial(agg->args))->expr;
	if (finish == CHFDW_FINISH_ARRAY)
	{
		/*
		 * groupArray() skips NULLs, PostgreSQL keeps them: the values travel
		 * as 1-tuples (never NULL themselves). ClickHouse has no NULL array:
		 * no rows give an empty one, which PostgreSQL turns into NULL.
		 */
		appendStringInfoString(buf, "arrayMap(t -> tupleElement(t, 1), ");
		agg_call(buf, cx, agg, "groupArray", "tuple(", arg, ")");
		appendStringInfoChar(buf, ')');
		return;
	}
	if (finish == CHFDW_FINISH_AVG || finish >= CHFDW_FINISH_VAR_SAMP)
	{
		/*
		 * Exact pieces as text for PostgreSQL to finish (finish.c): avg
		 * "sum/count", the variance family "N/sum(x)/sum(x*x)" (Decimal128).
		 */
		StringInfoData square;

		initStringInfo(&square);
		appendStringInfoString(&square, ") * ");
		chfdw_deparse_value(&square, cx, arg);
		appendStringInfoString(&square, ", 0)");
		if (finish == CHFDW_FINISH_AVG)
			null_below(buf, cx, agg, arg, 1);
		appendStringInfoString(buf, "concat(toString(");
		if (finish == CHFDW_FINISH_AVG)
			agg_call(buf, cx, agg, "sum", "toDecimal128(", arg, ", 0)");
		else
			agg_call(buf, cx, agg, "count", "", arg, "");
		appendStringInfoString(buf, "), '/', toString(");
		if (finish == CHFDW_FINISH_AVG)
			agg_call(buf, cx, agg, "count", "", arg, "");
		else
		{
			agg_call(buf, cx, agg, "sum", "toDecimal128(", arg, ", 0)");
			appendStringInfoString(buf, "), '/', toString(");
			agg_call(buf, cx, agg, "sum", "toDecimal128(toInt64(", arg, square.data);
		}
		appendStringInfoString(buf, finish == CHFDW_FINISH_AVG ? ")))" : "))");
		return;
	}
	if (variance_function(name))
	{
		/* floats; NaN when an input is NaN or infinite, as PostgreSQL (26.5 says 0) */
		null_below(buf, cx, agg, arg, strstr(name, "pop") ? 1 : 2);
		appendStringInfoString(buf, "if(countIf(NOT isFinite(");
		chfdw_deparse_value(buf, cx, arg);
		appendStringInfoChar(buf, ')');
		if (agg->aggfilter)
		{
			appendStringInfoString(buf, " AND ");
			chfdw_deparse_cond(buf, cx, (Node *) agg->aggfilter, true, false);
		}
		appendStringInfoString(buf, ") > 0, nan, ");
		agg_call(buf, cx, agg, variance_function(name), "", arg, "");
		appendStringInfoString(buf, "))");
		return;
	}
	if (strcmp(name, "string_agg") == 0)
	{
		null_below(buf, cx, agg, arg, 1);
		appendStringInfoString(buf, "arrayStringConcat(");
		agg_call(buf, cx, agg, "groupArray", "", arg, "");
		appendStringInfoString(buf, ", ");
		chfdw_quote_literal(buf, chfdw_const_text((Node *) ((TargetEntry *) lsecond(agg->args))->expr));
		appendStringInfoString(buf, "))");
		return;
	}
	if (strcmp(name, "count") == 0)
	{
		if (agg->aggdistinct && agg->aggfilter)
			agg_call(buf, cx, agg, "uniqExact", "", arg, "");
		else
			agg_call(buf, cx, agg, "count", agg->aggdistinct ? "DISTINCT " : "", arg, "");
		return;
	}
	fn = strcmp(name, "bool_and") == 0 || strcmp(name, "every") == 0 ? "min" :
		strcmp(name, "bool_or") == 0 ? "max" : name;
	/* sum/min/max/avg: NULL over no rows, as PostgreSQL; sum(bigint) cannot wrap */
	null_below(buf, cx, agg, arg, 1);
	if (strcmp(name, "sum") == 0 && exprType(chfdw_strip_relabel(arg)) == INT8OID)
		agg_call(buf, cx, agg, fn, "toDecimal128(", arg, ", 0)");
	else
		agg_call(buf, cx, agg, fn, "", arg, "");
	appendStringInfoChar(buf, ')');
}

/*
 * A GROUP BY expression other than a column (CASE, date parts, string
 * functions, arithmetic): any value the WHERE shipper sends, whose
 * equality is exact in ClickHouse (not floats: -0 and 0, NaNs; not
 * numeric: a computed Decimal's scale is ClickHouse's, not PostgreSQL's
 * display scale; text under a deterministic collation: byte equality).
 * Raising forms (integer + - * with PostgreSQL's overflow check) only when
 * may_raise: PostgreSQL computes the key of every row its WHERE keeps, as
 * ClickHouse does, when it reads every group (see chfdw_group_key_shippable).
 */
static bool
grouping_value_ok(ShipCtx *cx, Node *n, TypeClass tc, bool may_raise)
{
	Oid			coll = exprCollation(n);
	ShipCtx		inner = *cx;

	/*
	 * numeric (extract) and double precision (date_part) of a date part:
	 * every field the pushdown table sends is an integer in ClickHouse
	 * (pushdown_map.c), so neither a scale nor NaN or -0 comes into it.
	 * Other numeric and float values are not keys.
	 */
	if (tc == TC_NUMERIC || tc == TC_FLOAT)
	{
		char	   *fn;

		if (!IsA(n, FuncExpr) || ((FuncExpr *) n)->funcid >= FirstGenbkiObjectId)
			return false;
		fn = get_func_name(((FuncExpr *) n)->funcid);
		if (!fn || (strcmp(fn, "extract") != 0 && strcmp(fn, "date_part") != 0))
			return false;
	}
	if (tc == TC_TEXT && OidIsValid(coll) && !get_collation_isdeterministic(coll))
		return false;
	if (contain_volatile_functions(n) || contain_agg_clause(n) ||
		contain_window_function(n) || expression_returns_set(n))
		return false;
	inner.may_raise = may_raise;
	return chfdw_value_shippable(&inner, n);
}

/*
 * A partial aggregate of partition-wise aggregation (a partition's part of
 * a group, AGGSPLIT_INITIAL_SERIAL) as the plain aggregate ClickHouse
 * computes: only when its transition value is its result (no final
 * function, the transition type is the result type and not internal:
 * count, sum of smallint/integer/double precision, min, max, bool_and,
 * bool_or), so PostgreSQL's combine function finishes what ClickHouse
 * returns exactly. NULL otherwise.
 */
static Aggref *
partial_as_simple(Aggref *agg)
{
	HeapTuple	tup;
	Form_pg_aggregate form;
	bool		ok;
	Aggref	   *simple;

	if (agg->aggsplit != AGGSPLIT_INITIAL_SERIAL)
		return NULL;
	tup = SearchSysCache1(AGGFNOID, ObjectIdGetDatum(agg->aggfnoid));
	if (!HeapTupleIsValid(tup))
		return NULL;
	form = (Form_pg_aggregate) GETSTRUCT(tup);
	ok = !OidIsValid(form->aggfinalfn) && OidIsValid(form->aggcombinefn) &&
		form->aggtranstype != INTERNALOID && form->aggtranstype == agg->aggtype &&
		form->aggtranstype == get_func_rettype(agg->aggfnoid);
	ReleaseSysCache(tup);
	if (!ok)
		return NULL;
	simple = copyObject(agg);
	simple->aggsplit = AGGSPLIT_SIMPLE;
	return simple;
}

/*
 * Can ClickHouse compute this grouping output expression: a grouping
 * column or expression, or a shippable aggregate?
 */
bool
chfdw_is_shippable_grouping_expr(RelOptInfo *baserel, Oid relid, Expr *expr, bool is_group_key)
{
	ShipCtx		cx;
	Node	   *n = chfdw_strip_relabel((Node *) expr);

	cx = chfdw_ship_ctx(baserel, relid);
	if (is_group_key)
	{
		TypeClass	tc;

		/* floats group NaN apart from PostgreSQL; text equality is bytes */
		tc = chfdw_type_class(exprType(n));
		if (tc == TC_NONE)
			return false;
		if (chfdw_is_our_var(&cx, n))
			return tc != TC_FLOAT;
		return grouping_value_ok(&cx, n, tc, false);
	}
	if (IsA(n, Aggref) && ((Aggref *) n)->aggsplit != AGGSPLIT_SIMPLE)
	{
		/* a partition's partial aggregate (partition-wise aggregation) */
		Aggref	   *simple = partial_as_simple((Aggref *) n);

		return simple && chfdw_aggref_shippable(&cx, simple) &&
			chfdw_agg_finish((Expr *) simple) == CHFDW_FINISH_NONE;
	}
	if (IsA(n, Aggref))
		return chfdw_aggref_shippable(&cx, (Aggref *) n);
	/*
	 * GROUPING(a, b) of grouping columns: ClickHouse's grouping() under
	 * force_grouping_standard_compatibility = 1, only sent with grouping
	 * sets (window.c).
	 */
	if (IsA(n, GroupingFunc))
	{
		ListCell   *lc;

		foreach(lc, ((GroupingFunc *) n)->args)
			if (!chfdw_is_our_var(&cx, (Node *) lfirst(lc)))
				return false;
		return ((GroupingFunc *) n)->agglevelsup == 0;
	}
	return false;
}

/*
 * A GROUP BY key ClickHouse can compute: a column or a value of exact
 * equality (grouping_value_ok). may_raise: the query reads every group of
 * a SELECT (tuple_fraction 0: no LIMIT, cursor or EXISTS above), so a key
 * that raises for a row raises in PostgreSQL too.
 */
bool
chfdw_group_key_shippable(RelOptInfo *baserel, Oid relid, Expr *expr, bool may_raise)
{
	ShipCtx		cx = chfdw_ship_ctx(baserel, relid);
	Node	   *n = chfdw_strip_relabel((Node *) expr);
	TypeClass	tc = chfdw_type_class(exprType(n));

	if (tc == TC_NONE)
		return false;
	if (chfdw_is_our_var(&cx, n))
		return tc != TC_FLOAT;
	return grouping_value_ok(&cx, n, tc, may_raise);
}

/* A grouping column or aggregate, as ClickHouse SQL. */
void
chfdw_deparse_grouping_expr(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel, Oid relid,
							Expr *expr)
{
	ShipCtx		cx;
	Node	   *n = chfdw_strip_relabel((Node *) expr);

	cx = chfdw_ship_ctx(baserel, relid);
	cx.dp = dp;
	if (IsA(n, Aggref) && ((Aggref *) n)->aggsplit != AGGSPLIT_SIMPLE)
		chfdw_deparse_aggref(buf, &cx, partial_as_simple((Aggref *) n));
	else if (IsA(n, Aggref))
		chfdw_deparse_aggref(buf, &cx, (Aggref *) n);
	else if (IsA(n, GroupingFunc))
	{
		ListCell   *lc;

		appendStringInfoString(buf, "toInt32(grouping(");
		foreach(lc, ((GroupingFunc *) n)->args)
		{
			/* as the grouping sets name it (chfdw_deparse_grouped_output) */
			appendStringInfoString(buf, lc != list_head(((GroupingFunc *) n)->args) ?
								   ", toNullable(" : "toNullable(");
			chfdw_deparse_value(buf, &cx, (Node *) lfirst(lc));
			appendStringInfoChar(buf, ')');
		}
		appendStringInfoString(buf, "))");
	}
	else
		chfdw_deparse_value(buf, &cx, n);
}

/*
 * ORDER BY over a grouped relation: the expression a pathkey sorts by, a
 * grouping column or an aggregate ClickHouse returns (top-N over groups).
 */
static Expr *
grouped_pathkey_expr(ShipCtx *cx, PathKey *pk, List *grouped_tlist)
{
	ListCell   *lc;

	if (pk->pk_eclass->ec_has_volatile)
		return NULL;
	foreach(lc, pk->pk_eclass->ec_members)
	{
		EquivalenceMember *em = (EquivalenceMember *) lfirst(lc);
		Node	   *e = chfdw_strip_relabel((Node *) em->em_expr);

		/* a grouping column, a grouping expression or an aggregate ClickHouse returns */
		if (IsA(e, GroupingFunc) || !tlist_member((Expr *) e, grouped_tlist))
			continue;
		if (chfdw_agg_finish((Expr *) e) != CHFDW_FINISH_NONE)
			return NULL;		/* ClickHouse has its pieces only */
		return sorts_like_postgres(cx, pk, exprType(e)) ? (Expr *) e : NULL;
	}
	return NULL;
}

bool
chfdw_grouped_pathkeys_shippable(RelOptInfo *baserel, Oid relid, List *pathkeys,
								 List *grouped_tlist)
{
	ShipCtx		cx = chfdw_ship_ctx(baserel, relid);
	ListCell   *lc;

	foreach(lc, pathkeys)
		if (!grouped_pathkey_expr(&cx, (PathKey *) lfirst(lc), grouped_tlist))
			return false;
	return pathkeys != NIL;
}

void
chfdw_deparse_grouped_order_by(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel,
							   Oid relid, List *pathkeys, List *grouped_tlist)
{
	ShipCtx		cx = chfdw_ship_ctx(baserel, relid);
	ListCell   *lc;
	bool		first = true;

	cx.dp = dp;
	appendStringInfoString(buf, " ORDER BY ");
	foreach(lc, pathkeys)
	{
		PathKey    *pk = (PathKey *) lfirst(lc);
		Node	   *e = (Node *) grouped_pathkey_expr(&cx, pk, grouped_tlist);

		if (!first)
			appendStringInfoString(buf, ", ");
		deparse_sort_key(buf, &cx, pk, e);
		first = false;
	}
}
