/*-------------------------------------------------------------------------
 * agg_numeric.c
 *	  sum, avg and the variance family (stddev, stddev_samp, stddev_pop,
 *	  variance, var_samp, var_pop) of numeric columns, computed by
 *	  ClickHouse exactly and finished by PostgreSQL's numeric code.
 *
 *	  Only the ClickHouse type of the column decides whether ClickHouse can
 *	  sum it exactly, so the planner asks system.columns (remote.c, once per
 *	  table per session, chfdw_column_numeric_type). Its raw integer r (the
 *	  Decimal's value times 10^S, or the integer) is bounded by the storage:
 *	  - "32": |r| <= 2^31: Int8/16/32, UInt8/16, Decimal32;
 *	  - "64": |r| <= 2^63: Int64, UInt32, Decimal64;
 *	  - "128": |r| <= 2^127 (or < 2^64): Int128, UInt64, Decimal128, only on
 *		servers with Decimal256 (caps.decimal256);
 *	  others (UInt128, 256-bit integers, Decimal256, whose sums could wrap
 *	  even in Decimal256; floats and strings, which ClickHouse does not sum
 *	  as numeric) stay local. ClickHouse's sum of a Decimal adds in the
 *	  result's integer without an overflow check, so every sum is widened
 *	  first: over at most 2^64 rows the sum of "32" and "64" values is below
 *	  2^127 (Decimal128), of "128" values below 2^192 (Decimal256).
 *
 *	  The answer's display scale is PostgreSQL's: a value read from a
 *	  Decimal(P, S) has scale S (convert.c), so sum has scale S, which is
 *	  what ClickHouse's Decimal(38 or 76, S) sum has when read; avg divides
 *	  the exact sum (scale S) by the count with numeric_div, as numeric_avg;
 *	  the variance family replays numeric_stddev_internal from the count,
 *	  the sum (scale S) and the sum of squares (scale 2S) (finish.c). The
 *	  squares: "32" values' squares (< 2^62) are summed in Decimal128; "64"
 *	  and "128" values are split, r = h * 2^K + l (K = 32 or 64, intDiv and
 *	  modulo, both with r's sign), and h*h, h*l, l*l summed (Decimal128 for
 *	  K = 32, Decimal256 for K = 64), as bigint's variance is (aggregates.c).
 *
 *	  The pieces travel as text "W/S/K/N/sum[/sumsq | /hh/hl/ll]": W the
 *	  bytes of each sum (16 or 32), S the column's scale, K as above (0: one
 *	  sum of squares), N the count, each sum the hex of its little-endian
 *	  bytes (reinterpretAsString; 18.16's toString of a Decimal128 from about
 *	  10^20 up writes NUL bytes for digits).
 *
 * src/fdw/agg_numeric.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "utils/lsyscache.h"

#include "chfdw.h"
#include "shippable.h"

#include "ch_type.h"

/* How a numeric column's raw integer is bounded, or NUM_LOCAL */
typedef enum NumClass
{
	NUM_LOCAL,
	NUM_32,
	NUM_64,
	NUM_128
} NumClass;

typedef struct NumCol
{
	NumClass	cls;
	int			kind;			/* ch_type_kind */
	int			scale;			/* S */
} NumCol;

/* decimal digits of the largest value of an integer kind (typmod check) */
static int
int_digits(int kind)
{
	switch (kind)
	{
		case CH_T_INT8:
		case CH_T_UINT8:
			return 3;
		case CH_T_INT16:
		case CH_T_UINT16:
			return 5;
		case CH_T_INT32:
		case CH_T_UINT32:
			return 10;
		case CH_T_INT64:
			return 19;
		case CH_T_UINT64:
			return 20;
		default:
			return 39;
	}
}

static bool
has_decimal256(Oid relid, Oid userid)
{
	ForeignTable *ft = GetForeignTable(relid);

	return chfdw_caps(chfdw_get_connection(GetUserMapping(userid, ft->serverid)))->decimal256;
}

/*
 * The class of the numeric column arg (a Var of the relation), from its
 * ClickHouse type; NUM_LOCAL when unknown or not exact. A declared typmod
 * (IMPORT declares numeric(P, S)) rounds and checks each value read: only
 * one of the remote scale whose precision holds every value (a Decimal's
 * own precision, an integer's largest value) reads the values unchanged.
 */
static NumCol
numeric_column(ShipCtx *cx, Node *arg)
{
	NumCol		c = {NUM_LOCAL, 0, 0};
	Var		   *v = (Var *) chfdw_strip_relabel(arg);
	Oid			relid;
	Oid			userid;
	int			precision;

	if (!chfdw_is_our_var(cx, (Node *) v) || v->vartype != NUMERICOID)
		return c;
	relid = chfdw_var_relid(cx, v);
	if (!OidIsValid(relid))
		return c;
	userid = cx->baserel && OidIsValid(cx->baserel->userid) ? cx->baserel->userid : GetUserId();
	if (!chfdw_column_numeric_type(relid, v->varattno, userid, &c.kind, &precision, &c.scale))
		return c;
	if (c.kind != CH_T_DECIMAL)
		precision = int_digits(c.kind);
	if (v->vartypmod >= 0)
	{
		int32		tm = v->vartypmod - VARHDRSZ;

		if (((tm >> 16) & 0xffff) < precision || (tm & 0x7ff) != c.scale)
			return c;
	}
	switch (c.kind)
	{
		case CH_T_INT8:
		case CH_T_INT16:
		case CH_T_INT32:
		case CH_T_UINT8:
		case CH_T_UINT16:
			c.cls = NUM_32;
			break;
		case CH_T_INT64:
		case CH_T_UINT32:
			c.cls = NUM_64;
			break;
		case CH_T_INT128:
		case CH_T_UINT64:
			c.cls = NUM_128;
			break;
		case CH_T_DECIMAL:
			c.cls = precision <= 9 ? NUM_32 : precision <= 18 ? NUM_64 :
				precision <= 38 ? NUM_128 : NUM_LOCAL;
			break;
		default:
			c.cls = NUM_LOCAL;
	}
	if (c.cls == NUM_128 && !has_decimal256(relid, userid))
		c.cls = NUM_LOCAL;
	return c;
}

/*
 * sum / avg / the variance family of a numeric column: exact on this
 * column's ClickHouse type (see the header)?
 */
bool
chfdw_numagg_shippable(ShipCtx *cx, Aggref *agg, Node *arg)
{
	return agg->aggdistinct == NIL && numeric_column(cx, arg).cls != NUM_LOCAL;
}

/* "toDecimalW(expr, scale)" */
static void
widen(StringInfo buf, int w, const char *expr, int scale)
{
	appendStringInfo(buf, "toDecimal%d(%s, %d)", w == 32 ? 256 : 128, expr, scale);
}

/* hex(reinterpretAsString(sum(e))), FILTER as sumIf (over a window: OVER) */
static void
hex_sum(StringInfo buf, ShipCtx *cx, Aggref *agg, const char *e)
{
	appendStringInfoString(buf, ", '/', hex(reinterpretAsString(");
	chfdw_agg_call(buf, cx, agg, "sum", e, NULL, "");
	appendStringInfoString(buf, "))");
}

void
chfdw_deparse_numagg(StringInfo buf, ShipCtx *cx, Aggref *agg, Node *arg)
{
	NumCol		c = numeric_column(cx, arg);
	char	   *name = get_func_name(agg->aggfnoid);
	int			w = c.cls == NUM_128 ? 32 : 16;
	int			k = c.cls == NUM_32 ? 0 : c.cls == NUM_64 ? 32 : 64;
	StringInfoData x;
	StringInfoData wx;
	StringInfoData e;

	initStringInfo(&x);
	chfdw_deparse_value(&x, cx, arg);
	/* x widened with its scale kept: toDecimal128(x, S) */
	initStringInfo(&wx);
	widen(&wx, w, x.data, c.scale);
	if (strcmp(name, "sum") == 0)
	{
		/* the Decimal(38 or 76, S) sum itself; NULL over no rows */
		chfdw_agg_null_below(buf, cx, agg, arg, 1);
		chfdw_agg_call(buf, cx, agg, "sum", wx.data, NULL, "");
		appendStringInfoChar(buf, ')');
		return;
	}
	if (strcmp(name, "avg") == 0)
		chfdw_agg_null_below(buf, cx, agg, arg, 1);
	appendStringInfo(buf, "concat('%d/%d/%d/', toString(", w, c.scale,
					 strcmp(name, "avg") == 0 ? 0 : k);
	chfdw_agg_call(buf, cx, agg, "count", "", arg, "");
	appendStringInfoChar(buf, ')');
	hex_sum(buf, cx, agg, wx.data);
	initStringInfo(&e);
	if (strcmp(name, "avg") == 0)
		;
	else if (k == 0)
	{
		/* x * x at scale 2S, below 2^62 */
		appendStringInfo(&e, "%s * %s", wx.data, wx.data);
		hex_sum(buf, cx, agg, e.data);
	}
	else
	{
		/* the raw integer r, h = r / 2^K, l = r % 2^K (both with r's sign) */
		StringInfoData r;
		StringInfoData h;
		StringInfoData l;
		const char *two_k = k == 32 ? "toInt64(4294967296)" :
			"toInt128('18446744073709551616')";

		initStringInfo(&r);
		if (c.kind == CH_T_DECIMAL)
			appendStringInfo(&r, "reinterpretAsInt%d(reinterpretAsString(%s))", k * 2, x.data);
		else
			appendStringInfo(&r, "toInt%d(%s)", k * 2, x.data);
		initStringInfo(&h);
		initStringInfo(&l);
		appendStringInfo(&e, "intDiv(%s, %s)", r.data, two_k);
		widen(&h, w, e.data, 0);
		resetStringInfo(&e);
		appendStringInfo(&e, "modulo(%s, %s)", r.data, two_k);
		widen(&l, w, e.data, 0);
		resetStringInfo(&e);
		appendStringInfo(&e, "%s * %s", h.data, h.data);
		hex_sum(buf, cx, agg, e.data);
		resetStringInfo(&e);
		appendStringInfo(&e, "%s * %s", h.data, l.data);
		hex_sum(buf, cx, agg, e.data);
		resetStringInfo(&e);
		appendStringInfo(&e, "%s * %s", l.data, l.data);
		hex_sum(buf, cx, agg, e.data);
	}
	appendStringInfoChar(buf, ')');
	if (strcmp(name, "avg") == 0)
		appendStringInfoChar(buf, ')');
}
