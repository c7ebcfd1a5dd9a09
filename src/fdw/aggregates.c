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
#include "common/shortest_dec.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "optimizer/tlist.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "chfdw.h"
#include "pushdown_map.h"
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
 * With a list of outputs (a join's, a DISTINCT's), only a member that is
 * one of them: `ORDER BY b` may have `a` first in its equivalence class
 * (ON a = b), which the SQL sent may not show where the ORDER BY is: no
 * output of a DISTINCT sent as GROUP BY of its outputs (ClickHouse's
 * NOT_AN_AGGREGATE), not passed up by 18.16's nested join subqueries
 * (UNKNOWN_IDENTIFIER).
 */
static Var *
pathkey_var(ShipCtx *cx, PathKey *pk, List *outputs)
{
	EquivalenceClass *ec = pk->pk_eclass;
	ListCell   *lc;

	if (ec->ec_has_volatile)
		return NULL;
	foreach(lc, ec->ec_members)
	{
		EquivalenceMember *em = (EquivalenceMember *) lfirst(lc);
		Node	   *e = chfdw_strip_relabel((Node *) em->em_expr);

		if (outputs && !list_member(outputs, e))
			continue;
		/* (tskey) a timestamp column: by its wall time (pushdown_dates.c) */
		if (chfdw_ts_key_column(cx, e))
			return pk->pk_opfamily == get_opclass_family(GetDefaultOpClass(TIMESTAMPOID, BTREE_AM_OID)) ?
				(Var *) e : NULL;
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

/*
 * One sort key of already written ClickHouse text `value` of PostgreSQL
 * type `type`: the float NaN key first (see deparse_sort_key), then the
 * value, each with its direction and NULLs.
 */
static void
append_sort_key(StringInfo buf, const char *value, Oid type, bool desc, bool nulls_first)
{
	const char *dir = desc ? " DESC" : " ASC";
	const char *nulls = nulls_first ? " NULLS FIRST" : " NULLS LAST";

	if (chfdw_type_class(type) == TC_FLOAT)
		appendStringInfo(buf, "isNaN(%s)%s%s, ", value, dir, nulls);
	appendStringInfo(buf, "%s%s%s", value, dir, nulls);
}

/* One sort key (see deparse_sort_key): a value or an aggregate, its direction, its NULLs. */
void
chfdw_deparse_sort_value(StringInfo buf, ShipCtx *cx, Node *e, bool desc, bool nulls_first)
{
	StringInfoData v;

	initStringInfo(&v);
	if (IsA(e, Aggref))
		chfdw_deparse_aggref(&v, cx, (Aggref *) e);
	else
		chfdw_deparse_value(&v, cx, e);
	append_sort_key(buf, v.data, exprType(e), desc, nulls_first);
	pfree(v.data);
}

/* Can every pathkey be sorted by ClickHouse? */
bool
chfdw_pathkeys_shippable(RelOptInfo *baserel, Oid relid, List *pathkeys, List *outputs)
{
	ShipCtx		cx;
	ListCell   *lc;

	cx = chfdw_ship_ctx(baserel, relid);
	foreach(lc, pathkeys)
		if (!pathkey_var(&cx, (PathKey *) lfirst(lc), outputs))
			return false;
	return pathkeys != NIL;
}

/* " ORDER BY `c` ASC NULLS LAST, ..." with explicit NULLS placement. */
void
chfdw_deparse_order_by(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel, Oid relid,
					   List *pathkeys, List *outputs)
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
		Var		   *v = pathkey_var(&cx, pk, outputs);

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
 * integers, numeric, dates, timestamptz and C-collated text, avg and the
 * variance family (exact pieces for integers: finish.c), string_agg and
 * array_agg (also with ORDER BY and DISTINCT), count of a row, bit_and /
 * bit_or / bit_xor, bool_and / bool_or, regr_count / regr_avgx /
 * regr_avgy, percentile_disc / percentile_cont and mode(). Empty input
 * gives NULL as in PostgreSQL (not ClickHouse's 0); sum(bigint) is summed
 * as Decimal(38, 0), so it cannot wrap. (numagg) sum, avg and the variance
 * family of numeric columns where the ClickHouse type sums exactly
 * (agg_numeric.c). corr, covar_* and the other regr_* are agg_regr.c's
 * (servers with arrayFold).
 */
static void agg_call(StringInfo buf, ShipCtx *cx, Aggref *agg, const char *fn,
					 const char *pre, Node *arg, const char *post);
static void null_below(StringInfo buf, ShipCtx *cx, Aggref *agg, Node *arg, int min_rows);

/* ClickHouse's name of a float variance aggregate, or NULL */
const char *
chfdw_variance_function(const char *name)
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
 * array_agg and percentile_*(array of fractions) (an empty array,
 * ClickHouse's answer over no rows, is NULL); CHFDW_FINISH_VAR_* /
 * STDDEV_* for the variance family of smallint, integer and bigint
 * ("N/sum/sum of squares", bigint's square in three pieces);
 * CHFDW_FINISH_NUM_* for numeric columns' avg and variance family and
 * (numagg3) for a numeric sum this statement sends in limbs (its column's
 * ClickHouse type decides; agg_numeric.c records it); else
 * CHFDW_FINISH_NONE (finish.c).
 */
int
chfdw_agg_finish(Expr *expr)
{
	Node	   *n = chfdw_strip_relabel((Node *) expr);
	Aggref	   *agg;
	char	   *name;
	Oid			t;

	if (!n || !IsA(n, Aggref))
		return CHFDW_FINISH_NONE;
	agg = (Aggref *) n;
	/* (regr) corr, covar_*, regr_*: finished by their final functions (agg_regr.c) */
	if (chfdw_is_regr_agg(agg))
		return chfdw_regr_finish_kind(agg);
	if (agg->aggstar || agg->args == NIL)
		return CHFDW_FINISH_NONE;
	name = get_func_name(agg->aggfnoid);
	if (!name)
		return CHFDW_FINISH_NONE;
	/* percentile_*(array of fractions): an array, empty over no rows */
	if (agg->aggkind == AGGKIND_ORDERED_SET)
		return strncmp(name, "percentile_", 11) == 0 && list_length(agg->aggdirectargs) == 1 &&
			type_is_array(exprType((Node *) linitial(agg->aggdirectargs))) ?
			CHFDW_FINISH_ARRAY : CHFDW_FINISH_NONE;
	/* array_agg, also with ORDER BY keys (more, resjunk, arguments) */
	if (strcmp(name, "array_agg") == 0)
		return CHFDW_FINISH_ARRAY;
	if (list_length(agg->args) != 1)
		return CHFDW_FINISH_NONE;
	t = exprType((Node *) ((TargetEntry *) linitial(agg->args))->expr);
	if (strcmp(name, "avg") == 0 && chfdw_type_class(t) == TC_INT)
		return CHFDW_FINISH_AVG;
	/* (numagg) numeric columns: exact pieces (agg_numeric.c); (numagg3) a sum in limbs */
	if (t == NUMERICOID && strcmp(name, "sum") == 0)
		return chfdw_numagg_finish_kind(agg);
	if (t == NUMERICOID && strcmp(name, "avg") == 0)
		return CHFDW_FINISH_NUM_AVG;
	if (t == NUMERICOID && chfdw_variance_function(name))
	{
		bool		samp = strstr(name, "pop") == NULL;

		return strncmp(name, "stddev", 6) == 0 ?
			(samp ? CHFDW_FINISH_NUM_STDDEV_SAMP : CHFDW_FINISH_NUM_STDDEV_POP) :
			(samp ? CHFDW_FINISH_NUM_VAR_SAMP : CHFDW_FINISH_NUM_VAR_POP);
	}
	if (chfdw_variance_function(name) && (t == INT2OID || t == INT4OID || t == INT8OID))
	{
		bool		samp = strstr(name, "pop") == NULL;

		return strncmp(name, "stddev", 6) == 0 ?
			(samp ? CHFDW_FINISH_STDDEV_SAMP : CHFDW_FINISH_STDDEV_POP) :
			(samp ? CHFDW_FINISH_VAR_SAMP : CHFDW_FINISH_VAR_POP);
	}
	return CHFDW_FINISH_NONE;
}

/*
 * The fractions of percentile_disc / percentile_cont: a constant float8 or
 * a constant one-dimensional float8[] of at most CHFDW_MAX_FRACTIONS
 * without NULLs, every fraction within [0, 1] (else PostgreSQL raises its
 * error). NULL: not of that shape.
 */
#define CHFDW_MAX_FRACTIONS 32

static float8 *
percentile_fractions(Aggref *agg, int *n, bool *is_array)
{
	Node	   *frac = chfdw_strip_relabel((Node *) linitial(agg->aggdirectargs));
	Const	   *c;
	float8	   *f;
	int			i;

	if (!IsA(frac, Const) || ((Const *) frac)->constisnull)
		return NULL;
	c = (Const *) frac;
	if (c->consttype == FLOAT8OID)
	{
		f = palloc(sizeof(float8));
		f[0] = DatumGetFloat8(c->constvalue);
		*n = 1;
		*is_array = false;
	}
	else if (c->consttype == FLOAT8ARRAYOID)
	{
		ArrayType  *a = DatumGetArrayTypeP(c->constvalue);
		Datum	   *elems;
		bool	   *nulls;

		if (ARR_NDIM(a) != 1 || ARR_LBOUND(a)[0] != 1)
			return NULL;
		deconstruct_array(a, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
						  &elems, &nulls, n);
		/* each fraction is an expression of its own: keep the query short */
		if (*n == 0 || *n > CHFDW_MAX_FRACTIONS)
			return NULL;
		f = palloc(sizeof(float8) * *n);
		for (i = 0; i < *n; i++)
		{
			if (nulls[i])
				return NULL;	/* PostgreSQL answers NULL there: kept local */
			f[i] = DatumGetFloat8(elems[i]);
		}
		*is_array = true;
	}
	else
		return NULL;
	for (i = 0; i < *n; i++)
		if (!(f[i] >= 0 && f[i] <= 1))
			return NULL;		/* PostgreSQL raises the error */
	return f;
}

/*
 * percentile_disc / percentile_cont(constant fraction, or array of them)
 * WITHIN GROUP (ORDER BY col), ascending: computed from ClickHouse's sorted
 * groupArray() with PostgreSQL's own arithmetic (percentile_*_final):
 * disc takes the value at ceil(f * n), cont interpolates between floor and
 * ceil of f * (n - 1). NULLs are skipped and NaN sorts last in both. An
 * array of fractions gives the array of those values, in its order.
 */
static bool
percentile_shippable(ShipCtx *cx, Aggref *agg, bool *cont)
{
	char	   *name = get_func_name(agg->aggfnoid);
	Node	   *arg;
	SortGroupClause *sgc;
	TypeClass	tc;
	int			n;
	bool		is_array;

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
	if (!percentile_fractions(agg, &n, &is_array))
		return false;
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

/* One fraction's value, from the sorted values and their count */
static void
deparse_one_percentile(StringInfo buf, ShipCtx *cx, Node *arg, const char *sorted, float8 f,
					   bool cont)
{
	StringInfoData pos;

	initStringInfo(&pos);
	chfdw_deparse_float8(&pos, f);
	appendStringInfoString(&pos, cont ? " * (count(" : " * count(");
	chfdw_deparse_value(&pos, cx, arg);
	appendStringInfoString(&pos, cont ? ") - 1)" : ")");
	if (!cont)
		appendStringInfo(buf, "%s[toUInt64(greatest(ceil(%s), 1))]", sorted, pos.data);
	else
		appendStringInfo(buf,
						 "if(floor(%s) = ceil(%s), %s[toUInt64(floor(%s)) + 1], "
						 "%s[toUInt64(floor(%s)) + 1] + (%s[toUInt64(ceil(%s)) + 1] - "
						 "%s[toUInt64(floor(%s)) + 1]) * ((%s) - floor(%s)))",
						 pos.data, pos.data, sorted, pos.data,
						 sorted, pos.data, sorted, pos.data,
						 sorted, pos.data, pos.data, pos.data);
}

static void
deparse_percentile(StringInfo buf, ShipCtx *cx, Aggref *agg, bool cont)
{
	Node	   *arg = (Node *) ((TargetEntry *) linitial(agg->args))->expr;
	StringInfoData sorted;
	float8	   *f;
	int			n;
	int			i;
	bool		is_array;

	f = percentile_fractions(agg, &n, &is_array);
	initStringInfo(&sorted);
	appendStringInfoString(&sorted, "arraySort(groupArray(");
	chfdw_deparse_value(&sorted, cx, arg);
	appendStringInfoString(&sorted, "))");
	if (!is_array)
	{
		appendStringInfoString(buf, "if(count(");
		chfdw_deparse_value(buf, cx, arg);
		appendStringInfoString(buf, ") = 0, NULL, ");
		deparse_one_percentile(buf, cx, arg, sorted.data, f[0], cont);
		appendStringInfoChar(buf, ')');
		return;
	}
	/*
	 * ClickHouse has no NULL array: over no rows the slice is empty, which
	 * PostgreSQL makes NULL (CHFDW_FINISH_ARRAY); the values computed over
	 * an empty array are ClickHouse's defaults, never errors.
	 */
	appendStringInfoString(buf, "arraySlice([");
	for (i = 0; i < n; i++)
	{
		if (i > 0)
			appendStringInfoString(buf, ", ");
		deparse_one_percentile(buf, cx, arg, sorted.data, f[i], cont);
	}
	appendStringInfo(buf, "], 1, if(count(");
	chfdw_deparse_value(buf, cx, arg);
	appendStringInfo(buf, ") = 0, 0, %d))", n);
}

/*
 * mode() WITHIN GROUP (ORDER BY col [DESC]): the most frequent value, the
 * first in the sort order among equally frequent ones (mode_final walks
 * the sorted values); NULLs skipped, NULL over no rows. Types whose
 * equality and order ClickHouse shares (no floats: -0 and 0, NaN).
 */
static bool
mode_shippable(ShipCtx *cx, Aggref *agg)
{
	char	   *name = get_func_name(agg->aggfnoid);
	Node	   *arg;
	SortGroupClause *sgc;
	TypeClass	tc;
	TypeCacheEntry *tce;
	Oid			t;

	if (!name || strcmp(name, "mode") != 0 || agg->aggfilter || agg->aggvariadic ||
		agg->aggsplit != AGGSPLIT_SIMPLE || agg->agglevelsup != 0 ||
		agg->aggdirectargs != NIL || list_length(agg->args) != 1 ||
		list_length(agg->aggorder) != 1)
		return false;
	arg = (Node *) ((TargetEntry *) linitial(agg->args))->expr;
	if (!chfdw_is_our_var(cx, arg))
		return false;
	t = exprType(chfdw_strip_relabel(arg));
	tc = chfdw_type_class(t);
	sgc = linitial_node(SortGroupClause, agg->aggorder);
	tce = lookup_type_cache(t, TYPECACHE_LT_OPR | TYPECACHE_GT_OPR);
	if (sgc->sortop != tce->lt_opr && sgc->sortop != tce->gt_opr)
		return false;
	return tc == TC_INT || tc == TC_NUMERIC || tc == TC_DATE || tc == TC_TIMESTAMPTZ ||
		tc == TC_BOOL || (tc == TC_TEXT && chfdw_ordering_collation_ok(cx, agg->inputcollid));
}

/*
 * The sorted values s; arrayEnumerateUniq(s)[i] is how many times s[i] was
 * seen up to i, so its first maximum ends the first longest run (18.16
 * has no arrayMax: arrayReduce('max', ...)).
 */
static void
deparse_mode(StringInfo buf, ShipCtx *cx, Aggref *agg)
{
	Node	   *arg = (Node *) ((TargetEntry *) linitial(agg->args))->expr;
	SortGroupClause *sgc = linitial_node(SortGroupClause, agg->aggorder);
	bool		desc = sgc->sortop != lookup_type_cache(exprType(chfdw_strip_relabel(arg)),
													TYPECACHE_LT_OPR)->lt_opr;
	StringInfoData s;

	initStringInfo(&s);
	appendStringInfo(&s, "%s(groupArray(", desc ? "arrayReverseSort" : "arraySort");
	chfdw_deparse_value(&s, cx, arg);
	appendStringInfoString(&s, "))");
	appendStringInfoString(buf, "if(count(");
	chfdw_deparse_value(buf, cx, arg);
	appendStringInfo(buf, ") = 0, NULL, %s[indexOf(arrayEnumerateUniq(%s), "
					 "arrayReduce('max', arrayEnumerateUniq(%s)))])", s.data, s.data, s.data);
}

/* Does equality under this collation mean equal bytes (a deterministic one)? */
static bool
equality_collation_ok(Oid collid)
{
	return !OidIsValid(collid) || get_collation_isdeterministic(collid);
}

static bool agg_arg_expr_ok(ShipCtx *cx, const char *name, Node *arg);
static bool grouping_value_ok(ShipCtx *cx, Node *n, TypeClass tc, bool may_raise);

/*
 * One ORDER BY key of string_agg / array_agg: a column or (aggs3) a value
 * of a type ClickHouse orders as PostgreSQL does, in its default order
 * ascending or descending.
 */
static bool
agg_sort_key_ok(ShipCtx *cx, Node *e, SortGroupClause *sgc, bool *desc)
{
	Oid			t;
	TypeClass	tc;
	TypeCacheEntry *tce;

	/*
	 * A column, or (aggs3) an expression an aggregate's argument may be (no
	 * raising form, no numeric) that is no float: -0 and 0 tie in
	 * PostgreSQL's sort and NaN's place needs the column's isNaN key
	 */
	if (!chfdw_is_our_var(cx, e) &&
		(chfdw_type_class(exprType(e)) == TC_FLOAT || !agg_arg_expr_ok(cx, "min", e)))
		return false;
	t = exprType(chfdw_strip_relabel(e));
	tc = chfdw_type_class(t);
	if (!(tc == TC_INT || tc == TC_FLOAT || tc == TC_NUMERIC || tc == TC_DATE ||
		  tc == TC_TIMESTAMPTZ || tc == TC_BOOL ||
		  (tc == TC_TEXT && chfdw_ordering_collation_ok(cx, exprCollation(e)))))
		return false;
	tce = lookup_type_cache(t, TYPECACHE_LT_OPR | TYPECACHE_GT_OPR);
	if (OidIsValid(tce->lt_opr) && sgc->sortop == tce->lt_opr)
		*desc = false;
	else if (OidIsValid(tce->gt_opr) && sgc->sortop == tce->gt_opr)
		*desc = true;
	else
		return false;
	return true;
}

/* The sort keys of string_agg / array_agg: its ORDER BY, else its DISTINCT's. */
static List *
agg_sort_keys(Aggref *agg)
{
	return agg->aggorder != NIL ? agg->aggorder : agg->aggdistinct;
}

/* string_agg's delimiter (a key DISTINCT lists, a constant): not sorted by */
static bool
is_delimiter(TargetEntry *tle, bool string)
{
	return string && tle->resno == 2 && !tle->resjunk;
}

/*
 * string_agg(text col, constant delimiter) / array_agg(col), (aggs3) col
 * also an expression an aggregate's argument may be (agg_arg_expr_ok), with
 * ORDER BY keys (agg_sort_key_ok; every key in one direction, NULLS FIRST or
 * LAST each) and/or
 * DISTINCT (no floats: ClickHouse tells -0 from 0; text under a
 * deterministic collation: equal means equal bytes).
 */
static bool
ordered_agg_shippable(ShipCtx *cx, Aggref *agg, bool string)
{
	TargetEntry *vt = linitial_node(TargetEntry, agg->args);
	Node	   *val = (Node *) vt->expr;
	TypeClass	tc;
	ListCell   *lc;
	bool		first = true;
	bool		dir = false;

	/* a column, or (aggs3) an expression an aggregate's argument may be */
	if (!chfdw_is_our_var(cx, val) && !agg_arg_expr_ok(cx, "array_agg", val))
		return false;
	tc = chfdw_type_class(exprType(chfdw_strip_relabel(val)));
	if (string)
	{
		if (list_length(agg->args) < 2 || tc != TC_TEXT ||
			lsecond_node(TargetEntry, agg->args)->resjunk ||
			chfdw_const_text((Node *) lsecond_node(TargetEntry, agg->args)->expr) == NULL)
			return false;
	}
	else if (!(tc == TC_INT || tc == TC_FLOAT || tc == TC_TEXT || tc == TC_DATE ||
			   tc == TC_TIMESTAMPTZ))
		return false;
	if (agg->aggdistinct != NIL &&
		(tc == TC_FLOAT || (tc == TC_TEXT && !equality_collation_ok(agg->inputcollid))))
		return false;
	foreach(lc, agg_sort_keys(agg))
	{
		SortGroupClause *sgc = lfirst_node(SortGroupClause, lc);
		TargetEntry *tle = get_sortgroupclause_tle(sgc, agg->args);
		bool		desc;

		if (is_delimiter(tle, string))
			continue;
		if (!agg_sort_key_ok(cx, (Node *) tle->expr, sgc, &desc))
			return false;
		if (!first && desc != dir)
			return false;		/* one direction: arraySort or arrayReverseSort */
		dir = desc;
		first = false;
	}
	return !first;				/* a key to sort by */
}

/*
 * The values collected as tuples (value, key1, key2, ...), never NULL
 * themselves, so NULL values and keys are kept (groupUniqArray: DISTINCT),
 * sorted by ClickHouse by (NULL flag, [isNaN,] key) per key, then the
 * values taken out. string_agg skips NULL values; no rows: NULL (string_agg)
 * or an empty array PostgreSQL makes NULL (array_agg, CHFDW_FINISH_ARRAY).
 */
static void
deparse_ordered_agg(StringInfo buf, ShipCtx *cx, Aggref *agg, bool string)
{
	Node	   *val = (Node *) linitial_node(TargetEntry, agg->args)->expr;
	ListCell   *lc;
	StringInfoData keys;
	bool		desc = false;
	int			i = 1;

	initStringInfo(&keys);
	if (string)
	{
		null_below(buf, cx, agg, val, 1);
		appendStringInfoString(buf, "arrayStringConcat(arrayMap(t -> assumeNotNull(tupleElement(t, 1)), ");
	}
	else
		appendStringInfoString(buf, "arrayMap(t -> tupleElement(t, 1), ");
	/* the sort: arraySort(t -> tuple(keys), collected) */
	foreach(lc, agg_sort_keys(agg))
	{
		SortGroupClause *sgc = lfirst_node(SortGroupClause, lc);
		TargetEntry *tle = get_sortgroupclause_tle(sgc, agg->args);
		Node	   *e = (Node *) tle->expr;

		if (is_delimiter(tle, string))
			continue;
		(void) agg_sort_key_ok(cx, e, sgc, &desc);
		i++;
		/* NULLs after the values (before them when reversed), or the other way */
		appendStringInfo(&keys, "%s(tupleElement(t, %d)), ",
						 sgc->nulls_first == desc ? "isNull" : "isNotNull", i);
		if (chfdw_type_class(exprType(e)) == TC_FLOAT)
			appendStringInfo(&keys, "isNaN(assumeNotNull(tupleElement(t, %d))), ", i);
		appendStringInfo(&keys, "assumeNotNull(tupleElement(t, %d)), ", i);
	}
	keys.data[keys.len - 2] = '\0';
	appendStringInfo(buf, "%s(t -> tuple(%s), ", desc ? "arrayReverseSort" : "arraySort",
					 keys.data);
	/* the collected tuples */
	appendStringInfo(buf, "%s%s(tuple(", agg->aggdistinct ? "groupUniqArray" : "groupArray",
					 agg->aggfilter || string ? "If" : "");
	chfdw_deparse_value(buf, cx, val);
	foreach(lc, agg_sort_keys(agg))
	{
		TargetEntry *tle = get_sortgroupclause_tle(lfirst_node(SortGroupClause, lc), agg->args);

		if (is_delimiter(tle, string))
			continue;
		appendStringInfoString(buf, ", ");
		chfdw_deparse_value(buf, cx, (Node *) tle->expr);
	}
	appendStringInfoString(buf, ")");
	if (string)
	{
		appendStringInfoString(buf, ", isNotNull(");
		chfdw_deparse_value(buf, cx, val);
		appendStringInfoChar(buf, ')');
	}
	if (agg->aggfilter)
	{
		appendStringInfoString(buf, string ? " AND " : ", ");
		chfdw_deparse_cond(buf, cx, (Node *) agg->aggfilter, true, false);
	}
	appendStringInfoString(buf, ")))");
	if (string)
	{
		appendStringInfoString(buf, ", ");
		chfdw_quote_literal(buf, chfdw_const_text((Node *) lsecond_node(TargetEntry, agg->args)->expr));
		appendStringInfoString(buf, "))");
	}
}

/*
 * count((a, b)) / count(DISTINCT (a, b)): a row is never NULL, so every row
 * counts; DISTINCT counts distinct tuples, NULL fields equal to each other
 * as in PostgreSQL's record comparison. Fields whose equality ClickHouse
 * shares (no floats; text under a deterministic collation).
 */
static bool
row_count_shippable(ShipCtx *cx, Aggref *agg, RowExpr *row)
{
	ListCell   *lc;

	foreach(lc, row->args)
	{
		Node	   *e = (Node *) lfirst(lc);
		TypeClass	tc;

		if (!chfdw_is_our_var(cx, e))
			return false;
		tc = chfdw_type_class(exprType(chfdw_strip_relabel(e)));
		if (tc == TC_NONE || tc == TC_FLOAT ||
			(tc == TC_TEXT && !equality_collation_ok(exprCollation(e))))
			return false;
	}
	return row->args != NIL;
}

/* bool_and / bool_or / every */
static bool
is_bool_agg(const char *name)
{
	return strcmp(name, "bool_and") == 0 || strcmp(name, "bool_or") == 0 ||
		strcmp(name, "every") == 0;
}

/*
 * (audit) The argument of a one-argument aggregate that is an expression,
 * not a column: a condition for bool_and / bool_or / every (sent as its
 * three-valued 1 / 0 / NULL, deparse_bool_arg), else a value the WHERE
 * shipper sends. Never a raising form (ShipCtx.may_raise): ClickHouse's -If
 * combinators compute the argument of rows FILTER leaves out, and under a
 * LIMIT PostgreSQL may stop before a row that raises. Not numeric (a
 * computed Decimal's scale is ClickHouse's), floats only where they are
 * summed (sum, avg, the variance family) or collected (array_agg).
 */
static bool
agg_arg_expr_ok(ShipCtx *cx, const char *name, Node *arg)
{
	ShipCtx		inner = *cx;
	TypeClass	tc = chfdw_type_class(exprType(arg));

	inner.may_raise = false;
	if (contain_volatile_functions(arg) || contain_agg_clause(arg) ||
		contain_window_function(arg) || expression_returns_set(arg))
		return false;
	if (is_bool_agg(name))
		return exprType(arg) == BOOLOID && chfdw_expr_shippable(&inner, arg);
	if (tc == TC_NONE || tc == TC_NUMERIC || tc == TC_BOOL || tc == TC_UUID)
		return false;
	if (tc == TC_FLOAT && strcmp(name, "sum") != 0 && strcmp(name, "avg") != 0 &&
		strcmp(name, "array_agg") != 0 && !chfdw_variance_function(name))
		return false;
	return chfdw_value_shippable(&inner, arg);
}

/*
 * (audit) A bool_and / bool_or / every argument that is a condition, as a
 * value: 1 where it is true, 0 where false, NULL where NULL (PostgreSQL's
 * three values; min / max skip the NULLs as bool_and / bool_or do).
 */
static char *
deparse_bool_arg(ShipCtx *cx, Node *arg)
{
	StringInfoData tv;

	initStringInfo(&tv);
	appendStringInfoString(&tv, "multiIf(");
	chfdw_deparse_cond(&tv, cx, arg, true, false);
	appendStringInfoString(&tv, ", 1, ");
	chfdw_deparse_cond(&tv, cx, arg, false, false);
	appendStringInfoString(&tv, ", 0, NULL)");
	return tv.data;
}

bool
chfdw_aggref_shippable(ShipCtx *cx, Aggref *agg)
{
	char	   *name;
	Node	   *arg = NULL;
	TypeClass	tc = TC_NONE;
	bool		cont;

	/* ClickHouse's own aggregates (chfuncs.c) */
	if (chfdw_is_chagg(agg->aggfnoid))
		return chfdw_chagg_shippable(cx, agg);
	/* (regr) corr, covar_*, regr_*: arrayFold of float8_regr_accum (agg_regr.c) */
	if (chfdw_is_regr_agg(agg))
		return chfdw_regr_shippable(cx, agg);
	if (agg->aggkind == AGGKIND_ORDERED_SET && agg->aggfnoid < FirstGenbkiObjectId)
		return percentile_shippable(cx, agg, &cont) || mode_shippable(cx, agg);

	if (agg->aggfnoid >= FirstGenbkiObjectId || agg->aggkind != AGGKIND_NORMAL ||
		agg->aggvariadic || agg->aggsplit != AGGSPLIT_SIMPLE || agg->agglevelsup != 0)
		return false;
	/* FILTER (WHERE c): ClickHouse's -If combinators, with c as "is it true" */
	if (agg->aggfilter && !chfdw_expr_shippable(cx, (Node *) agg->aggfilter))
		return false;
	name = get_func_name(agg->aggfnoid);
	if (!name)
		return false;
	/* string_agg / array_agg with ORDER BY or DISTINCT: sorted by ClickHouse */
	if ((agg->aggorder != NIL || agg->aggdistinct != NIL) && agg->args != NIL &&
		(strcmp(name, "string_agg") == 0 || strcmp(name, "array_agg") == 0))
		return ordered_agg_shippable(cx, agg, name[0] == 's');
	if (agg->aggorder != NIL)
		return false;
	if (agg->aggstar)
		return strcmp(name, "count") == 0 && agg->args == NIL;
	if (strcmp(name, "string_agg") == 0)
	{
		/*
		 * string_agg(text, constant delimiter), in any order: of a column
		 * or an expression an aggregate's argument may be
		 */
		Node	   *delim;

		if (list_length(agg->args) != 2 || agg->aggdistinct != NIL)
			return false;
		arg = (Node *) ((TargetEntry *) linitial(agg->args))->expr;
		delim = (Node *) ((TargetEntry *) lsecond(agg->args))->expr;
		return (chfdw_is_our_var(cx, arg) || agg_arg_expr_ok(cx, name, arg)) &&
			chfdw_type_class(exprType(chfdw_strip_relabel(arg))) == TC_TEXT &&
			chfdw_const_text(delim) != NULL;
	}
	/*
	 * regr_count (Y, X): over the rows where both are not NULL (regr_avgx
	 * / regr_avgy, the other regr_*, corr, covar_*: agg_regr.c, above;
	 * (floatagg) a sum over a count missed float8_regr_accum's overflow)
	 */
	if (strcmp(name, "regr_count") == 0 || strcmp(name, "regr_avgx") == 0 ||
		strcmp(name, "regr_avgy") == 0)
	{
		ListCell   *lc;

		if (list_length(agg->args) != 2 || agg->aggdistinct != NIL)
			return false;
		foreach(lc, agg->args)
		{
			Node	   *e = (Node *) lfirst_node(TargetEntry, lc)->expr;

			if (exprType(e) != FLOAT8OID || !chfdw_value_shippable(cx, e) ||
				contain_volatile_functions(e))
				return false;
		}
		return true;
	}
	if (list_length(agg->args) != 1)
		return false;
	arg = (Node *) ((TargetEntry *) linitial(agg->args))->expr;
	/* count((a, b)), count(DISTINCT (a, b)) */
	if (strcmp(name, "count") == 0 && IsA(arg, RowExpr))
		return row_count_shippable(cx, agg, (RowExpr *) arg);
	/*
	 * (tsdate) count(DISTINCT k), min(k) and max(k) of a call sent only as a
	 * whole grouping key (date_trunc, ts::date): its fixed-width ISO text is
	 * equal only for equal values and sorts in their order, and min / max
	 * travel back as that text, read as the key is
	 */
	if (chfdw_is_key_only_call(arg) &&
		((strcmp(name, "count") == 0 && agg->aggdistinct != NIL) ||
		 (agg->aggdistinct == NIL && (strcmp(name, "min") == 0 || strcmp(name, "max") == 0))))
		return grouping_value_ok(cx, chfdw_strip_relabel(arg),
								 chfdw_type_class(exprType(arg)), false);
	/* (tskey) and of a timestamp column, as its wall time's key (pushdown_dates.c); count too */
	if (chfdw_ts_key_column(cx, arg))
		return strcmp(name, "count") == 0 ||
			(agg->aggdistinct == NIL && (strcmp(name, "min") == 0 || strcmp(name, "max") == 0));
	if (!chfdw_is_our_var(cx, arg) && !agg_arg_expr_ok(cx, name, arg))
		return false;
	tc = chfdw_type_class(exprType(chfdw_strip_relabel(arg)));
	if (agg->aggdistinct != NIL && strcmp(name, "count") != 0)
		return false;
	/* count(DISTINCT): no floats (-0 and 0); text: equal means equal bytes */
	if (strcmp(name, "count") == 0)
		return agg->aggdistinct == NIL ||
			(tc != TC_FLOAT && (tc != TC_TEXT || equality_collation_ok(agg->inputcollid)) &&
			 !chfdw_dates5_fine_ticks(cx, arg));
	/* (numagg) sum, avg, the variance family of numeric: exact Decimal sums */
	if (tc == TC_NUMERIC && (strcmp(name, "sum") == 0 || strcmp(name, "avg") == 0 ||
							 chfdw_variance_function(name)))
		return chfdw_numagg_shippable(cx, agg, arg);
	/*
	 * sum of real: PostgreSQL adds in float4 (float4pl), ClickHouse in
	 * Float64: 100,000 thirds gave 1.6666319e+09 against 1.66665e+09
	 */
	if (strcmp(name, "sum") == 0)
		return tc == TC_INT ||
			(tc == TC_FLOAT && exprType(chfdw_strip_relabel(arg)) == FLOAT8OID);
	/*
	 * min/max of timestamptz: their form depends on whether the server has
	 * DateTime64 (chfdw_deparse_aggref); a server that cannot be asked
	 * (probe.c) keeps them local (its NULL caps crashed the deparse)
	 */
	if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0)
		return tc == TC_INT || tc == TC_NUMERIC || tc == TC_DATE || tc == TC_FLOAT ||
			(tc == TC_TIMESTAMPTZ && chfdw_ship_caps(cx) != NULL) ||
			(tc == TC_TEXT && chfdw_ordering_collation_ok(cx, agg->inputcollid));
	/* array_agg: NULLs kept; an empty array (no rows) becomes NULL here */
	if (strcmp(name, "array_agg") == 0)
		return tc == TC_INT || tc == TC_FLOAT || tc == TC_TEXT || tc == TC_DATE ||
			tc == TC_TIMESTAMPTZ;
	/* avg of integers: numeric, finished by PostgreSQL (chfdw_agg_finish) */
	if (strcmp(name, "avg") == 0)
		return tc == TC_INT || tc == TC_FLOAT;
	/* floats: ClickHouse's; integers: exact sums PostgreSQL finishes */
	if (chfdw_variance_function(name))
		return tc == TC_FLOAT || tc == TC_INT;
	/* bool_and / bool_or: min / max of 0 and 1 */
	if (strcmp(name, "bool_and") == 0 || strcmp(name, "bool_or") == 0 ||
		strcmp(name, "every") == 0)
		return tc == TC_BOOL;
	/* bit_and / bit_or / bit_xor of integers: groupBit* of the unsigned bits */
	if (strcmp(name, "bit_and") == 0 || strcmp(name, "bit_or") == 0 ||
		strcmp(name, "bit_xor") == 0)
		return tc == TC_INT;
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
	/*
	 * (lcfix) 18.16's countIf(x, cond) of a Nullable x is Nullable: NULL
	 * where no row counts (a group whose x are all NULL); PostgreSQL's 0
	 */
	bool		null_count = agg->aggfilter && arg && strcmp(fn, "count") == 0;

	if (null_count)
		appendStringInfoString(buf, "ifNull(");
	appendStringInfo(buf, "%s%s(%s", fn, agg->aggfilter ? "If" : "", pre);
	if (arg && strcmp(fn, "count") == 0 && pre[0] == '\0' && chfdw_ts_key_column(cx, arg))
	{
		/* (tskey) NULL where its wall time's key is: the column itself */
		Var		   *v = (Var *) chfdw_strip_relabel(arg);

		chfdw_quote_identifier(buf, chfdw_column_name(cx->relid, v->varattno));
	}
	else if (arg)
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
	if (null_count)
		appendStringInfoString(buf, ", 0)");
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

/* (numagg) agg_call and null_below for agg_numeric.c */
void
chfdw_agg_call(StringInfo buf, ShipCtx *cx, Aggref *agg, const char *fn, const char *pre,
			   Node *arg, const char *post)
{
	agg_call(buf, cx, agg, fn, pre, arg, post);
}

void
chfdw_agg_null_below(StringInfo buf, ShipCtx *cx, Aggref *agg, Node *arg, int min_rows)
{
	null_below(buf, cx, agg, arg, min_rows);
}

/* hex(reinterpretAsString(sum(pre arg post))): a Decimal128 sum's 16 bytes (finish.c) */
static void
dec_sum(StringInfo buf, ShipCtx *cx, Aggref *agg, const char *pre, Node *arg, const char *post)
{
	appendStringInfoString(buf, "hex(reinterpretAsString(");
	agg_call(buf, cx, agg, "sum", pre, arg, post);
	appendStringInfoString(buf, "))");
}

void
chfdw_deparse_aggref(StringInfo buf, ShipCtx *cx, Aggref *agg)
{
	char	   *name = get_func_name(agg->aggfnoid);
	int			finish = chfdw_agg_finish((Expr *) agg);
	Node	   *arg;
	const char *fn;

	if (chfdw_is_chagg(agg->aggfnoid))
	{
		chfdw_deparse_chagg(buf, cx, agg);
		return;
	}
	/* (regr) agg_regr.c */
	if (chfdw_is_regr_agg(agg))
	{
		chfdw_deparse_regr(buf, cx, agg);
		return;
	}
	if (agg->aggkind == AGGKIND_ORDERED_SET)
	{
		bool		cont;

		if (percentile_shippable(cx, agg, &cont))
			deparse_percentile(buf, cx, agg, cont);
		else
			deparse_mode(buf, cx, agg);
		return;
	}
	if (agg->aggstar)
	{
		agg_call(buf, cx, agg, "count", "", NULL, "");
		return;
	}
	arg = (Node *) ((TargetEntry *) linitial(agg->args))->expr;
	if ((agg->aggorder != NIL || agg->aggdistinct != NIL) &&
		(strcmp(name, "string_agg") == 0 || strcmp(name, "array_agg") == 0))
	{
		deparse_ordered_agg(buf, cx, agg, name[0] == 's');
		return;
	}
	if (strncmp(name, "regr_", 5) == 0)
	{
		StringInfoData cond;
		Node	   *y = (Node *) linitial_node(TargetEntry, agg->args)->expr;
		Node	   *x = (Node *) lsecond_node(TargetEntry, agg->args)->expr;

		initStringInfo(&cond);
		appendStringInfoString(&cond, "isNotNull(");
		chfdw_deparse_value(&cond, cx, y);
		appendStringInfoString(&cond, ") AND isNotNull(");
		chfdw_deparse_value(&cond, cx, x);
		appendStringInfoChar(&cond, ')');
		if (agg->aggfilter)
		{
			appendStringInfoString(&cond, " AND ");
			chfdw_deparse_cond(&cond, cx, (Node *) agg->aggfilter, true, false);
		}
		if (strcmp(name, "regr_count") == 0)
		{
			appendStringInfo(buf, "countIf(%s)", cond.data);
			return;
		}
		appendStringInfo(buf, "if(countIf(%s) = 0, NULL, sumIf(", cond.data);
		chfdw_deparse_value(buf, cx, strcmp(name, "regr_avgx") == 0 ? x : y);
		appendStringInfo(buf, ", %s) / countIf(%s))", cond.data, cond.data);
		return;
	}
	if (strcmp(name, "count") == 0 && IsA(arg, RowExpr))
	{
		ListCell   *lc;

		if (!agg->aggdistinct)
		{
			/* a row is never NULL: every row counts */
			agg_call(buf, cx, agg, "count", "", NULL, "");
			return;
		}
		appendStringInfo(buf, "uniqExact%s(tuple(", agg->aggfilter ? "If" : "");
		foreach(lc, ((RowExpr *) arg)->args)
		{
			if (lc != list_head(((RowExpr *) arg)->args))
				appendStringInfoString(buf, ", ");
			chfdw_deparse_value(buf, cx, (Node *) lfirst(lc));
		}
		appendStringInfoChar(buf, ')');
		if (agg->aggfilter)
		{
			appendStringInfoString(buf, ", ");
			chfdw_deparse_cond(buf, cx, (Node *) agg->aggfilter, true, false);
		}
		appendStringInfoChar(buf, ')');
		if (cx->dp && cx->dp->over)
			appendStringInfo(buf, " OVER %s", cx->dp->over);
		return;
	}
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
	/* (numagg) numeric columns (agg_numeric.c) */
	if (exprType(chfdw_strip_relabel(arg)) == NUMERICOID &&
		(strcmp(name, "sum") == 0 || strcmp(name, "avg") == 0 || chfdw_variance_function(name)))
	{
		chfdw_deparse_numagg(buf, cx, agg, arg);
		return;
	}
	/* (floatagg) float sum, avg, variance family with 22003 (agg_float.c); not over windows */
	if (!(cx->dp && cx->dp->over) && chfdw_is_float_accum_agg(agg))
	{
		if (strcmp(name, "sum") == 0)
			chfdw_deparse_float_sum(buf, cx, agg, arg);
		else
			chfdw_deparse_float_accum(buf, cx, agg, arg, name, chfdw_variance_function(name));
		return;
	}
	if (finish == CHFDW_FINISH_AVG || finish >= CHFDW_FINISH_VAR_SAMP)
	{
		/*
		 * Exact pieces as text for PostgreSQL to finish (finish.c): avg
		 * "sum/count", the variance family "N/sum(x)/sum(x*x)", each sum a
		 * Decimal128 sent as the hex of its 16 little-endian bytes
		 * (reinterpretAsString: 18.16's toString of a Decimal128 from about
		 * 10^20 up writes NUL bytes for digits).
		 */
		Oid			t = exprType(chfdw_strip_relabel(arg));
		StringInfoData post;

		initStringInfo(&post);
		if (finish == CHFDW_FINISH_AVG)
			null_below(buf, cx, agg, arg, 1);
		appendStringInfoString(buf, "concat(");
		if (finish == CHFDW_FINISH_AVG)
		{
			dec_sum(buf, cx, agg, "toDecimal128(", arg, ", 0)");
			appendStringInfoString(buf, ", '/', toString(");
			agg_call(buf, cx, agg, "count", "", arg, "");
			appendStringInfoString(buf, ")))");
			return;
		}
		appendStringInfoString(buf, "toString(");
		agg_call(buf, cx, agg, "count", "", arg, "");
		appendStringInfoString(buf, "), '/', ");
		dec_sum(buf, cx, agg, "toDecimal128(", arg, ", 0)");
		appendStringInfoString(buf, ", '/', ");
		if (t != INT8OID)
		{
			appendStringInfoString(&post, ") * ");
			chfdw_deparse_value(&post, cx, arg);
			appendStringInfoString(&post, ", 0)");
			dec_sum(buf, cx, agg, "toDecimal128(toInt64(", arg, post.data);
		}
		else
		{
			/*
			 * bigint: x = h * 2^32 + l (h = intDiv(x, 2^32), l = x % 2^32,
			 * both with x's sign), x^2 = h^2 * 2^64 + h*l * 2^33 + l^2: each
			 * product fits Decimal128 as does each sum (up to 2^64 rows);
			 * "N/sum(x)/sum(h*h)/sum(h*l)/sum(l*l)".
			 */
			StringInfoData h;
			StringInfoData l;

			initStringInfo(&h);
			appendStringInfoString(&h, "toDecimal128(intDiv(");
			chfdw_deparse_value(&h, cx, arg);
			appendStringInfoString(&h, ", toInt64(4294967296)), 0)");
			initStringInfo(&l);
			appendStringInfoString(&l, "toDecimal128(modulo(");
			chfdw_deparse_value(&l, cx, arg);
			appendStringInfoString(&l, ", toInt64(4294967296)), 0)");
			appendStringInfo(&post, "%s * %s", h.data, h.data);
			dec_sum(buf, cx, agg, post.data, NULL, "");
			appendStringInfoString(buf, ", '/', ");
			resetStringInfo(&post);
			appendStringInfo(&post, "%s * %s", h.data, l.data);
			dec_sum(buf, cx, agg, post.data, NULL, "");
			appendStringInfoString(buf, ", '/', ");
			resetStringInfo(&post);
			appendStringInfo(&post, "%s * %s", l.data, l.data);
			dec_sum(buf, cx, agg, post.data, NULL, "");
		}
		appendStringInfoChar(buf, ')');
		return;
	}
	if (chfdw_variance_function(name))
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
		agg_call(buf, cx, agg, chfdw_variance_function(name), "", arg, "");
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
		/*
		 * count(DISTINCT) of a Nullable column whose group holds only
		 * NULLs is NULL on 18.16 (uniqExact's Null combinator), 0 in
		 * PostgreSQL and on newer servers: ifNull() makes it 0 on all.
		 */
		if (agg->aggdistinct)
			appendStringInfoString(buf, "ifNull(");
		if (agg->aggdistinct && agg->aggfilter)
			agg_call(buf, cx, agg, "uniqExact", "", arg, "");
		else
			agg_call(buf, cx, agg, "count", agg->aggdistinct ? "DISTINCT " : "", arg, "");
		if (agg->aggdistinct)
			appendStringInfoString(buf, ", 0)");
		return;
	}
	if (strncmp(name, "bit_", 4) == 0)
	{
		/*
		 * ClickHouse 18.16's groupBit* take unsigned integers only: the
		 * bits as toUIntN (two's complement), the answer back as toIntN.
		 */
		int			bits = exprType(chfdw_strip_relabel(arg)) == INT2OID ? 16 :
			exprType(chfdw_strip_relabel(arg)) == INT4OID ? 32 : 64;
		char		pre[16];
		char		fnb[16];

		snprintf(pre, sizeof(pre), "toUInt%d(", bits);
		snprintf(fnb, sizeof(fnb), "groupBit%s", strcmp(name, "bit_and") == 0 ? "And" :
				 strcmp(name, "bit_or") == 0 ? "Or" : "Xor");
		null_below(buf, cx, agg, arg, 1);
		appendStringInfo(buf, "toInt%d(", bits);
		agg_call(buf, cx, agg, fnb, pre, arg, ")");
		appendStringInfoString(buf, "))");
		return;
	}
	fn = strcmp(name, "bool_and") == 0 || strcmp(name, "every") == 0 ? "min" :
		strcmp(name, "bool_or") == 0 ? "max" : name;
	if (is_bool_agg(name) && !IsA(chfdw_strip_relabel(arg), Var))
	{
		/* (audit) a condition: min / max of its 1 / 0 / NULL */
		char	   *tv = deparse_bool_arg(cx, arg);

		appendStringInfoString(buf, "if(");
		agg_call(buf, cx, agg, "count", tv, NULL, "");
		appendStringInfoString(buf, " = 0, NULL, ");
		agg_call(buf, cx, agg, fn, tv, NULL, "");
		appendStringInfoChar(buf, ')');
		return;
	}
	/* sum/min/max/avg: NULL over no rows, as PostgreSQL; sum(bigint) cannot wrap */
	null_below(buf, cx, agg, arg, 1);
	if (strcmp(name, "sum") == 0 && exprType(chfdw_strip_relabel(arg)) == INT8OID)
		agg_call(buf, cx, agg, fn, "toDecimal128(", arg, ", 0)");
	else if (strcmp(name, "sum") == 0 && chfdw_type_class(exprType(chfdw_strip_relabel(arg))) == TC_FLOAT)
	{
		/*
		 * PostgreSQL's float sum starts from the first value, ClickHouse's
		 * from 0: over values that are all -0 PostgreSQL answers -0,
		 * ClickHouse 0 (0 + -0). -0 is the bits 0x8000000000000000 (read
		 * through reinterpretAsString: 18.16 reinterprets no Float64 as an
		 * integer directly; 5x cheaper than comparing toString(x)).
		 */
		appendStringInfoString(buf, "if(");
		agg_call(buf, cx, agg, "max", "reinterpretAsUInt64(reinterpretAsString(", arg,
				 ")) != 9223372036854775808");
		appendStringInfoString(buf, " = 0, -0., ");
		agg_call(buf, cx, agg, fn, "", arg, "");
		appendStringInfoChar(buf, ')');
	}
	else if ((strcmp(name, "min") == 0 || strcmp(name, "max") == 0) &&
			 chfdw_type_class(exprType(chfdw_strip_relabel(arg))) == TC_FLOAT)
	{
		/*
		 * (floatminmax) PostgreSQL's float8larger/float8smaller order NaN
		 * above every number (float8_gt); ClickHouse's min/max compare with
		 * < and >, so a NaN's place in the rows decides. max: NaN when any
		 * value is NaN, else max; min: NaN when every value is, else the
		 * min with NaN read as +inf. (Ties of -0 and 0 give either, as
		 * PostgreSQL's own answer depends on the rows' order.)
		 */
		bool		is_max = strcmp(name, "max") == 0;
		const char *nan = exprType(chfdw_strip_relabel(arg)) == FLOAT4OID ?
			"toFloat32(nan)" : "nan";

		appendStringInfoString(buf, "if(");
		agg_call(buf, cx, agg, "sum", is_max ? "isNaN(" : "NOT isNaN(", arg, ")");
		appendStringInfo(buf, " %s 0, %s, ", is_max ? ">" : "=", nan);
		if (is_max)
			agg_call(buf, cx, agg, "max", "", arg, "");
		else
		{
			StringInfoData v;

			initStringInfo(&v);
			appendStringInfoString(&v, "if(isNaN(");
			chfdw_deparse_value(&v, cx, arg);
			appendStringInfo(&v, "), %s, ", exprType(chfdw_strip_relabel(arg)) == FLOAT4OID ?
							 "toFloat32(inf)" : "inf");
			agg_call(buf, cx, agg, "min", v.data, arg, ")");
			pfree(v.data);
		}
		appendStringInfoChar(buf, ')');
	}
	else if ((strcmp(name, "min") == 0 || strcmp(name, "max") == 0) && chfdw_ts_key_column(cx, arg))
	{
		/* (tskey) of its wall time's key, min/max's form (pushdown_dates.c) */
		StringInfoData k;

		initStringInfo(&k);
		chfdw_deparse_ts_key_minmax(&k, cx, arg);
		agg_call(buf, cx, agg, fn, k.data, NULL, "");
		pfree(k.data);
	}
	else if ((strcmp(name, "min") == 0 || strcmp(name, "max") == 0) &&
			 (exprType(arg) == TIMESTAMPTZOID || exprType(arg) == TIMESTAMPOID) &&
			 chfdw_ship_caps(cx) && chfdw_ship_caps(cx)->datetime64 &&
			 !chfdw_is_key_only_call(arg) && !chfdw_ts_key_column(cx, arg))
	{
		/*
		 * The 26.5 engine's JIT-compiled min()/max() of a DateTime64 under
		 * GROUP BY (compile_aggregate_expressions, on by default, once
		 * min_count_to_compile_aggregate_expression runs) compare its ticks
		 * as if unsigned: min of 1950 and 2000 said 2000 (modern_dt64
		 * section 8). argMin/argMax by the microseconds as Int64 instead
		 * (not reinterpretAsInt64: Date32 has no such form), the value
		 * itself and its type kept.
		 */
		StringInfoData key;

		initStringInfo(&key);
		appendStringInfoString(&key, ", toUnixTimestamp64Micro(toDateTime64(");
		chfdw_deparse_value(&key, cx, arg);
		appendStringInfoString(&key, ", 6))");
		agg_call(buf, cx, agg, strcmp(name, "min") == 0 ? "argMin" : "argMax", "", arg, key.data);
		pfree(key.data);
	}
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
	/*
	 * (dates) the key itself may be a call sent only as a key; inside a key
	 * key_args is not NIL either (pushdown_map.c)
	 */
	inner.key_args = IsA(n, FuncExpr) ? ((FuncExpr *) n)->args : list_make1(n);
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
		if (chfdw_ts_key_column(&cx, n))
			return true;		/* (tskey) a timestamp column (pushdown_dates.c) */
		if (tc == TC_NONE && !chfdw_is_key_only_call(n))	/* (dates) date_trunc */
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
	/* (numagg3) an output: a numeric sum may travel in limbs (agg_numeric.c) */
	if (IsA(n, Aggref))
		return chfdw_numagg_output_shippable(&cx, (Aggref *) n);
	/*
	 * GROUPING(a, b) of grouping columns: ClickHouse's grouping() under
	 * force_grouping_standard_compatibility = 1, only sent with grouping
	 * sets (window.c). (subq3) An argument may be a grouping expression
	 * (GROUPING(k % 2)), sent as a grouping key is.
	 */
	if (IsA(n, GroupingFunc))
	{
		ListCell   *lc;

		foreach(lc, ((GroupingFunc *) n)->args)
			if (!chfdw_is_our_var(&cx, (Node *) lfirst(lc)) &&
				!chfdw_is_shippable_grouping_expr(baserel, relid, (Expr *) lfirst(lc), true))
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

	if (chfdw_ts_key_column(&cx, n))
		return true;			/* (tskey) a timestamp column (pushdown_dates.c) */
	if (tc == TC_NONE && !chfdw_is_key_only_call(n))	/* (dates) date_trunc */
		return false;
	if (chfdw_dates5_fine_ticks(&cx, n))
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
	else if (IsA(n, Const))
	{
		/* a key PostgreSQL folded (coalesce(0, g)): GROUP BY 0 is a position in 26.5 */
		appendStringInfoString(buf, "identity(");
		chfdw_deparse_value(buf, &cx, n);
		appendStringInfoChar(buf, ')');
	}
	else
		chfdw_deparse_value(buf, &cx, n);
}

/*
 * (tskey) min or max of a timestamp column: ClickHouse returns its wall
 * time's key, which sorts as the values do (pushdown_dates.c)
 */
static bool
ts_key_minmax(ShipCtx *cx, Node *e)
{
	Aggref	   *agg = (Aggref *) e;
	char	   *name;

	if (!IsA(e, Aggref) || list_length(agg->args) != 1 || agg->aggdistinct != NIL ||
		agg->aggorder != NIL || agg->aggfnoid >= FirstGenbkiObjectId)
		return false;
	name = get_func_name(agg->aggfnoid);
	return name && (strcmp(name, "min") == 0 || strcmp(name, "max") == 0) &&
		chfdw_ts_key_column(cx, (Node *) ((TargetEntry *) linitial(agg->args))->expr);
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
		/*
		 * (dates) date_trunc() of a timestamp column travels as its fixed
		 * ISO text, whose bytes sort in time order (pushdown_map.c)
		 */
		if (chfdw_type_class(exprType(e)) == TC_NONE &&
			(chfdw_is_key_only_call(e) || chfdw_ts_key_column(cx, e) || ts_key_minmax(cx, e)))
			return pk->pk_opfamily == get_opclass_family(GetDefaultOpClass(exprType(e), BTREE_AM_OID)) ?
				(Expr *) e : NULL;
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
							   Oid relid, List *pathkeys, List *grouped_tlist, bool grouping_sets)
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
		first = false;
		if (grouping_sets && !IsA(e, Aggref))
		{
			/*
			 * (gsorder) a grouping key as the SELECT list has it,
			 * toNullable(key): NULL where a set does not group it
			 * (group_by_use_nulls), as PostgreSQL sorts it
			 */
			StringInfoData v;

			initStringInfo(&v);
			chfdw_deparse_grouped_output(dp, &v, baserel, relid, (Expr *) e, true);
			append_sort_key(buf, v.data, exprType(e),
							pk->pk_strategy != BTLessStrategyNumber, pk->pk_nulls_first);
			pfree(v.data);
			continue;
		}
		deparse_sort_key(buf, &cx, pk, e);
	}
}
