/*-------------------------------------------------------------------------
 * agg_regr.c
 *	  corr, covar_pop, covar_samp, regr_sxx, regr_syy, regr_sxy,
 *	  regr_slope, regr_intercept and regr_r2 with PostgreSQL's own
 *	  arithmetic, on servers that have arrayFold (caps.array_fold).
 *
 *	  PostgreSQL computes them in float8 with the Youngs-Cramer update of
 *	  float8_regr_accum (src/backend/utils/adt/float.c), which rounds at
 *	  every row, so no ClickHouse aggregate gives its bits. ClickHouse
 *	  collects the group's (Y, X) pairs where both are not NULL (and FILTER
 *	  holds) with groupArrayIf, in the order it reads them, and replays
 *	  float8_regr_accum over them with arrayFold: the same IEEE-754 + - * /
 *	  in Float64, in the same order (each operation exactly rounded on both
 *	  sides, no fused multiply-add: ClickHouse computes every operation as
 *	  a function of its own), with its NaN and infinity rules. The state
 *	  (N, Sx, Sxx, Sy, Syy, Sxy) travels as the bits of each float8, and
 *	  PostgreSQL finishes it with the aggregate's own final function
 *	  (float8_corr, float8_covar_pop, ...). The answer is PostgreSQL's for
 *	  the rows in ClickHouse's order, an order a scan of PostgreSQL's could
 *	  have given too (its answer also depends on the row order).
 *
 *	  Overflow: float8_regr_accum raises "value out of range: overflow"
 *	  when finite inputs give an infinite sum. The fold keeps a seventh
 *	  element, set at such a row, and the finish raises PostgreSQL's error
 *	  for every group ClickHouse returns with it; HAVING is then evaluated
 *	  by PostgreSQL (chfdw_has_regr_agg), so a group a HAVING clause drops
 *	  still raises, as PostgreSQL computes every group's aggregates first.
 *
 * src/fdw/agg_regr.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_aggregate.h"
#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/fmgrprotos.h"
#include "utils/fmgroids.h"

#include "chfdw.h"
#include "pushdown_map.h"
#include "shippable.h"

/* The aggregates, by their index in the finish kind (CHFDW_FINISH_REGR + i) */
typedef struct RegrAgg
{
	Oid			aggfnoid;
	PGFunction	final;			/* PostgreSQL's final function */
} RegrAgg;

static const RegrAgg regr_aggs[] = {
	{F_CORR, float8_corr},
	{F_COVAR_POP, float8_covar_pop},
	{F_COVAR_SAMP, float8_covar_samp},
	{F_REGR_SXX, float8_regr_sxx},
	{F_REGR_SYY, float8_regr_syy},
	{F_REGR_SXY, float8_regr_sxy},
	{F_REGR_SLOPE, float8_regr_slope},
	{F_REGR_INTERCEPT, float8_regr_intercept},
	{F_REGR_R2, float8_regr_r2},
	/*
	 * (floatagg) regr_avgx / regr_avgy: float8_regr_accum raises where any
	 * of its five sums overflows, which a sum / count does not see; on
	 * servers without arrayFold they stay local
	 */
	{F_REGR_AVGX, float8_regr_avgx},
	{F_REGR_AVGY, float8_regr_avgy},
};

#define NREGR lengthof(regr_aggs)
#define NSTATE 7				/* N, Sx, Sxx, Sy, Syy, Sxy, overflowed */

/* The index of the aggregate in regr_aggs, or -1 */
static int
regr_index(Oid aggfnoid)
{
	int			i;

	for (i = 0; i < (int) NREGR; i++)
		if (regr_aggs[i].aggfnoid == aggfnoid)
			return i;
	return -1;
}

/* One of the nine (any form: the shippability is chfdw_regr_shippable's) */
bool
chfdw_is_regr_agg(Aggref *agg)
{
	return regr_index(agg->aggfnoid) >= 0;
}

/* CHFDW_FINISH_REGR + its index, or CHFDW_FINISH_NONE */
int
chfdw_regr_finish_kind(Aggref *agg)
{
	int			i = regr_index(agg->aggfnoid);

	return i < 0 ? CHFDW_FINISH_NONE : CHFDW_FINISH_REGR + i;
}

/*
 * A float8 argument (Y or X): any value the WHERE shipper sends, never a
 * raising form (ClickHouse computes it for the rows FILTER or the NULL
 * test leave out too). Integers and real come as PostgreSQL's float8()
 * casts, toFloat64 in ClickHouse: exact for smallint, integer and real,
 * and for bigint past 2^53 both round to nearest, ties to even (C's
 * int64 -> double conversion in i8tod, static_cast in ClickHouse's
 * conversion functions). numeric has no float8 cast sent (ClickHouse
 * divides a Decimal by its scale in Float64, which rounds twice).
 */
static bool
regr_arg_ok(ShipCtx *cx, Node *e)
{
	ShipCtx		inner = *cx;

	inner.may_raise = false;
	return exprType(e) == FLOAT8OID && !contain_volatile_functions(e) &&
		!contain_agg_clause(e) && !contain_window_function(e) &&
		!expression_returns_set(e) && chfdw_value_shippable(&inner, e);
}

bool
chfdw_regr_shippable(ShipCtx *cx, Aggref *agg)
{
	const ch_caps *caps = chfdw_ship_caps(cx);

	/*
	 * The arrayFold replay; without arrayFold, regr_avgx / regr_avgy by
	 * agg_float.c's split (floatagg), the others local.
	 */
	if (!caps || (!caps->array_fold && regr_index(agg->aggfnoid) < (int) NREGR - 2))
		return false;
	return chfdw_two_arg_agg_ok(cx, agg, regr_arg_ok);
}

/*
 * float8_regr_accum of one pair, as a ClickHouse lambda body over the state
 * s (a tuple of seven Float64) and the pair p = (Y, X). With N0, Sx0, ...
 * the state before the row:
 *	 N = N0 + 1; Sx = Sx0 + X; Sy = Sy0 + Y;
 *	 N0 > 0:  tmpX = X * N - Sx; tmpY = Y * N - Sy; scale = 1 / (N * N0);
 *			  Sxx = Sxx0 + tmpX * tmpX * scale (and Syy, Sxy alike);
 *			  overflow where finite inputs made a sum infinite (the three
 *			  conditions of float8_regr_accum); an infinite Sxx, Syy or Sxy
 *			  becomes NaN;
 *	 else:    Sxx = NaN if X is NaN or infinite, Syy if Y is, Sxy if
 *			  either, else they stay (0).
 * C evaluates a * b * c as (a * b) * c, which ClickHouse's multiply(...)
 * nesting repeats.
 */
static void
deparse_accum(StringInfo buf)
{
	const char *n = "(tupleElement(chfdw_s, 1) + 1.)";
	const char *x = "tupleElement(chfdw_p, 2)";
	const char *y = "tupleElement(chfdw_p, 1)";
	char	   *sx = psprintf("(tupleElement(chfdw_s, 2) + %s)", x);
	char	   *sy = psprintf("(tupleElement(chfdw_s, 4) + %s)", y);
	char	   *tx = psprintf("(%s * %s - %s)", x, n, sx);
	char	   *ty = psprintf("(%s * %s - %s)", y, n, sy);
	char	   *scale = psprintf("(1. / (%s * tupleElement(chfdw_s, 1)))", n);
	char	   *sxx = psprintf("(tupleElement(chfdw_s, 3) + %s * %s * %s)", tx, tx, scale);
	char	   *syy = psprintf("(tupleElement(chfdw_s, 5) + %s * %s * %s)", ty, ty, scale);
	char	   *sxy = psprintf("(tupleElement(chfdw_s, 6) + %s * %s * %s)", tx, ty, scale);
	char	   *xin = psprintf("NOT isInfinite(tupleElement(chfdw_s, 2)) AND NOT isInfinite(%s)", x);
	char	   *yin = psprintf("NOT isInfinite(tupleElement(chfdw_s, 4)) AND NOT isInfinite(%s)", y);

	appendStringInfo(buf, "if(tupleElement(chfdw_s, 1) > 0., tuple(%s, %s, "
					 "if(isInfinite(%s), nan, %s), %s, if(isInfinite(%s), nan, %s), "
					 "if(isInfinite(%s), nan, %s), ",
					 n, sx, sxx, sxx, sy, syy, syy, sxy, sxy);
	appendStringInfo(buf, "if(((isInfinite(%s) OR isInfinite(%s)) AND %s) OR "
					 "((isInfinite(%s) OR isInfinite(%s)) AND %s) OR "
					 "(isInfinite(%s) AND %s AND %s), 1., tupleElement(chfdw_s, 7))), ",
					 sx, sxx, xin, sy, syy, yin, sxy, xin, yin);
	appendStringInfo(buf, "tuple(%s, %s, if(NOT isFinite(%s), nan, tupleElement(chfdw_s, 3)), "
					 "%s, if(NOT isFinite(%s), nan, tupleElement(chfdw_s, 5)), "
					 "if(NOT isFinite(%s) OR NOT isFinite(%s), nan, tupleElement(chfdw_s, 6)), "
					 "tupleElement(chfdw_s, 7)))",
					 n, sx, x, sy, y, x, y);
}

/*
 * "bits/bits/.../bits": the seven Float64 of the folded state, each as the
 * decimal UInt64 of its bits (reinterpretAsUInt64), in state order
 * (tupleToNameValuePairs: 21.9).
 */
void
chfdw_deparse_regr(StringInfo buf, ShipCtx *cx, Aggref *agg)
{
	Node	   *y = (Node *) linitial_node(TargetEntry, agg->args)->expr;
	Node	   *x = (Node *) lsecond_node(TargetEntry, agg->args)->expr;
	const ch_caps *caps = chfdw_ship_caps(cx);

	/* (floatagg) regr_avgx / regr_avgy without arrayFold (agg_float.c) */
	if (caps && !caps->array_fold)
	{
		chfdw_deparse_regr_avg_split(buf, cx, agg, y, x);
		return;
	}
	appendStringInfoString(buf, "arrayStringConcat(arrayMap(chfdw_t -> "
						   "toString(reinterpretAsUInt64(tupleElement(chfdw_t, 2))), "
						   "tupleToNameValuePairs(arrayFold((chfdw_s, chfdw_p) -> ");
	deparse_accum(buf);
	appendStringInfoString(buf, ", groupArrayIf(tuple(toFloat64(assumeNotNull(");
	chfdw_deparse_value(buf, cx, y);
	appendStringInfoString(buf, ")), toFloat64(assumeNotNull(");
	chfdw_deparse_value(buf, cx, x);
	appendStringInfoString(buf, "))), isNotNull(");
	chfdw_deparse_value(buf, cx, y);
	appendStringInfoString(buf, ") AND isNotNull(");
	chfdw_deparse_value(buf, cx, x);
	appendStringInfoChar(buf, ')');
	if (agg->aggfilter)
	{
		appendStringInfoString(buf, " AND ");
		chfdw_deparse_cond(buf, cx, (Node *) agg->aggfilter, true, false);
	}
	appendStringInfoString(buf, "), tuple(0., 0., 0., 0., 0., 0., 0.)))), '/')");
}

static void
bad_state(Datum value)
{
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
			 errmsg("unexpected value \"%s\" for a regression aggregate from ClickHouse",
					TextDatumGetCString(value))));
}

/*
 * The aggregate's value from ClickHouse's text (chfdw_deparse_regr): the
 * state as a float8[6], PostgreSQL's overflow error where the fold set its
 * flag, then the aggregate's final function, whose NULL (too few rows, a
 * zero variance) is kept.
 */
Datum
chfdw_regr_finish(int kind, Datum value, bool *isnull)
{
	int			i = kind - CHFDW_FINISH_REGR;
	char	   *s = TextDatumGetCString(value);
	float8		st[NSTATE];
	Datum		elems[6];
	ArrayType  *arr;
	Datum		result;
	int			k;

	LOCAL_FCINFO(fcinfo, 1);

	if (i < 0 || i >= (int) NREGR)
		bad_state(value);
	/* (floatagg) the split form of regr_avgx / regr_avgy (agg_float.c) */
	if (*s == 'h')
		return chfdw_regr_avg_split_finish(s + 1, regr_aggs[i].final, isnull, value);
	for (k = 0; k < NSTATE; k++)
	{
		char	   *end;
		uint64		bits;

		if (!isdigit((unsigned char) *s))
			bad_state(value);
		errno = 0;
		bits = strtou64(s, &end, 10);
		if (errno != 0 || end == s || *end != (k < NSTATE - 1 ? '/' : '\0'))
			bad_state(value);
		memcpy(&st[k], &bits, sizeof(float8));
		s = end + (k < NSTATE - 1);
	}
	if (st[6] != 0)
		float_overflow_error();
	for (k = 0; k < 6; k++)
		elems[k] = Float8GetDatum(st[k]);
	arr = construct_array(elems, 6, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE);
	InitFunctionCallInfoData(*fcinfo, NULL, 1, InvalidOid, NULL, NULL);
	fcinfo->args[0].value = PointerGetDatum(arr);
	fcinfo->args[0].isnull = false;
	result = regr_aggs[i].final(fcinfo);
	*isnull = fcinfo->isnull;
	return result;
}

static bool
has_regr_walker(Node *n, void *context)
{
	if (n == NULL)
		return false;
	/* (floatagg) float sum / avg / variance family raise 22003 too (agg_float.c) */
	if (IsA(n, Aggref) && (chfdw_is_regr_agg((Aggref *) n) || chfdw_is_float_accum_agg((Aggref *) n)))
		return true;
	return expression_tree_walker(n, has_regr_walker, context);
}

/*
 * Does an expression (a grouped relation's outputs or HAVING) use one of
 * the nine? Then HAVING stays with PostgreSQL (chfdwGetForeignUpperPaths):
 * the overflow error of a group it drops must still be raised.
 */
bool
chfdw_has_regr_agg(Node *n)
{
	return has_regr_walker(n, NULL);
}
