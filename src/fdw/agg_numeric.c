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
 *	  - "64": |r| <= 2^63 or r < 2^64: Int64, UInt32, (numagg2) UInt64,
 *		Decimal64;
 *	  - "128": |r| <= 2^127 or r < 2^128: Int128, (numagg2) UInt128,
 *		Decimal128, on servers with Decimal256 (caps.decimal256);
 *	  - (numagg2) "limbs": Decimal128 where there is no Decimal256 (18.16),
 *		Int256, UInt256, Decimal256: avg and the variance family from the
 *		sums of r's 32-bit limbs and of their products (deparse_limbs);
 *		(numagg3) the sum too, from the sums of the limbs (it can pass
 *		every ClickHouse type: 2^255, 2^127 on 18.16), recombined and
 *		scaled by PostgreSQL (finish.c, CHFDW_FINISH_NUM_SUM) in the
 *		grouped query's outputs only: a value PostgreSQL finishes is no
 *		value for ClickHouse's HAVING, ORDER BY or a window (see "Limb
 *		sums" below);
 *	  others (floats and strings, which ClickHouse does not sum as numeric)
 *	  stay local. ClickHouse's sum of a Decimal adds in the result's integer
 *	  without an overflow check, so every sum is widened first: over fewer
 *	  than 2^63 rows (ClickHouse reads about 10^9 rows a second: 2^63 take
 *	  three centuries) the sum of "32" and "64" values is below 2^127
 *	  (Decimal128), of "128" values below 2^191 (Decimal256).
 *
 *	  The server's capabilities come with its connection; when it cannot be
 *	  made at plan time the aggregate is computed here (has_decimal256).
 *
 *	  The answer's display scale is PostgreSQL's: a value read from a
 *	  Decimal(P, S) has scale S (convert.c), so sum has scale S, which is
 *	  what ClickHouse's Decimal(38 or 76, S) sum has when read; avg divides
 *	  the exact sum (scale S) by the count with numeric_div, as numeric_avg;
 *	  the variance family replays numeric_stddev_internal from the count,
 *	  the sum (scale S) and the sum of squares (scale 2S) (finish.c). The
 *	  squares: "32" values' squares (< 2^62) are summed in Decimal128; "64"
 *	  and "128" values are split, r = h * 2^K + l (K = 32 or 64, intDiv and
 *	  modulo, both with r's sign; of an unsigned type, of the unsigned r),
 *	  and h*h, h*l, l*l summed (Decimal128 for K = 32, Decimal256 for
 *	  K = 64), as bigint's variance is (aggregates.c).
 *
 *	  The pieces travel as text "W/S/K/N/sum[/sumsq | /hh/hl/ll]": W the
 *	  bytes of each sum (16 or 32), S the column's scale, K as above (0: one
 *	  sum of squares; 100 + L: L limbs, deparse_limbs), N the count, each
 *	  sum the hex of its little-endian bytes (reinterpretAsString; 18.16's
 *	  toString of a Decimal128 from about 10^20 up writes NUL bytes for
 *	  digits).
 *
 * src/fdw/agg_numeric.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "storage/proc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

#include "chfdw.h"
#include "shippable.h"

#include "ch_type.h"

/* How a numeric column's raw integer is bounded, or NUM_LOCAL */
typedef enum NumClass
{
	NUM_LOCAL,
	NUM_32,
	NUM_64,
	NUM_128,
	NUM_LIMBS					/* (numagg2) avg, variance family in limbs */
} NumClass;

typedef struct NumCol
{
	NumClass	cls;
	int			kind;			/* ch_type_kind */
	int			scale;			/* S */
	int			limbs;			/* NUM_LIMBS: 32-bit limbs of r (4 or 8) */
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
		case CH_T_INT256:
		case CH_T_UINT256:
			return 78;
		default:
			return 39;
	}
}

/*
 * Has the server of foreign table relid Decimal256 (caps.decimal256)? The
 * capabilities come with the connection (chfdw_caps), which may have to be
 * made again here (a changed user mapping, another role) while the server
 * cannot be reached: planning must not fail for that (README "Problems and
 * limitations": a server that cannot be asked plans as declared), so the
 * connection is made in a subtransaction whose error is dropped, except a
 * cancel or a termination (remote.c's chfdw_try_remote); *known is
 * then false (the aggregate is computed here; the scan itself reports the
 * connection's error when it runs). A failure is remembered for the rest
 * of the transaction, so each plan does not wait for the server again.
 */
static Oid	failed_umid = InvalidOid;
static LocalTransactionId failed_lxid = InvalidLocalTransactionId;

static void
ask_decimal256(void *arg)
{
	UserMapping *user = ((void **) arg)[0];

	*(bool *) ((void **) arg)[1] = chfdw_caps(chfdw_get_connection(user))->decimal256;
}

static bool
has_decimal256(Oid relid, Oid userid, bool *known)
{
	ForeignTable *ft = GetForeignTable(relid);
	UserMapping *user = GetUserMapping(userid, ft->serverid);
	bool		d256 = false;
	void	   *arg[2] = {user, &d256};

	*known = false;
	/* no subtransaction in parallel mode (xact.c): computed here */
	if ((failed_umid == user->umid && failed_lxid == MyProc->lxid) || IsInParallelMode())
		return false;
	*known = chfdw_try_remote(ask_decimal256, arg);
	if (!*known)
	{
		failed_umid = user->umid;
		failed_lxid = MyProc->lxid;
	}
	return d256;
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
	NumCol		c = {NUM_LOCAL, 0, 0, 0};
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
		case CH_T_UINT64:
			c.cls = NUM_64;
			break;
		case CH_T_INT128:
		case CH_T_UINT128:
			c.cls = NUM_128;
			break;
		case CH_T_INT256:
		case CH_T_UINT256:
			c.cls = NUM_LIMBS;
			c.limbs = 8;
			break;
		case CH_T_DECIMAL:
			c.cls = precision <= 9 ? NUM_32 : precision <= 18 ? NUM_64 :
				precision <= 38 ? NUM_128 : NUM_LIMBS;
			c.limbs = precision <= 38 ? 4 : 8;
			break;
		default:
			c.cls = NUM_LOCAL;
	}
	if (c.cls == NUM_128)
	{
		bool		known;
		bool		d256 = has_decimal256(relid, userid, &known);

		/* (numagg2) no Decimal256: limbs (4 of the 16 bytes) */
		c.cls = !known ? NUM_LOCAL : d256 ? NUM_128 : NUM_LIMBS;
		c.limbs = 4;
	}
	return c;
}

/*
 * (numagg3) Limb sums. Whether PostgreSQL finishes an output is
 * chfdw_agg_finish's answer from the Aggref alone (its callers across the
 * planner hold no relation), but whether a numeric sum travels in limbs
 * depends on its column's ClickHouse type. So every numeric sum this
 * planning sends is recorded with its form (the Aggref, compared with
 * equal(), and whether in limbs), and chfdw_agg_finish asks the record
 * (chfdw_numagg_finish_kind). The first form recorded for an Aggref holds
 * for the statement: an equal Aggref whose column needs the other form
 * (the same Var numbers over another table, in another subquery) is
 * computed by PostgreSQL, never finished the wrong way. The record lives
 * in a context under TopTransactionContext and is forgotten (freed) at
 * the next statement
 * (another statement start time, or another transaction: planning runs
 * within one statement).
 *
 * A limb sum is accepted only as an output of a grouped query over one
 * foreign table (chfdw_numagg_output_shippable, from aggregates.c's
 * chfdw_is_shippable_grouping_expr, sets limb_sum_ok); everywhere else
 * chfdw_aggref_shippable answers false for it: a HAVING clause or an
 * ORDER BY over it is evaluated by PostgreSQL from the returned value
 * (chfdw_agg_finish is not NONE), a window's sum stays local.
 */
typedef struct SumForm
{
	Aggref	   *agg;			/* a copy, in sum_forms_cxt */
	bool		limbs;
} SumForm;

static List *sum_forms = NIL;
static MemoryContext sum_forms_cxt = NULL;	/* under TopTransactionContext */
static LocalTransactionId sum_forms_lxid = InvalidLocalTransactionId;
static TimestampTz sum_forms_stmt = 0;
static bool limb_sum_ok = false;

/* the record of this statement (forgotten at another statement) */
static List **
sum_form_list(void)
{
	if (sum_forms_lxid != MyProc->lxid || sum_forms_stmt != GetCurrentStatementStartTimestamp())
	{
		/* another transaction's context went with its TopTransactionContext */
		if (sum_forms_cxt && sum_forms_lxid == MyProc->lxid)
			MemoryContextDelete(sum_forms_cxt);
		sum_forms_cxt = NULL;
		sum_forms = NIL;
		sum_forms_lxid = MyProc->lxid;
		sum_forms_stmt = GetCurrentStatementStartTimestamp();
	}
	return &sum_forms;
}

/* -1: not recorded; 0: a plain sum; 1: in limbs */
static int
sum_form(Aggref *agg)
{
	ListCell   *lc;

	foreach(lc, *sum_form_list())
	{
		SumForm    *f = (SumForm *) lfirst(lc);

		if (equal(f->agg, agg))
			return f->limbs ? 1 : 0;
	}
	return -1;
}

static void
record_sum_form(Aggref *agg, bool limbs)
{
	List	  **l = sum_form_list();
	MemoryContext old;
	SumForm    *f;

	if (!sum_forms_cxt)
		sum_forms_cxt = AllocSetContextCreate(TopTransactionContext, "clickhouse_fdw sum forms",
											  ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(sum_forms_cxt);
	f = palloc(sizeof(SumForm));

	f->agg = copyObject(agg);
	f->limbs = limbs;
	*l = lappend(*l, f);
	MemoryContextSwitchTo(old);
}

/*
 * sum / avg / the variance family of a numeric column: exact on this
 * column's ClickHouse type (see the header)?
 */
bool
chfdw_numagg_shippable(ShipCtx *cx, Aggref *agg, Node *arg)
{
	NumClass	cls;
	int			form;

	if (agg->aggdistinct != NIL)
		return false;
	cls = numeric_column(cx, arg).cls;
	if (cls == NUM_LOCAL || strcmp(get_func_name(agg->aggfnoid), "sum") != 0)
		return cls != NUM_LOCAL;
	/* (numagg3) a sum in limbs: a grouped output only (above) */
	if (cls == NUM_LIMBS && !limb_sum_ok)
		return false;
	form = sum_form(agg);
	if (form >= 0)
		return form == (cls == NUM_LIMBS);
	record_sum_form(agg, cls == NUM_LIMBS);
	return true;
}

/*
 * (numagg3) An aggregate as an output of a grouped query over foreign table
 * relid: chfdw_aggref_shippable, where a numeric sum may travel in limbs
 * (over a join or a UNION ALL's member, InvalidOid, it may not: their
 * outputs' finish kinds are asked of other Aggrefs).
 */
bool
chfdw_numagg_output_shippable(ShipCtx *cx, Aggref *agg)
{
	bool		ok;
	bool		save = limb_sum_ok;

	if (!OidIsValid(cx->relid))
		return chfdw_aggref_shippable(cx, agg);
	/* (a FILTER's correlated subquery asks again, nested: restored) */
	limb_sum_ok = true;
	PG_TRY();
	{
		ok = chfdw_aggref_shippable(cx, agg);
	}
	PG_FINALLY();
	{
		limb_sum_ok = save;
	}
	PG_END_TRY();
	return ok;
}

/*
 * (numagg3) chfdw_agg_finish of sum(numeric): CHFDW_FINISH_NUM_SUM when
 * this statement sends it in limbs (above), else CHFDW_FINISH_NONE.
 */
int
chfdw_numagg_finish_kind(Aggref *agg)
{
	return sum_form(agg) == 1 ? CHFDW_FINISH_NUM_SUM : CHFDW_FINISH_NONE;
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

/*
 * (numagg2) avg / the variance family in limbs: "16/S/K/N/s_0/../s_{L-1}
 * [/p_00/p_01/../p_{L-1,L-1}]", K = 100 + L (finish.c). The limbs are
 * read from r's little-endian bytes (reinterpretAsString; its trailing zero
 * bytes dropped, which reinterpretAsUInt32 reads as zeros): t_i unsigned,
 * the last one signed for a signed type, so r = sum of t_i * 2^(32 i)
 * (two's complement). |t_i| <= 2^32: over fewer than 2^63 rows a limb's sum
 * is below 2^95 and a product's (below 2^64) below 2^127, so Decimal128
 * (every server) never wraps.
 */
static void
deparse_limbs(StringInfo buf, ShipCtx *cx, Aggref *agg, Node *arg, NumCol c, bool avg,
			  const char *x)
{
	bool		u = c.kind == CH_T_UINT128 || c.kind == CH_T_UINT256;
	StringInfoData *t = palloc(sizeof(StringInfoData) * c.limbs);
	StringInfoData e;
	int			i;
	int			j;

	for (i = 0; i < c.limbs; i++)
	{
		initStringInfo(&t[i]);
		appendStringInfo(&t[i], "toDecimal128(reinterpretAs%sInt32(substring(reinterpretAsString(%s), %d, 4)), 0)",
						 (i < c.limbs - 1 || u) ? "U" : "", x, 4 * i + 1);
	}
	if (avg)
		chfdw_agg_null_below(buf, cx, agg, arg, 1);
	appendStringInfo(buf, "concat('16/%d/%d/', toString(", c.scale, 100 + c.limbs);
	chfdw_agg_call(buf, cx, agg, "count", "", arg, "");
	appendStringInfoChar(buf, ')');
	for (i = 0; i < c.limbs; i++)
		hex_sum(buf, cx, agg, t[i].data);
	initStringInfo(&e);
	if (!avg)
		for (i = 0; i < c.limbs; i++)
			for (j = i; j < c.limbs; j++)
			{
				resetStringInfo(&e);
				appendStringInfo(&e, "%s * %s", t[i].data, t[j].data);
				hex_sum(buf, cx, agg, e.data);
			}
	appendStringInfoChar(buf, ')');
	if (avg)
		appendStringInfoChar(buf, ')');
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
	/* (numagg3) planned in limbs (finished by PostgreSQL): never another form */
	if (c.cls != NUM_LIMBS && strcmp(name, "sum") == 0 && sum_form(agg) == 1)
		elog(ERROR, "clickhouse_fdw: a numeric sum planned in limbs is no longer one");
	if (c.cls == NUM_LIMBS)
	{
		/*
		 * (numagg3) a sum: the count and the limbs' sums, as avg's
		 * ("16/S/K/N/s_0/.."); PostgreSQL finishes it only if this
		 * statement recorded it in limbs (chfdw_agg_finish)
		 */
		if (strcmp(name, "sum") == 0 && sum_form(agg) != 1)
			elog(ERROR, "clickhouse_fdw: a numeric sum in limbs was not planned as one");
		deparse_limbs(buf, cx, agg, arg, c, chfdw_variance_function(name) == NULL, x.data);
		return;
	}
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
		bool		u = c.kind == CH_T_UINT64 || c.kind == CH_T_UINT128;
		char		two_k[48];

		/* unsigned: r, h and l of the unsigned type, never wrapped to negative */
		snprintf(two_k, sizeof(two_k), k == 32 ? "to%sInt64(4294967296)" :
				 "to%sInt128('18446744073709551616')", u ? "U" : "");
		initStringInfo(&r);
		if (c.kind == CH_T_DECIMAL)
			appendStringInfo(&r, "reinterpretAsInt%d(reinterpretAsString(%s))", k * 2, x.data);
		else
			appendStringInfo(&r, "to%sInt%d(%s)", u ? "U" : "", k * 2, x.data);
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
