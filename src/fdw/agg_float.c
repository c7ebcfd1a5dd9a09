/*-------------------------------------------------------------------------
 * agg_float.c
 *	  Grouped sum, avg and the variance family of floats with PostgreSQL's
 *	  overflow errors.
 *
 *	  PostgreSQL's float8pl (sum) raises 22003 "value out of range:
 *	  overflow" where two finite values give an infinite sum, and
 *	  float8_accum / float4_accum (avg, var_*, stddev_*) where finite
 *	  inputs make its Youngs-Cramer sums Sx or Sxx infinite
 *	  (src/backend/utils/adt/float.c):
 *		N += 1; Sx += x;
 *		if (N0 > 0) { tmp = x * N - Sx; Sxx += tmp * tmp / (N * N0);
 *					  if (isinf(Sx) || isinf(Sxx)) {
 *						  if (!isinf(Sx0) && !isinf(x)) overflow;
 *						  Sxx = NaN; } }
 *		else if (isinf(x) || isnan(x)) Sxx = NaN;
 *	  A grouped aggregate over a foreign scan adds its rows in the order
 *	  they arrive: any order is one PostgreSQL may use, so the answer sent
 *	  is PostgreSQL's for one order (ClickHouse's own rounding of a float
 *	  sum is accepted already, README "Float sums, averages and variances
 *	  may differ ..."). The SQL per group:
 *	  - a flag f = groupBitOr of 1 (NaN), 2 (+Infinity), 4 (-Infinity) over
 *		the inputs. f != 0: the order with the non-finite inputs first
 *		never raises (after an infinity or NaN neither function raises),
 *		and its sum is fixed: NaN if any NaN or both infinities, else the
 *		infinity; avg = that sum / N, the variance family NaN (Sxx NaN).
 *	  - f = 0, sum: ClickHouse's sum finite is PostgreSQL's for an order
 *		that never overflows (a greedy order keeping every partial sum
 *		within the total's bound exists); infinite or NaN, ClickHouse
 *		overflowed adding a subset first, and PostgreSQL adding that subset
 *		first overflows too: 22003.
 *	  - f = 0, avg / variance: no order overflows when every |x| <= 1e130
 *		(< 2^432; N < 2^63): |Sx| <= N max|x| < 2^495, |x N| < 2^495,
 *		|tmp| = |x N - Sx| < 2^496, tmp * tmp < 2^992, and Sxx, the sum
 *		of squared deviations, <= N (2 max|x|)^2 < 2^929 (rounding at
 *		each step moves these by far less than the margin to 2^1024).
 *		Rows above it ("hard" rows, rare) are collected
 *		(groupArrayIf, empty for ordinary data) and added after the others
 *		(an order PostgreSQL may use): the state (N, Sx, Sxx) of the easy
 *		rows from ClickHouse's countIf / sumIf / varPopIf * N, then
 *		float8_accum's steps over the hard rows replayed in Float64:
 *		arrayCumSum is a sequential Float64 sum on every version, so the
 *		step sums are arrayCumSum([Sx_e, x1, x2, ...]), each step's tmp
 *		from them and Sxx's steps another arrayCumSum; any infinite step
 *		raises 22003. Without hard rows the answer is today's avgIf /
 *		varSampIf / ... of the rows.
 *	  The raise is a guard (error.c's markers) around the value, also
 *	  sent as ClickHouse's HAVING (chfdw_deparse_float_guards), evaluated
 *	  over every group before ORDER BY and LIMIT: a group HAVING or LIMIT
 *	  leaves out still raises, as PostgreSQL computes every group's
 *	  aggregates first. (floathaving) The query's own HAVING follows the
 *	  guards (chfdw_deparse_float_having); on the UNION ALL path and with
 *	  grouping sets it stays in PostgreSQL (chfdw_has_regr_agg).
 *
 * src/fdw/agg_float.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_aggregate.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/restrictinfo.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"

#include "chfdw.h"
#include "shippable.h"

/* Every |x| at most this: no order of float8_accum overflows (above) */
#define EASY_BOUND "1e130"

/* sum, avg or the variance family of a float argument, not over a window */
bool
chfdw_is_float_accum_agg(Aggref *agg)
{
	char	   *name;
	Node	   *arg;
	Oid			t;

	if (agg->aggstar || list_length(agg->args) != 1 || agg->aggkind != AGGKIND_NORMAL ||
		agg->aggfnoid >= FirstGenbkiObjectId)
		return false;
	arg = (Node *) linitial_node(TargetEntry, agg->args)->expr;
	t = exprType(chfdw_strip_relabel(arg));
	if (t != FLOAT8OID && t != FLOAT4OID)
		return false;
	name = get_func_name(agg->aggfnoid);
	if (!name)
		return false;
	if (strcmp(name, "sum") == 0)
		return t == FLOAT8OID;
	return strcmp(name, "avg") == 0 || strcmp(name, "variance") == 0 ||
		strcmp(name, "var_samp") == 0 || strcmp(name, "var_pop") == 0 ||
		strcmp(name, "stddev") == 0 || strcmp(name, "stddev_samp") == 0 ||
		strcmp(name, "stddev_pop") == 0;
}

/* " AND (filter)" or "" */
static char *
filter_and(ShipCtx *cx, Aggref *agg)
{
	StringInfoData f;

	initStringInfo(&f);
	if (agg->aggfilter)
	{
		appendStringInfoString(&f, " AND ");
		chfdw_deparse_cond(&f, cx, (Node *) agg->aggfilter, true, false);
	}
	return f.data;
}

/* the flag of the non-finite inputs: 1 NaN, 2 +Infinity, 4 -Infinity */
static char *
nonfinite_flag(ShipCtx *cx, Aggref *agg, const char *x)
{
	/*
	 * Over assumeNotNull(x) where isNotNull(x): no Nullable argument or
	 * condition, whose -If aggregates 18.16 makes Nullable
	 */
	return psprintf("groupBitOrIf(multiIf(isNaN(assumeNotNull(%s)), toUInt8(1), "
					"isInfinite(assumeNotNull(%s)), if(assumeNotNull(%s) > 0, toUInt8(2), toUInt8(4)), "
					"toUInt8(0)), isNotNull(%s)%s)",
					x, x, x, x, filter_and(cx, agg));
}

/* the sum of the order with the non-finite inputs first (f != 0) */
static char *
nonfinite_sum(const char *f)
{
	return psprintf("multiIf(bitAnd(%s, 1) != 0 OR bitAnd(%s, 6) = 6, nan, %s = 2, inf, -inf)",
					f, f, f);
}

/*
 * if(toInt8(if(cond, 'marker', '0')) = 0, v, nan): raises 22003 where cond
 * (never nan: toInt8 gives 0 or raises)
 * (ifNull: 18.16's if() takes no Nullable constant condition)
 */
static void
guard(StringInfo buf, const char *cond, const char *v)
{
	appendStringInfo(buf, "if(toInt8(if(ifNull(%s, 0), '%s', '0')) = 0, %s, nan)", cond,
					 chfdw_raise_marker(CHFDW_RAISE_OVERFLOW), v);
}

/*
 * "(expr AS chfdw_fa_<tag>_<hash of expr>)", its name in *ref: a piece an
 * aggregate's SQL uses several times is written once (ClickHouse resolves
 * an alias anywhere in the query, also before its definition and in
 * HAVING; one defined twice must be the same expression, which the hash of
 * the text makes it), keeping the query well under max_query_size.
 */
static char *
alias_def(const char *expr, const char *tag, char **ref)
{
	uint64		h = hash_bytes_extended((const unsigned char *) expr, (int) strlen(expr), 0);

	*ref = psprintf("chfdw_fa_%s_%016llx", tag, (unsigned long long) h);
	return psprintf("(%s AS %s)", expr, *ref);
}

/*
 * sum(float8): NULL over no rows; f != 0 the fixed sum above; else
 * today's sum (-0 where every value is -0: PostgreSQL's float sum starts
 * from the first value, ClickHouse's from 0), raising where it is not
 * finite.
 */
static void
sum_parts(ShipCtx *cx, Aggref *agg, Node *arg, char **cond, char **value)
{
	StringInfoData x;
	StringInfoData s;
	StringInfoData v;
	char	   *f;

	char	   *fdef;
	char	   *sdef;
	char	   *sref;

	initStringInfo(&x);
	chfdw_deparse_value(&x, cx, arg);
	fdef = alias_def(nonfinite_flag(cx, agg, x.data), "f", &f);
	initStringInfo(&s);
	chfdw_agg_call(&s, cx, agg, "sum", "", arg, "");
	sdef = alias_def(s.data, "s", &sref);
	initStringInfo(&v);
	appendStringInfo(&v, "multiIf(%s != 0, %s, ", f, nonfinite_sum(f));
	chfdw_agg_call(&v, cx, agg, "max", "reinterpretAsUInt64(reinterpretAsString(", arg,
				   ")) != 9223372036854775808");
	appendStringInfo(&v, " = 0, -0., %s)", sref);
	*cond = psprintf("%s = 0 AND NOT isFinite(%s)", fdef, sdef);
	*value = v.data;
}

void
chfdw_deparse_float_sum(StringInfo buf, ShipCtx *cx, Aggref *agg, Node *arg)
{
	char	   *cond;
	char	   *value;

	sum_parts(cx, agg, arg, &cond, &value);
	chfdw_agg_null_below(buf, cx, agg, arg, 1);
	guard(buf, cond, value);
	appendStringInfoChar(buf, ')');
}

/*
 * avg and the variance family of float8 and real (float4_accum is
 * float8_accum of the float8 value): see the header. name is
 * PostgreSQL's; chname ClickHouse's variance (NULL for avg).
 */
static void
accum_parts(ShipCtx *cx, Aggref *agg, Node *arg, const char *name, const char *chname,
			char **cond, char **value)
{
	StringInfoData x;
	char	   *fa = filter_and(cx, agg);
	char	   *f;
	char	   *nn;
	char	   *easy;
	char	   *h;
	char	   *ne;
	char	   *sx;
	char	   *sxx;
	char	   *fdef;
	char	   *hdef;
	char	   *nedef;
	char	   *ordinary;
	char	   *replayed;
	char	   *overflow;
	char	   *n;
	bool		is_avg = strcmp(name, "avg") == 0;
	bool		samp = strstr(name, "pop") == NULL;
	bool		sd = strncmp(name, "stddev", 6) == 0;

	/*
	 * x: the value where it is not NULL (isNotNull in every condition),
	 * never Nullable: 18.16 makes an -If aggregate of a Nullable argument
	 * or condition Nullable, and arrayCumSum takes no Nullable.
	 */
	initStringInfo(&x);
	chfdw_deparse_value(&x, cx, arg);
	fdef = alias_def(nonfinite_flag(cx, agg, x.data), "f", &f);
	nn = psprintf("isNotNull(%s)", x.data);
	resetStringInfo(&x);
	appendStringInfoString(&x, "toFloat64(assumeNotNull(");
	chfdw_deparse_value(&x, cx, arg);
	appendStringInfoString(&x, "))");
	easy = psprintf("%s AND abs(%s) <= " EASY_BOUND "%s", nn, x.data, fa);
	hdef = alias_def(psprintf("groupArrayIf(%s, %s AND NOT (abs(%s) <= " EASY_BOUND ")%s)",
							  x.data, nn, x.data, fa), "h", &h);
	nedef = alias_def(psprintf("toFloat64(countIf(%s))", easy), "n", &ne);
	sx = psprintf("sumIf(%s, %s)", x.data, easy);
	sxx = psprintf("if(%s = 0, 0., varPopIf(%s, %s) * %s)", nedef, x.data, easy, ne);
	/* the easy rows alone: today's ClickHouse aggregate of them */
	ordinary = is_avg ? psprintf("avgIf(%s, %s)", x.data, easy) :
		psprintf("%sIf(%s, %s)", chname, x.data, easy);

	/*
	 * The replay: SX = arrayCumSum([Sx_e, h1, ..., hk]) (N after step i:
	 * Ne + i), tmp_i = h_i * (Ne + i) - SX[i + 1], Sxx's increments
	 * tmp * tmp / (N * N0) where N0 = Ne + i - 1 > 0 (else 0),
	 * SXX = arrayCumSum([Sxx_e, increments...]).
	 */
	{
		char	   *sxs;
		char	   *sxsdef = alias_def(psprintf("arrayCumSum(arrayConcat([%s], %s))", sx, hdef),
									   "sx", &sxs);
		char	   *sxxsdef;
		char	   *incr = psprintf("arrayMap((chfdw_h, chfdw_s, chfdw_i) -> "
									"if(%s + chfdw_i > 1., "
									"(chfdw_h * (%s + chfdw_i) - chfdw_s) * (chfdw_h * (%s + chfdw_i) - chfdw_s) "
									"/ ((%s + chfdw_i) * (%s + chfdw_i - 1.)), 0.), "
									"%s, arraySlice(%s, 2), arrayEnumerate(%s))",
									ne, ne, ne, ne, ne, h, sxs, h);
		char	   *sxxs;

		sxxsdef = alias_def(psprintf("arrayCumSum(arrayConcat([%s], %s))", sxx, incr), "sxx", &sxxs);
		n = psprintf("(%s + toFloat64(length(%s)))", ne, h);
		/* the definitions: the condition comes first in the guard and in HAVING */
		overflow = psprintf("%s = 0 AND (arrayExists(chfdw_v -> isInfinite(chfdw_v), %s) OR "
							"arrayExists(chfdw_v -> isInfinite(chfdw_v), %s))", fdef, sxsdef, sxxsdef);
		if (is_avg)
			replayed = psprintf("arrayElement(%s, -1) / %s", sxs, n);
		else
			replayed = psprintf("%s(arrayElement(%s, -1) / (%s%s))", sd ? "sqrt" : "",
								sxxs, n, samp ? " - 1." : "");
	}
	*cond = overflow;
	*value = psprintf("multiIf(%s != 0, %s, length(%s) = 0, %s, %s)", f,
					  is_avg ? nonfinite_sum(f) : "nan", h, ordinary, replayed);
}

void
chfdw_deparse_float_accum(StringInfo buf, ShipCtx *cx, Aggref *agg, Node *arg,
						  const char *name, const char *chname)
{
	char	   *cond;
	char	   *value;
	bool		samp = strstr(name, "pop") == NULL && strcmp(name, "avg") != 0;

	accum_parts(cx, agg, arg, name, chname, &cond, &value);
	chfdw_agg_null_below(buf, cx, agg, arg, samp ? 2 : 1);
	guard(buf, cond, value);
	appendStringInfoChar(buf, ')');
}

static bool
guards_walker(Node *n, List **aggs)
{
	if (n == NULL)
		return false;
	if (IsA(n, Aggref))
	{
		if (chfdw_is_float_accum_agg((Aggref *) n))
			*aggs = list_append_unique(*aggs, n);
		return false;
	}
	return expression_tree_walker(n, guards_walker, aggs);
}

/* the guards of aggs, each "<sep>toInt8(if(ifNull(cond, 0), 'marker', '0')) = 0" */
static void
write_guards(StringInfo buf, ShipCtx *cx, List *aggs, const char *sep)
{
	ListCell   *lc;

	foreach(lc, aggs)
	{
		Aggref	   *agg = lfirst_node(Aggref, lc);
		Node	   *arg = (Node *) linitial_node(TargetEntry, agg->args)->expr;
		char	   *name = get_func_name(agg->aggfnoid);
		char	   *cond;
		char	   *value;

		if (strcmp(name, "sum") == 0)
			sum_parts(cx, agg, arg, &cond, &value);
		else
			accum_parts(cx, agg, arg, name, chfdw_variance_function(name), &cond, &value);
		appendStringInfo(buf, "%stoInt8(if(ifNull(%s, 0), '%s', '0')) = 0", sep, cond,
						 chfdw_raise_marker(CHFDW_RAISE_OVERFLOW));
		sep = " AND ";
	}
}

/*
 * " HAVING guard AND guard ..." over the float aggregates of a grouped
 * query's outputs (their overflow conditions, as in the values): HAVING
 * filters every group before ORDER BY and LIMIT, so an overflowing group
 * raises also where the query returns other groups only (ORDER BY
 * count(*) LIMIT 1: PostgreSQL computes every group's aggregates before it
 * sorts; the 26.5 engine computes output expressions after sorting and
 * LIMIT, query_plan_execute_functions_after_sorting). Used where all of
 * the query's HAVING is evaluated by PostgreSQL (grouping sets, the UNION
 * ALL path); a single table's or join's grouped query sends its HAVING
 * after them (chfdw_deparse_float_having).
 */
void
chfdw_deparse_float_guards(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel, Oid relid,
						   List *tlist)
{
	ShipCtx		cx = chfdw_ship_ctx(baserel, relid);
	List	   *aggs = NIL;

	cx.dp = dp;
	cx.allow_aggs = true;
	guards_walker((Node *) tlist, &aggs);
	write_guards(buf, &cx, aggs, " HAVING ");
}

/*
 * (floathaving) The HAVING of a grouped query over one table or a join
 * (chfdw.c's grouped_plan): the float aggregates' guards over the outputs
 * and over the sent clauses, then the clauses,
 *		HAVING guard AND guard ... AND (c1) AND (c2)
 * PostgreSQL computes every group's aggregates, raising for any group,
 * before HAVING filters (nodeAgg.c: the transition functions run over
 * every input row, the qual after each group's finalization), so a group
 * a clause drops must still raise: the guards come first, and ClickHouse
 * evaluates the first argument of AND for every row (26.5's short-circuit
 * evaluation skips only later arguments where an earlier one is false,
 * short_circuit_function_evaluation; 18.16 evaluates every argument),
 * and a guard is never false: it raises or is true. A clause compares the
 * value ClickHouse returns for that aggregate (one aggregate state per
 * distinct expression in a query: the same text in the SELECT list and
 * HAVING), the value PostgreSQL would compare over the returned groups,
 * with PostgreSQL's NaN ordering (shippable.c). Without guards: the
 * clauses alone (chfdw_deparse_having); an ungrouped query without
 * HAVING returns its one row, whose value raises.
 */
void
chfdw_deparse_float_having(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel, Oid relid,
						   List *tlist, List *having, bool grouped)
{
	ShipCtx		cx = chfdw_ship_ctx(baserel, relid);
	List	   *aggs = NIL;
	ListCell   *lc;

	cx.dp = dp;
	cx.allow_aggs = true;
	guards_walker((Node *) tlist, &aggs);
	guards_walker((Node *) having, &aggs);
	if (aggs == NIL || (!grouped && having == NIL))
	{
		chfdw_deparse_having(dp, buf, baserel, relid, having);
		return;
	}
	write_guards(buf, &cx, aggs, " HAVING ");
	foreach(lc, having)
	{
		appendStringInfoString(buf, " AND (");
		chfdw_deparse_cond(buf, &cx, (Node *) lfirst(lc), true, true);
		appendStringInfoChar(buf, ')');
	}
}

static bool
finished_regr_walker(Node *n, void *context)
{
	if (n == NULL)
		return false;
	if (IsA(n, Aggref) && chfdw_is_regr_agg((Aggref *) n))
		return true;
	return expression_tree_walker(n, finished_regr_walker, context);
}

/*
 * (floathaving) Must a grouped query's HAVING stay with PostgreSQL? With
 * corr, covar_*, regr_* (regr_avgx / regr_avgy too): PostgreSQL finishes
 * them (agg_regr.c, chfdw_regr_avg_split_finish) and raises their overflow
 * in the finish, so ClickHouse can neither compare their value nor raise
 * for a group HAVING drops. The float sum / avg / variance family are
 * ClickHouse's values with ClickHouse's guards: HAVING is sent
 * (chfdw_deparse_float_having).
 */
bool
chfdw_having_stays_local(Node *outputs, Node *having)
{
	return finished_regr_walker(outputs, NULL) || finished_regr_walker(having, NULL);
}

/*
 * (floathaving) Does a grouped query with float sums / averages /
 * variances fit ClickHouse's max_query_size? Each guarded aggregate is
 * some 1 to 4 KB of SQL (the flag, the easy / hard split and the replay,
 * written out again in its guard), so some 60 averages pass the default
 * 262144 bytes and ClickHouse refuses the text (SYNTAX_ERROR "Max query
 * size exceeded", 18.16 and 26.5, floathaving). The parts that grow with
 * the query are deparsed here as grouped_plan will (outputs, HAVING with
 * the guards, WHERE, GROUP BY keys, ORDER BY; the grouping sets' UNION
 * ALL whole), and a query above CHFDW_GROUPED_SQL_MAX bytes or
 * CHFDW_GROUPED_AST_MAX estimated AST nodes stays local.
 * Queries without those aggregates are not measured (true).
 */
#define CHFDW_GROUPED_SQL_MAX (262144 - 4096)
#define CHFDW_GROUPED_AST_MAX (50000 - 1000)

/*
 * An upper estimate of the AST nodes ClickHouse parses from sql (its
 * max_ast_elements, 50000 by default, is reached before max_query_size
 * by some 190 guarded sums: AST is too big, TOO_BIG_AST, on both
 * engines): one per identifier, number or string, per opening
 * parenthesis (a call's argument list) and per operator or comma
 * character (26.5's EXPLAIN AST counts 277 nodes for a guarded sum, 756
 * for an average; this counts 328 and 844).
 */
static int
ast_estimate(const char *s)
{
	int			n = 0;

	while (*s)
	{
		if (*s == '\'' || *s == '`')
		{
			char		q = *s++;

			while (*s && *s != q)
				s += (*s == '\\' && s[1]) ? 2 : 1;
			if (*s)
				s++;
			n++;
		}
		else if (isalnum((unsigned char) *s) || *s == '_' || *s == '.')
		{
			while (isalnum((unsigned char) *s) || *s == '_' || *s == '.')
				s++;
			n++;
		}
		else
		{
			if (strchr("(,=<>+-*/%", *s))
				n++;
			s++;
		}
	}
	return n;
}

bool
chfdw_float_sql_fits(PlannerInfo *root, RelOptInfo *input_rel, Oid relid, List *tlist,
					 List *having, List *group_exprs, bool grouping_sets, bool as_union,
					 List *pathkeys)
{
	ChFdwRelInfo *ifpinfo = (ChFdwRelInfo *) input_rel->fdw_private;
	List	   *aggs = NIL;
	List	   *conds;
	ChFdwDeparse dp;
	StringInfoData sql;
	ListCell   *lc;

	guards_walker((Node *) tlist, &aggs);
	guards_walker((Node *) having, &aggs);
	if (aggs == NIL)
		return true;
	chfdw_deparse_init(&dp, root);
	initStringInfo(&sql);
	conds = ifpinfo->is_join ? NIL : extract_actual_clauses(ifpinfo->remote_conds, false);
	if (as_union)
		chfdw_deparse_grouping_union(&dp, &sql, root, input_rel, relid, tlist, conds);
	else
	{
		foreach(lc, tlist)
		{
			int			fin;

			appendStringInfoString(&sql, ", ");
			chfdw_deparse_stage_output(&dp, &sql, input_rel, relid,
									   lfirst_node(TargetEntry, lc)->expr, grouping_sets, &fin);
		}
		if (ifpinfo->is_join)
			chfdw_deparse_join_from(&dp, &sql, input_rel);
		else
			chfdw_deparse_where(&dp, &sql, input_rel, relid, conds);
		foreach(lc, group_exprs)
		{
			appendStringInfoString(&sql, ", ");
			chfdw_deparse_grouping_expr(&dp, &sql, input_rel, relid, lfirst(lc));
		}
		chfdw_deparse_float_having(&dp, &sql, input_rel, relid, tlist, having,
								   group_exprs != NIL || grouping_sets);
		if (pathkeys)
			chfdw_deparse_grouped_order_by(&dp, &sql, input_rel, relid, pathkeys, tlist,
										   grouping_sets);
	}
	return sql.len <= CHFDW_GROUPED_SQL_MAX && ast_estimate(sql.data) <= CHFDW_GROUPED_AST_MAX;
}

/*
 * regr_avgx / regr_avgy on servers without arrayFold (18.16).
 * float8_regr_accum (float.c) raises 22003 where finite inputs make Sx,
 * Sxx, Sy, Syy or Sxy infinite, so a sum over a count is not its answer.
 * As for avg: where every |X| and |Y| is at most 1e130 no order
 * overflows (the bound argument of the header, Sxy <= sqrt(Sxx * Syy)),
 * so the pairs split into easy ones, added first, whose state ClickHouse
 * computes (countIf, sumIf, varPopIf * N, covarPopIf * N: ClickHouse's
 * rounding of the sums, accepted as for avg), and the others (huge,
 * infinite or NaN, rare), which travel to PostgreSQL in ClickHouse's
 * order (groupArrayIf, empty for ordinary data) and are added by
 * float8_regr_accum itself, then the aggregate's own final function:
 * PostgreSQL's answer and error for that order, its NaN and infinity
 * rules included. The text: "h" then N/Sx/Sxx/Sy/Syy/Sxy as the decimal
 * UInt64 of each Float64's bits (reinterpretAsString: 18.16 reinterprets
 * no Float64 as an integer directly), then "/" and the hard pairs
 * "Y:X,Y:X..." the same way.
 *
 * chfdw_two_arg_agg_ok: a plain call of two arguments arg_ok takes, its
 * FILTER one ClickHouse computes (also agg_regr.c's check).
 */
bool
chfdw_two_arg_agg_ok(ShipCtx *cx, Aggref *agg, bool (*arg_ok) (ShipCtx *, Node *))
{
	ListCell   *lc;

	if (agg->aggkind != AGGKIND_NORMAL || agg->aggvariadic || agg->aggsplit != AGGSPLIT_SIMPLE ||
		agg->agglevelsup != 0 || agg->aggdistinct != NIL || agg->aggorder != NIL ||
		list_length(agg->args) != 2)
		return false;
	if (agg->aggfilter && !chfdw_expr_shippable(cx, (Node *) agg->aggfilter))
		return false;
	foreach(lc, agg->args)
		if (!arg_ok(cx, (Node *) lfirst_node(TargetEntry, lc)->expr))
			return false;
	return true;
}

/* toString(reinterpretAsUInt64(reinterpretAsString(v))): v's bits */
static char *
bits(const char *v)
{
	return psprintf("toString(reinterpretAsUInt64(reinterpretAsString(toFloat64(%s))))", v);
}

void
chfdw_deparse_regr_avg_split(StringInfo buf, ShipCtx *cx, Aggref *agg, Node *y, Node *x)
{
	StringInfoData yv;
	StringInfoData xv;
	char	   *both;
	char	   *easy;
	char	   *hard;
	char	   *n;
	char	   *fa = filter_and(cx, agg);

	initStringInfo(&yv);
	initStringInfo(&xv);
	appendStringInfoString(&yv, "toFloat64(assumeNotNull(");
	chfdw_deparse_value(&yv, cx, y);
	appendStringInfoString(&yv, "))");
	appendStringInfoString(&xv, "toFloat64(assumeNotNull(");
	chfdw_deparse_value(&xv, cx, x);
	appendStringInfoString(&xv, "))");
	{
		StringInfoData nn;

		initStringInfo(&nn);
		appendStringInfoString(&nn, "isNotNull(");
		chfdw_deparse_value(&nn, cx, y);
		appendStringInfoString(&nn, ") AND isNotNull(");
		chfdw_deparse_value(&nn, cx, x);
		appendStringInfoChar(&nn, ')');
		both = nn.data;
	}
	easy = psprintf("%s AND abs(%s) <= " EASY_BOUND " AND abs(%s) <= " EASY_BOUND "%s",
					both, yv.data, xv.data, fa);
	hard = psprintf("%s AND NOT (abs(%s) <= " EASY_BOUND " AND abs(%s) <= " EASY_BOUND ")%s",
					both, yv.data, xv.data, fa);
	n = psprintf("toFloat64(countIf(%s))", easy);
	appendStringInfo(buf, "concat('h', %s, '/', %s, '/', ", bits(n),
					 bits(psprintf("sumIf(%s, %s)", xv.data, easy)));
	appendStringInfo(buf, "%s, '/', ",
					 bits(psprintf("if(%s = 0, 0., varPopIf(%s, %s) * %s)", n, xv.data, easy, n)));
	appendStringInfo(buf, "%s, '/', ", bits(psprintf("sumIf(%s, %s)", yv.data, easy)));
	appendStringInfo(buf, "%s, '/', ",
					 bits(psprintf("if(%s = 0, 0., varPopIf(%s, %s) * %s)", n, yv.data, easy, n)));
	appendStringInfo(buf, "%s, '/', ",
					 bits(psprintf("if(%s = 0, 0., covarPopIf(%s, %s, %s) * %s)", n, xv.data,
								   yv.data, easy, n)));
	appendStringInfo(buf, "arrayStringConcat(arrayMap(chfdw_t -> concat(%s, ':', %s), "
					 "groupArrayIf(tuple(%s, %s), %s)), ','))",
					 bits("tupleElement(chfdw_t, 1)"), bits("tupleElement(chfdw_t, 2)"),
					 yv.data, xv.data, hard);
}

static void
bad_split(Datum value)
{
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
			 errmsg("unexpected value \"%s\" for a regression aggregate from ClickHouse",
					TextDatumGetCString(value))));
}

/* one float8 from the decimal of its bits, *s moved past it and its separator */
static float8
split_float(const char **s, char sep, Datum value)
{
	char	   *end;
	uint64		b;
	float8		f;

	if (!isdigit((unsigned char) **s))
		bad_split(value);
	errno = 0;
	b = strtou64(*s, &end, 10);
	if (errno != 0 || end == *s || *end != sep)
		bad_split(value);
	memcpy(&f, &b, sizeof(f));
	*s = end + (sep != '\0');
	return f;
}

/*
 * The state of the easy pairs, float8_regr_accum over the hard pairs in
 * order (its overflow error and NaN rules), then final (float8_regr_avgx
 * or float8_regr_avgy).
 */
Datum
chfdw_regr_avg_split_finish(const char *s, PGFunction final, bool *isnull, Datum value)
{
	Datum		elems[6];
	ArrayType  *arr;
	Datum		result;
	int			k;

	LOCAL_FCINFO(fcinfo, 1);

	for (k = 0; k < 6; k++)
		elems[k] = Float8GetDatum(split_float(&s, '/', value));
	arr = construct_array(elems, 6, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE);
	while (*s)
	{
		float8		y = split_float(&s, ':', value);
		const char *comma = strchr(s, ',');
		float8		x = split_float(&s, comma ? ',' : '\0', value);

		arr = DatumGetArrayTypeP(DirectFunctionCall3(float8_regr_accum, PointerGetDatum(arr),
													 Float8GetDatum(y), Float8GetDatum(x)));
	}
	InitFunctionCallInfoData(*fcinfo, NULL, 1, InvalidOid, NULL, NULL);
	fcinfo->args[0].value = PointerGetDatum(arr);
	fcinfo->args[0].isnull = false;
	result = final(fcinfo);
	*isnull = fcinfo->isnull;
	return result;
}
