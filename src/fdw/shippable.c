/*-------------------------------------------------------------------------
 * shippable.c
 *	  What can be evaluated by ClickHouse without changing the answer, and
 *	  its ClickHouse SQL: WHERE/HAVING conditions and values of one foreign
 *	  table (aggregates and ORDER BY: aggregates.c).
 *
 * One walker decides shippability (chfdw_is_shippable); only what it
 * accepts is deparsed. Accepted, for columns and constants of smallint,
 * integer, bigint, numeric, real/double precision (compared with a
 * constant), text/varchar, date, timestamptz, boolean and uuid: comparisons
 * (text ordering only under C or text_sorts_as_bytes; floats keep
 * PostgreSQL's NaN ordering: "x > c" is sent as "(x > c OR isNaN(x))"),
 * IS [NOT] DISTINCT FROM, LIKE/ILIKE/regex subsets, IS [NOT] NULL, IN/ANY/
 * ALL of constants, AND/OR/NOT, and the values of value_shippable (CASE,
 * COALESCE, GREATEST, and the functions and value operators of the
 * pushdown table, pushdown_map.c); run-time values (now(), parameters, outer columns of a
 * parameterized scan) are bound when the query starts (chfdw_bind_values).
 *
 * Three-valued logic: ClickHouse 18.16 gets NULL wrong inside OR and NOT
 * ("NULL OR 0" is 0, "NOT (NULL IN (1))" is 1). So a condition is deparsed
 * as "is it TRUE" (T) or "is it FALSE" (F), each strictly 0 or 1 below the
 * top level: T(a OR b) = T(a) OR T(b), F(a OR b) = F(a) AND F(b),
 * T(NOT a) = F(a), and an atom is guarded: T = if(any operand NULL, 0,
 * ifNull(a, 0)), F = if(any operand NULL, 0, ifNull(NOT a, 0)). At the top
 * of WHERE (and under a top-level AND) a plain atom is enough, since NULL
 * and 0 both drop the row there, and it keeps ClickHouse's primary-key
 * analysis working.
 *
 * Constants are deparsed exactly: integers as digits, numerics as
 * Decimal128, floats with the shortest exact digits, strings with backslash
 * escapes (control bytes as \xHH), dates as toDate('YYYY-MM-DD') (only
 * inside ClickHouse's Date range), timestamptz as toDateTime(epoch seconds)
 * (whole seconds inside DateTime's range; others are bound as run-time
 * values): nothing depends on DateStyle or TimeZone.
 *
 * Operators, pattern matches and IN lists: shippable_ops.c.
 *
 * src/fdw/shippable.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_collation.h"
#include "mb/pg_wchar.h"
#include "utils/syscache.h"

#include <math.h>

#include "access/htup_details.h"
#include "access/stratnum.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_am.h"
#include "commands/defrem.h"
#include "nodes/makefuncs.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "common/shortest_dec.h"
#include "executor/executor.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "optimizer/tlist.h"
#include "parser/parsetree.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/fmgroids.h"
#include "utils/datetime.h"
#include "mb/pg_wchar.h"
#include "pgtime.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
#include "utils/uuid.h"

#include "chfdw.h"
#include "shippable.h"
#include "pushdown_interval.h"
#include "pushdown_map.h"

#define UNIX_TO_PG_DAYS (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE)

ShipCtx
chfdw_ship_ctx(RelOptInfo *baserel, Oid relid)
{
	ShipCtx		cx;

	/* a join computed by ClickHouse: its columns by their aliases */
	if (baserel && baserel->fdw_private && ((ChFdwRelInfo *) baserel->fdw_private)->is_join)
		return chfdw_ship_ctx_join(((ChFdwRelInfo *) baserel->fdw_private)->root, baserel);

	cx.baserel = baserel;
	cx.relid = relid;
	cx.visible = baserel ? baserel->relids : NULL;
	cx.root = NULL;
	cx.qualify = false;
	cx.dp = NULL;
	cx.allow_aggs = false;
	cx.text_bytes = OidIsValid(relid) && chfdw_text_sorts_as_bytes(relid);
	cx.allow_outer = false;
	cx.may_raise = false;
	cx.key_args = NIL;
	return cx;
}

TypeClass
chfdw_type_class(Oid type)
{
	switch (type)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
			return TC_INT;
		case NUMERICOID:
			return TC_NUMERIC;
		case FLOAT4OID:
		case FLOAT8OID:
			return TC_FLOAT;
		case TEXTOID:
		case VARCHAROID:
			return TC_TEXT;
		case DATEOID:
			return TC_DATE;
		case TIMESTAMPTZOID:
			return TC_TIMESTAMPTZ;
		case BOOLOID:
			return TC_BOOL;
		case UUIDOID:
			return TC_UUID;
		default:
			return TC_NONE;
	}
}

bool
chfdw_numeric_family(TypeClass c)
{
	return c == TC_INT || c == TC_NUMERIC || c == TC_FLOAT;
}

Node *
chfdw_strip_relabel(Node *n)
{
	while (n && IsA(n, RelabelType))
		n = (Node *) ((RelabelType *) n)->arg;
	return n;
}

/* ---- constants ---- */

/*
 * A numeric constant ClickHouse can hold exactly: an integer literal within
 * Int64/UInt64 (*small), else Decimal128 (38 digits, the scale among them).
 * NaN and infinities are not sent.
 */
static bool
numeric_digits(const char *s, int *scale, bool *small)
{
	const char *p = s;
	const char *dot;
	int			digits = 0;

	if (*p == '-')
		p++;
	if (strspn(p, "0123456789.") != strlen(p) || *p == '\0')
		return false;
	dot = strchr(p, '.');
	for (; *p; p++)
		if (*p != '.')
			digits++;
	if (scale)
		*scale = dot ? (int) strlen(dot + 1) : 0;
	if (small)
	{
		/* integers up to 18 digits are Int64 in any case */
		*small = !dot && digits <= 18;
	}
	return digits <= 38;
}

/* Can this constant be written exactly in ClickHouse SQL? */
bool
chfdw_const_shippable(Const *c)
{
	if (c->constisnull)
		return false;
	switch (c->consttype)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case BOOLOID:
		case TEXTOID:
		case VARCHAROID:
		case UUIDOID:
			return true;
		case NUMERICOID:
			return numeric_digits(DatumGetCString(DirectFunctionCall1(numeric_out,
																	  c->constvalue)),
								  NULL, NULL);
		case FLOAT4OID:
		case FLOAT8OID:
			{
				double		v = c->consttype == FLOAT4OID ? DatumGetFloat4(c->constvalue) :
					DatumGetFloat8(c->constvalue);

				return !isnan(v);
			}
		case DATEOID:
			{
				DateADT		d = DatumGetDateADT(c->constvalue);

				return !DATE_NOT_FINITE(d) && d + UNIX_TO_PG_DAYS >= 0 &&
					d + UNIX_TO_PG_DAYS <= 65535;
			}
		case TIMESTAMPTZOID:
			{
				TimestampTz t = DatumGetTimestampTz(c->constvalue);
				int64		secs;

				if (TIMESTAMP_NOT_FINITE(t) || t % USECS_PER_SEC != 0)
					return false;
				secs = t / USECS_PER_SEC + (int64) UNIX_TO_PG_DAYS * SECS_PER_DAY;
				return secs >= 0 && secs <= (int64) 0xffffffff;
			}
		default:
			return false;
	}
}

/*
 * A float8 value as ClickHouse SQL that both engines read bit-exactly.
 *
 * ClickHouse reads a number from a string (toFloat64('...')) with its
 * "fast" parser, which adds the integer part, the scaled fraction and the
 * scaled exponent in separate roundings (src/IO/readFloatText.h,
 * readFloatTextFastImpl: "in rare cases result may differ"). Measured on
 * 18.16 and on the 26.5 engine: about one in five random doubles, and
 * short decimals such as '4.347', came back one bit off; a bare literal
 * in the query goes through another parser, which 18.16 refuses for
 * subnormals. The decimal form is kept only where every step of that
 * parser is exact: fixed notation (PostgreSQL's shortest output has no
 * exponent), at most 15 significant digits, and a decimal that is the
 * double itself (an integer, or M / 10^k with 5^k dividing M: a dyadic
 * fraction such as 0.25, 1.5, -100). Every other value travels as its
 * IEEE-754 bits, which reinterpretAsFloat64 of the little-endian bytes
 * gives back unchanged on every server (a constant expression, folded like
 * a literal). The suite `constants` checks both forms on thousands of
 * values.
 */
void
chfdw_deparse_float8(StringInfo buf, double f)
{
	char		tmp[DOUBLE_SHORTEST_DECIMAL_LEN];
	uint64		bits;
	uint64		mant = 0;
	int			digits = 0;
	int			frac = -1;
	bool		exact = true;
	const char *p;
	int			i;

	if (isinf(f))
	{
		appendStringInfoString(buf, f > 0 ? "inf" : "-inf");
		return;
	}
	double_to_shortest_decimal_buf(f, tmp);
	if (isnan(f))
	{
		appendStringInfo(buf, "toFloat64('%s')", tmp);
		return;
	}
	for (p = tmp; *p && exact; p++)
	{
		if (*p == '-' && p == tmp)
			continue;
		if (*p == '.' && frac < 0)
			frac = 0;
		else if (*p >= '0' && *p <= '9')
		{
			if (mant > 0 || *p != '0')
				digits++;
			mant = mant * 10 + (*p - '0');
			if (frac >= 0)
				frac++;
			exact = digits <= 15;
		}
		else
			exact = false;		/* an exponent */
	}
	if (exact && frac > 0)
	{
		uint64		five = 1;

		for (i = 0; i < frac && exact; i++)
		{
			exact = five <= PG_UINT64_MAX / 5;
			five *= 5;
		}
		exact = exact && mant % five == 0;
	}
	if (exact)
	{
		appendStringInfo(buf, "toFloat64('%s')", tmp);
		return;
	}
	memcpy(&bits, &f, sizeof(bits));
	appendStringInfoString(buf, "reinterpretAsFloat64(unhex('");
	for (i = 0; i < 8; i++)
		appendStringInfo(buf, "%02x", (unsigned int) ((bits >> (8 * i)) & 0xff));
	appendStringInfoString(buf, "'))");
}

/* DateTime64's range in seconds from 1970 (UTC): 1900-01-01 00:00:00 .. 2299-12-31 23:59:59 */
#define DATETIME64_MIN_EPOCH	INT64CONST(-2208988800)
#define DATETIME64_MAX_EPOCH	INT64CONST(10413791999)

/*
 * A value of a shippable type as ClickHouse SQL. At plan time (conn NULL)
 * the value passed chfdw_const_shippable(). When a run-time value is bound (conn
 * set), timestamps with microseconds or outside DateTime's range and dates
 * outside Date's range are written for that server: DateTime64/Date32 where
 * it has them; on older servers (whose columns are all DateTime: whole
 * seconds from 1970) a timestamp is compared as its exact epoch number.
 */
static void
deparse_datum(StringInfo buf, Oid type, Datum v, const ChFdwConn *conn)
{
	switch (type)
	{
		case INT2OID:
			appendStringInfo(buf, "%d", (int) DatumGetInt16(v));
			break;
		case INT4OID:
			appendStringInfo(buf, "%d", DatumGetInt32(v));
			break;
		case INT8OID:
			appendStringInfo(buf, INT64_FORMAT, DatumGetInt64(v));
			break;
		case NUMERICOID:
			{
				char	   *text = DatumGetCString(DirectFunctionCall1(numeric_out, v));
				int			scale;
				bool		small;

				if (!numeric_digits(text, &scale, &small))
					elog(ERROR, "numeric constant %s cannot be sent", text);
				/* a plain literal only where ClickHouse reads it as an integer */
				if (small)
					appendStringInfoString(buf, text);
				else
				{
					appendStringInfoString(buf, "toDecimal128(");
					chfdw_quote_literal(buf, text);
					appendStringInfo(buf, ", %d)", scale);
				}
				break;
			}
		case BOOLOID:
			appendStringInfoString(buf, DatumGetBool(v) ? "1" : "0");
			break;
		case FLOAT4OID:
		case FLOAT8OID:
			{
				chfdw_deparse_float8(buf, type == FLOAT4OID ? DatumGetFloat4(v) :
									 DatumGetFloat8(v));
				break;
			}
		case TEXTOID:
		case VARCHAROID:
			chfdw_quote_literal(buf, TextDatumGetCString(v));
			break;
		case DATEOID:
			{
				DateADT		d = DatumGetDateADT(v);
				int			y,
							m,
							dd;
				bool		in_range = !DATE_NOT_FINITE(d) && d + UNIX_TO_PG_DAYS >= 0 &&
					d + UNIX_TO_PG_DAYS <= 65535;

				bool		date32 = conn && conn->caps.date32;	/* probed by the caller */

				if (!DATE_NOT_FINITE(d))
					j2date(d + POSTGRES_EPOCH_JDATE, &y, &m, &dd);
				/* Date32: 1900-01-01 .. 2299-12-31 */
				if (!in_range && (DATE_NOT_FINITE(d) || !date32 || y < 1900 || y > 2299))
					ereport(ERROR,
							(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
							 errmsg("date value out of range for ClickHouse"),
							 errdetail("The value was computed when the query started (now(), current_date, a parameter)."),
							 errhint(date32 ? "ClickHouse's Date32 holds dates from 1900-01-01 to 2299-12-31." :
									 "ClickHouse's Date holds dates from 1970-01-01 to 2149-06-06.")));
				appendStringInfo(buf, in_range ? "toDate('%04d-%02d-%02d')" :
								 "toDate32('%04d-%02d-%02d')", y, m, dd);
				break;
			}
		case TIMESTAMPTZOID:
			{
				TimestampTz t = DatumGetTimestampTz(v);
				int64		usecs;
				int64		secs;
				int64		frac;
				struct pg_tm tm;
				fsec_t		fsec;

				if (TIMESTAMP_NOT_FINITE(t))
					ereport(ERROR,
							(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
							 errmsg("infinite timestamp cannot be sent to ClickHouse")));
				usecs = t + (int64) UNIX_TO_PG_DAYS * SECS_PER_DAY * USECS_PER_SEC;
				secs = usecs / USECS_PER_SEC;
				frac = usecs % USECS_PER_SEC;
				if (frac < 0)
				{
					secs--;
					frac += USECS_PER_SEC;
				}
				if (frac == 0 && secs >= 0 && secs <= (int64) 0xffffffff)
				{
					appendStringInfo(buf, "toDateTime(" INT64_FORMAT ")", secs);
					break;
				}
				Assert(conn != NULL);
				/*
				 * Outside DateTime64's range (1900-01-01 00:00:00 ..
				 * 2299-12-31 23:59:59.999999 UTC) toDateTime64 does not fail:
				 * it moves the date into the range and keeps the time of day
				 * ('1899-12-31 23:00:00' reads as 1900-01-01 23:00:00,
				 * '2400-01-01' as 2299-12-31 00:00:00), and `dt > '1850-01-01'`
				 * lost the rows of 1900-01-01 00:00:00. A run-time timestamp
				 * is only ever an operand of a comparison with a column
				 * (runtime_value, chfdw_value_shippable: not an UPDATE's SET,
				 * not a key join's key), and ClickHouse compares DateTime and
				 * DateTime64 of every scale with a Float64 by its seconds: a
				 * number one second beyond the range compares with every value
				 * a column holds as the timestamp does.
				 */
				if (conn->caps.datetime64 &&
					(secs < DATETIME64_MIN_EPOCH || secs > DATETIME64_MAX_EPOCH))
				{
					appendStringInfoString(buf, secs < DATETIME64_MIN_EPOCH ?
										   "-2208988801." : "10413792001.");
					break;
				}
				if (conn->caps.datetime64)
				{
					if (timestamp2tm(t, NULL, &tm, &fsec, NULL, NULL) != 0)
						ereport(ERROR,
								(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
								 errmsg("timestamp out of range")));
					appendStringInfo(buf, "toDateTime64('%04d-%02d-%02d %02d:%02d:%02d.%06d', 6, 'UTC')",
									 tm.tm_year, tm.tm_mon, tm.tm_mday, tm.tm_hour, tm.tm_min,
									 tm.tm_sec, (int) fsec);
				}
				else
					appendStringInfo(buf, INT64_FORMAT ".%06d", secs, (int) frac);
				break;
			}
		case UUIDOID:
			appendStringInfo(buf, "toUUID('%s')",
							 DatumGetCString(DirectFunctionCall1(uuid_out, v)));
			break;
		default:
			elog(ERROR, "unexpected constant type %u", type);
	}
}

/* A value as a ClickHouse literal, as run-time values are written (keyjoin.c's keys). */
void
chfdw_deparse_datum(StringInfo buf, Oid type, Datum v, const ChFdwConn *conn)
{
	deparse_datum(buf, type, v, conn);
}

void
chfdw_deparse_const(StringInfo buf, Const *c)
{
	deparse_datum(buf, c->consttype, c->constvalue, NULL);
}

/* ---- value expressions: columns, constants, a few safe operations ---- */

static bool
is_null_const(Node *n)
{
	n = chfdw_strip_relabel(n);
	return n && IsA(n, Const) && ((Const *) n)->constisnull;
}

bool
chfdw_is_our_var(ShipCtx *cx, Node *n)
{
	Var		   *v;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Var))
		return false;
	v = (Var *) n;
	/*
	 * A date column above a join's sub-SELECT: it may be a DateTime whose
	 * date is resolved per table when the query starts (see
	 * chfdw_deparse_date_column), which a join's SQL does not do.
	 */
	if (cx->qualify && v->vartype == DATEOID)
		return false;
	/*
	 * A column read through toString() compares differently in ClickHouse;
	 * so does one whose ClickHouse type is of another family (remote.c).
	 */
	return v->varlevelsup == 0 && v->varattno > 0 &&
		bms_is_member(v->varno, cx->visible) &&
		chfdw_type_class(v->vartype) != TC_NONE &&
		chfdw_column_read_as(chfdw_var_relid(cx, v), v->varattno) == 0 &&
		chfdw_column_computes_as_declared(chfdw_var_relid(cx, v), v->varattno, v->vartype,
										  cx->baserel ? cx->baserel->userid : InvalidOid);
}


bool
chfdw_is_const_node(Node *n)
{
	n = chfdw_strip_relabel(n);
	return n && IsA(n, Const);
}

/* The elements of a constant array value, with its element type's layout. */
void
chfdw_array_elems(Datum array, ChFdwArrayElems *out)
{
	ArrayType  *arr = DatumGetArrayTypeP(array);

	out->type = ARR_ELEMTYPE(arr);
	out->ndim = ARR_NDIM(arr);
	get_typlenbyvalalign(out->type, &out->len, &out->byval, &out->align);
	deconstruct_array(arr, out->type, out->len, out->byval, out->align,
					  &out->values, &out->nulls, &out->n);
}

/* Element i of chfdw_array_elems() as a Const (NULL where the element is). */
Const *
chfdw_array_elem_const(const ChFdwArrayElems *a, int i)
{
	return makeConst(a->type, -1, InvalidOid, a->len, a->values[i], a->nulls[i], a->byval);
}

/* (nanconst) Is this the constant NaN of real or double precision? */
bool
chfdw_nan_const(Node *n)
{
	Const	   *c;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Const) || ((Const *) n)->constisnull)
		return false;
	c = (Const *) n;
	if (c->consttype == FLOAT8OID)
		return isnan(DatumGetFloat8(c->constvalue));
	if (c->consttype == FLOAT4OID)
		return isnan(DatumGetFloat4(c->constvalue));
	return false;
}

/*
 * "x op NaN" of a float value x that is not NULL, by PostgreSQL's order (NaN
 * above every number and equal to itself): x = NaN and x >= NaN hold where
 * x is NaN, x <> NaN and x < NaN where it is not, x > NaN never, x <= NaN
 * always. ClickHouse's own comparisons with NaN are false but for != (IEEE).
 */
static void
deparse_nan_compare(StringInfo buf, ShipCtx *cx, Node *x, const char *name)
{
	if (strcmp(name, ">") == 0 || strcmp(name, "<=") == 0)
	{
		appendStringInfoString(buf, name[0] == '>' ? "0" : "1");
		return;
	}
	appendStringInfoString(buf, strcmp(name, "=") == 0 || strcmp(name, ">=") == 0 ?
						   "isNaN(" : "NOT isNaN(");
	chfdw_deparse_value(buf, cx, x);
	appendStringInfoChar(buf, ')');
}

/* A value operator of the pushdown table (pushdown_map.c). */
static bool
op_shippable(ShipCtx *cx, OpExpr *op)
{
	const ChFnRow *row = chfdw_op_row(op->opno);

	return row && (list_length(op->args) == 2 || list_length(op->args) == 1) &&
		chfdw_fn_row_ok(cx, row, op->args, op->inputcollid);
}

/*
 * CASE WHEN c THEN v ... [ELSE v] END (searched form) over shippable
 * conditions and values of one type class: multiIf().
 */
static bool
case_shippable(ShipCtx *cx, CaseExpr *ce)
{
	TypeClass	tc = chfdw_type_class(ce->casetype);
	ListCell   *lc;
	ShipCtx		later = *cx;

	later.may_raise = false;

	if (ce->arg || (tc != TC_INT && tc != TC_TEXT && tc != TC_DATE && tc != TC_TIMESTAMPTZ))
		return false;
	foreach(lc, ce->args)
	{
		CaseWhen   *w = lfirst_node(CaseWhen, lc);

		/* only the first condition is evaluated for every row */
		if (!chfdw_expr_shippable(foreach_current_index(lc) == 0 ? cx : &later,
								  (Node *) w->expr) ||
			!chfdw_value_shippable(&later, (Node *) w->result) ||
			chfdw_type_class(exprType((Node *) w->result)) != tc)
			return false;
	}
	if (ce->defresult && !is_null_const((Node *) ce->defresult) &&
		(!chfdw_value_shippable(&later, (Node *) ce->defresult) ||
		 chfdw_type_class(exprType((Node *) ce->defresult)) != tc))
		return false;
	return true;
}

/*
 * The session's TimeZone when date functions of timestamptz can be computed
 * by ClickHouse: only UTC (and its aliases). In any other zone a DateTime
 * near 1970 has a local time or a truncation before the epoch, which
 * ClickHouse cannot represent: 18.16 answered toYear(0, 'America/New_York')
 * = 1970 and toHour = 11, 26.5 clamps date_trunc('month') of 0 in
 * Europe/Berlin to 1970-01-02 (PostgreSQL: 1969, 19, 1969-12-31 23:00 UTC),
 * and DateTime's default value is that very 0. Written as 'UTC'.
 */
const char *
chfdw_session_zone(void)
{
	static const char *const utc[] = {
		"UTC", "Etc/UTC", "UCT", "Etc/UCT", "GMT", "Etc/GMT", "GMT0", "Etc/GMT0",
		"GMT+0", "Etc/GMT+0", "GMT-0", "Etc/GMT-0", "Greenwich", "Etc/Greenwich",
		"Universal", "Etc/Universal", "Zulu", "Etc/Zulu"
	};
	const char *tz = pg_get_timezone_name(session_timezone);
	int			i;

	if (!tz)
		return NULL;
	for (i = 0; i < (int) lengthof(utc); i++)
		if (strcmp(tz, utc[i]) == 0)
			return "UTC";
	return NULL;
}

/*
 * What the SQL deparsed with a context dp depends on: the zone written into
 * it (NULL: none) and its run-time values (see runtime_value()). A plan
 * keeps the zone (chfdw_plan_zone) and refuses to run under another
 * TimeZone (chfdw_check_plan_zone); its run-time values become the
 * ForeignScan's fdw_exprs, bound by chfdw_bind_values().
 */
void
chfdw_deparse_init(ChFdwDeparse *dp, PlannerInfo *root)
{
	memset(dp, 0, sizeof(*dp));
	dp->root = root;
}

Node *
chfdw_plan_zone(ChFdwDeparse *dp)
{
	return (Node *) makeString(pstrdup(dp->zone ? dp->zone : ""));
}

void
chfdw_check_plan_zone(Node *zone)
{
	const char *planned = strVal(zone);
	const char *now;

	if (planned[0] == '\0')
		return;
	now = chfdw_session_zone();
	if (!now || strcmp(now, planned) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("the remote query was planned for TimeZone \"%s\", but it is now \"%s\"",
						planned, pg_get_timezone_name(session_timezone)),
				 errdetail("Date functions of timestamptz values are computed by ClickHouse in the planned zone."),
				 errhint("Run DISCARD PLANS (or prepare the statement again) after changing TimeZone.")));
}

const char *
chfdw_const_text(Node *n)
{
	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Const) || ((Const *) n)->constisnull ||
		chfdw_type_class(((Const *) n)->consttype) != TC_TEXT)
		return NULL;
	return TextDatumGetCString(((Const *) n)->constvalue);
}

/* A built-in function of the pushdown table (pushdown_map.c). */
static const ChFnRow *
func_row(ShipCtx *cx, FuncExpr *f)
{
	const ChFnRow *row;

	if (f->funcretset || f->funcvariadic)
		return NULL;
	row = chfdw_fn_row(f->funcid);
	if (!row || !chfdw_fn_row_ok(cx, row, f->args, f->inputcollid))
		return NULL;
	return row;
}

void
chfdw_deparse_zone(StringInfo buf, ShipCtx *cx)
{
	const char *tz = chfdw_session_zone();

	Assert(cx->dp != NULL);
	cx->dp->zone = tz;
	appendStringInfoString(buf, ", ");
	chfdw_quote_literal(buf, tz);
}

/* ---- run-time values ---- */

/*
 * A value PostgreSQL computes once per execution, compared with a remote
 * value: now(), current_date, now() - interval '7 days', a parameter of a
 * prepared statement, an initplan's result; or a timestamptz constant that
 * plan-time SQL cannot write exactly (microseconds). The SQL carries a
 * marker, "\x01" n "\x01" or, as a comparison's operand, "\x01" n "c\x01"
 * (deparse_marker; no literal or identifier we write contains a control
 * byte: they are escaped), and the value is written in when the query
 * starts (chfdw_bind_values), in the form the server understands.
 */
/* computed once by PostgreSQL: nothing volatile, aggregated, windowed, a sub-plan or a set */
static bool
once_expr(Node *n)
{
	return !contain_volatile_functions(n) && !contain_agg_clause(n) &&
		!contain_window_function(n) && !contain_subplans(n) && !expression_returns_set(n);
}

static bool
runtime_expr(Node *n)
{
	return !contain_var_clause(n) && once_expr(n);
}

static bool
runtime_value(Node *n)
{
	TypeClass	tc;

	n = chfdw_strip_relabel(n);
	if (!n)
		return false;
	tc = chfdw_type_class(exprType(n));
	if (tc != TC_INT && tc != TC_TEXT && tc != TC_DATE && tc != TC_TIMESTAMPTZ &&
		tc != TC_BOOL && tc != TC_UUID)
		return false;
	if (IsA(n, Const))
	{
		Const	   *c = (Const *) n;

		return !c->constisnull && tc == TC_TIMESTAMPTZ && !chfdw_const_shippable(c) &&
			!TIMESTAMP_NOT_FINITE(DatumGetTimestampTz(c->constvalue));
	}
	return runtime_expr(n);
}

/*
 * (numparam) A numeric run-time value (not a constant): numconst.c sends it
 * only against an integer column, written when the query starts.
 */
bool
chfdw_numeric_runtime_value(Node *n)
{
	n = chfdw_strip_relabel(n);
	return n && !IsA(n, Const) && exprType(n) == NUMERICOID && runtime_expr(n);
}

/*
 * (floatparam) A double precision or real run-time value (a prepared
 * statement's parameter, an initplan's avg(), ...): only as an operand of
 * a comparison with a remote float value, which deparse_float_param_nan
 * writes for every value it may take, NaN included.
 */
bool
chfdw_float_param_value(ShipCtx *cx, Node *n)
{
	n = chfdw_strip_relabel(n);
	if (!n || IsA(n, Const) || chfdw_type_class(exprType(n)) != TC_FLOAT)
		return false;
	/*
	 * a parameterized scan (allow_outer): a value of the outer relations'
	 * columns only (f.amount > d.id, d.id::float8 of the outer row; the
	 * planner makes its Vars nestloop parameters of fdw_exprs)
	 */
	if (cx->allow_outer && cx->baserel && contain_var_clause(n))
	{
		List	   *vars;
		ListCell   *lc;

		if (!once_expr(n))
			return false;
		vars = pull_var_clause(n, PVC_INCLUDE_PLACEHOLDERS);
		foreach(lc, vars)
		{
			Var		   *v = (Var *) lfirst(lc);

			if (!IsA(v, Var) || v->varlevelsup != 0 ||
				bms_is_member(v->varno, cx->baserel->relids))
				return false;
		}
		return true;
	}
	return runtime_expr(n);
}

/*
 * A run-time value in this context: also, for a parameterized scan, a column
 * of another relation of the query (the outer side of a nested loop), of a
 * type the walker knows; the planner turns it into a parameter.
 */
bool
chfdw_param_value(ShipCtx *cx, Node *n)
{
	n = chfdw_strip_relabel(n);
	if (cx->allow_outer && n && IsA(n, Var))
	{
		Var		   *v = (Var *) n;

		return !bms_is_member(v->varno, cx->baserel->relids) && v->varlevelsup == 0 &&
			chfdw_type_class(v->vartype) != TC_NONE && chfdw_type_class(v->vartype) != TC_FLOAT &&
			chfdw_type_class(v->vartype) != TC_NUMERIC;
	}
	return runtime_value(n);
}

/*
 * The marker of a run-time value: "\x01" n "\x01", or "\x01" n "c\x01" when
 * the value is an operand of a comparison (= != < <= > >=). A comparison's
 * NULL operand is written as a value ClickHouse does not fold to a constant:
 * 18.16 folds "col = NULL" for its primary-key analysis and fails ("Cannot
 * compare long with DB::Null", code 169) where the comparison is NULL.
 * Elsewhere (IN lists, function arguments that must be constants, LIKE
 * patterns) NULL is the literal.
 */
static void
deparse_marker(StringInfo buf, ShipCtx *cx, Node *n, bool operand)
{
	Assert(cx->dp != NULL);
	appendStringInfo(buf, "\x01%d%s\x01", list_length(cx->dp->params), operand ? "c" : "");
	cx->dp->params = lappend(cx->dp->params, copyObject(chfdw_strip_relabel(n)));
}

/* Is this value written as a run-time value marker? */
static bool
is_marker(ShipCtx *cx, Node *n)
{
	n = chfdw_strip_relabel(n);
	return !IsA(n, Aggref) &&
		(chfdw_param_value(cx, n) || chfdw_float_param_value(cx, n) ||
		 chfdw_numeric_runtime_value(n)) &&	/* (numparam) in a NULL guard */
		!chfdw_value_shippable(cx, n);
}

/* A comparison's operand: a run-time value's marker says so. */
static void
deparse_operand(StringInfo buf, ShipCtx *cx, Node *n)
{
	if (is_marker(cx, n))
		deparse_marker(buf, cx, n, true);
	else
		chfdw_deparse_value(buf, cx, n);
}

/*
 * (tsfast) An Int64 operand of pushdown_interval.c's comparisons: a
 * run-time value's marker "\x01" n "ci\x01", whose NULL is bound as a
 * Nullable(Int64) that ClickHouse does not fold: 18.16 folds functions of
 * the untyped [NULL][...] (toInt64 of Nullable(Nothing) is a constant
 * NULL) and then fails against the sorting key (code 169)
 */
void
chfdw_deparse_int64_operand(StringInfo buf, ShipCtx *cx, Node *n)
{
	if (!is_marker(cx, n))
	{
		chfdw_deparse_value(buf, cx, n);
		return;
	}
	Assert(cx->dp != NULL);
	appendStringInfo(buf, "\x01%dci\x01", list_length(cx->dp->params));
	cx->dp->params = lappend(cx->dp->params, copyObject(chfdw_strip_relabel(n)));
}

/*
 * The SQL of a scan with its run-time values written in (exprs: the
 * ExprStates of its fdw_exprs, in marker order). NULL stays NULL but as a
 * comparison's operand (deparse_marker).
 */
char *
chfdw_bind_values(const char *sql, List *exprs, ExprContext *econtext, ChFdwConn *conn)
{
	StringInfoData buf;
	const char *p = sql;
	MemoryContext old;

	initStringInfo(&buf);
	while (*p)
	{
		const char *m = strchr(p, '\x01');
		const char *after;
		long		idx;
		bool		operand;
		ExprState  *es;
		Datum		v;
		bool		isnull;

		if (!m)
		{
			appendStringInfoString(&buf, p);
			break;
		}
		appendBinaryStringInfo(&buf, p, m - p);
		after = chfdw_parse_value_marker(m, &idx, &operand);
		if (idx >= list_length(exprs))
			elog(ERROR, "malformed run-time value marker in remote SQL");
		es = (ExprState *) list_nth(exprs, (int) idx);
		old = MemoryContextSwitchTo(econtext->ecxt_per_tuple_memory);
		v = ExecEvalExpr(es, econtext, &isnull);
		MemoryContextSwitchTo(old);
		if (isnull && operand && after[-2] == 'i')
			appendStringInfoString(&buf, "[toNullable(toInt64(0)), NULL][rand() % 1 + 2]");	/* (tsfast) */
		else if (isnull)
			appendStringInfoString(&buf, operand ? "[NULL][rand() % 1 + 1]" : "NULL");
		else if (exprType((Node *) es->expr) == NUMERICOID && chfdw_numparam_bind(&buf, m, v))
			;					/* (numparam) numconst.c */
		else if (!chfdw_dates5_bind_value(&buf, m, exprType((Node *) es->expr), v))
			deparse_datum(&buf, exprType((Node *) es->expr), v, conn);
		p = after;
	}
	return buf.data;
}

/* The SQL as EXPLAIN shows it: run-time values as $1, $2, ... */
char *
chfdw_explain_sql(const char *sql)
{
	StringInfoData buf;
	const char *p;

	if (!strchr(sql, '\x01') && !strchr(sql, '\x02') && !strchr(sql, '\x03'))
		return (char *) sql;
	initStringInfo(&buf);
	for (p = sql; *p; p++)
	{
		if (*p == '\x02')
		{
			/* a date column (chfdw_deparse_date_column): its name */
			const char *id = strchr(p, ':');
			const char *end = id ? strchr(id, '\x02') : NULL;

			if (!end)
				break;
			if (chfdw_explain_epoch(&buf, p, id, end))
			{
				p = end;		/* (dates18) a date part: its fallback's text */
				continue;
			}
			appendBinaryStringInfo(&buf, id + 1, end - id - 1);
			p = end;
			continue;
		}
		if (*p == '\x03')
		{
			/* a key join's key list (keyjoin.c) */
			appendStringInfoString(&buf, "($keys)");
			continue;
		}
		if (*p == '\x01')
		{
			long		idx;
			bool		operand;

			p = chfdw_parse_value_marker(p, &idx, &operand) - 1;
			appendStringInfo(&buf, "$%ld", idx + 1);
			continue;
		}
		appendStringInfoChar(&buf, *p);
	}
	return buf.data;
}

bool
chfdw_value_shippable(ShipCtx *cx, Node *n)
{
	char		name[NAMEDATALEN];
	ListCell   *lc;
	ShipCtx		later;

	n = chfdw_strip_relabel(n);
	if (!n || chfdw_interval_node(n))	/* (interval) pushdown_interval.c */
		return n && chfdw_interval_value_ok(cx, n);
	switch (nodeTag(n))
	{
		case T_Var:
			return chfdw_is_our_var(cx, n);
		case T_Const:
			return chfdw_type_class(((Const *) n)->consttype) != TC_NONE && chfdw_const_shippable((Const *) n);
		case T_CoalesceExpr:
			/* coalesce(): the first non-NULL argument, in both */
			if (chfdw_type_class(((CoalesceExpr *) n)->coalescetype) == TC_NONE)
				return false;
			later = *cx;
			later.may_raise = false;
			/* the arguments after the first are evaluated only when it is NULL */
			foreach(lc, ((CoalesceExpr *) n)->args)
				if (!chfdw_value_shippable(foreach_current_index(lc) == 0 ? cx : &later,
										   lfirst(lc)) || is_null_const(lfirst(lc)))
					return false;
			return true;
		case T_NullIfExpr:
			{
				NullIfExpr *ni = (NullIfExpr *) n;

				/* NaN = NaN is true in PostgreSQL only: no floats */
				if (list_length(ni->args) != 2 || chfdw_type_class(ni->opresulttype) == TC_NONE ||
					chfdw_type_class(exprType(linitial(ni->args))) == TC_FLOAT ||
					!chfdw_builtin_operator(ni->opno, name, sizeof(name)) || strcmp(name, "=") != 0)
					return false;
				return chfdw_value_shippable(cx, linitial(ni->args)) &&
					chfdw_value_shippable(cx, lsecond(ni->args)) &&
					chfdw_type_class(exprType(linitial(ni->args))) == chfdw_type_class(exprType(lsecond(ni->args)));
			}
		case T_OpExpr:
			return op_shippable(cx, (OpExpr *) n);
		case T_FuncExpr:
			return func_row(cx, (FuncExpr *) n) != NULL;
		case T_CoerceViaIO:
			{
				/* integer::text: the same digits in both */
				CoerceViaIO *io = (CoerceViaIO *) n;

				if (io->resulttype != TEXTOID)
					return chfdw_cast_text_ok(cx, io);	/* (casts) text::integer */
				return io->resulttype == TEXTOID &&
					chfdw_type_class(exprType((Node *) io->arg)) == TC_INT &&
					chfdw_value_shippable(cx, (Node *) io->arg);
			}
		case T_CaseExpr:
			return case_shippable(cx, (CaseExpr *) n);
		case T_SubscriptingRef:
			/* (regexp_match(s, p))[k] (pushdown_map.c, strfn) */
			return chfdw_match_item_ok(cx, n);
		case T_SubPlan:
			/* a correlated scalar subquery ClickHouse computes (subquery.c) */
			return chfdw_subplan_shippable(cx, (SubPlan *) n);
		case T_AlternativeSubPlan:
			/* (subq3) an EXISTS under OR (subquery.c) */
			return chfdw_altsubplan_shippable(cx, (AlternativeSubPlan *) n);
		case T_MinMaxExpr:
			{
				MinMaxExpr *mm = (MinMaxExpr *) n;
				TypeClass	tc = chfdw_type_class(mm->minmaxtype);

				/* text: collation; floats: NaN (greatest), at most 4 */
				if (tc != TC_INT && tc != TC_DATE && tc != TC_TIMESTAMPTZ && tc != TC_FLOAT)
					return false;
				if (tc == TC_FLOAT && list_length(mm->args) > 4)
					return false;
				foreach(lc, mm->args)
					if (!chfdw_value_shippable(cx, lfirst(lc)) || is_null_const(lfirst(lc)) ||
						chfdw_type_class(exprType(lfirst(lc))) != tc)
						return false;
				return true;
			}
		case T_Aggref:
			/* in HAVING only; an aggregate's arguments hold none */
			if (!cx->allow_aggs)
				return false;
			{
				ShipCtx		inner = *cx;

				inner.allow_aggs = false;
				return chfdw_aggref_shippable(&inner, (Aggref *) n) &&
					chfdw_agg_finish((Expr *) n) == CHFDW_FINISH_NONE;
			}
		default:
			return false;
	}
}

void
chfdw_deparse_value(StringInfo buf, ShipCtx *cx, Node *n)
{
	ListCell   *lc;
	bool		first = true;

	n = chfdw_strip_relabel(n);
	if (is_marker(cx, n))
	{
		deparse_marker(buf, cx, n, false);
		return;
	}
	if (chfdw_interval_deparse(buf, cx, n)) return;	/* (interval) pushdown_interval.c */
	switch (nodeTag(n))
	{
		case T_Var:
			if (chfdw_ts_key_column(cx, n))
				chfdw_deparse_ts_key(buf, cx, n);	/* (tskey) its wall time as a key */
			else if (chfdw_dt64_deparse_var(buf, cx, (Var *) n))
				;				/* (dt64) a DateTime64(7..9) as PostgreSQL reads it */
			else if (cx->qualify)
				chfdw_var_alias(buf, (Var *) n);
			else if (((Var *) n)->vartype == DATEOID)
				chfdw_deparse_date_column(buf, cx->relid, ((Var *) n)->varattno);
			else
				chfdw_quote_identifier(buf, chfdw_column_name(cx->relid, ((Var *) n)->varattno));
			break;
		case T_Const:
			chfdw_deparse_const(buf, (Const *) n);
			break;
		case T_CoalesceExpr:
			appendStringInfoString(buf, "coalesce(");
			foreach(lc, ((CoalesceExpr *) n)->args)
			{
				if (!first)
					appendStringInfoString(buf, ", ");
				chfdw_deparse_value(buf, cx, lfirst(lc));
				first = false;
			}
			appendStringInfoChar(buf, ')');
			break;
		case T_NullIfExpr:
			/* not nullIf(): 18.16's nullIf(14, NULL) is NULL, PostgreSQL's 14 */
			appendStringInfoString(buf, "if(ifNull((");
			chfdw_deparse_value(buf, cx, linitial(((NullIfExpr *) n)->args));
			appendStringInfoString(buf, ") = (");
			chfdw_deparse_value(buf, cx, lsecond(((NullIfExpr *) n)->args));
			appendStringInfoString(buf, "), 0), NULL, ");
			chfdw_deparse_value(buf, cx, linitial(((NullIfExpr *) n)->args));
			appendStringInfoChar(buf, ')');
			break;
		case T_FuncExpr:
			{
				FuncExpr   *f = (FuncExpr *) n;

				chfdw_fn_deparse(buf, cx, chfdw_fn_row(f->funcid), f->args);
				break;
			}
			break;
		case T_CoerceViaIO:
			if (((CoerceViaIO *) n)->resulttype != TEXTOID)
			{
				chfdw_deparse_cast_text(buf, cx, (CoerceViaIO *) n);	/* (casts) */
				break;
			}
			appendStringInfoString(buf, "toString(");
			chfdw_deparse_value(buf, cx, (Node *) ((CoerceViaIO *) n)->arg);
			appendStringInfoChar(buf, ')');
			break;
		case T_CaseExpr:
			{
				CaseExpr   *ce = (CaseExpr *) n;

				/* multiIf(c1, v1, c2, v2, ..., else): each condition 0 or 1 */
				appendStringInfoString(buf, "multiIf(");
				foreach(lc, ce->args)
				{
					CaseWhen   *w = lfirst_node(CaseWhen, lc);

					chfdw_deparse_cond(buf, cx, (Node *) w->expr, true, false);
					appendStringInfoString(buf, ", ");
					chfdw_deparse_value(buf, cx, (Node *) w->result);
					appendStringInfoString(buf, ", ");
				}
				if (ce->defresult && !is_null_const((Node *) ce->defresult))
					chfdw_deparse_value(buf, cx, (Node *) ce->defresult);
				else
					appendStringInfoString(buf, "NULL");
				appendStringInfoChar(buf, ')');
				break;
			}
		case T_MinMaxExpr:
			{
				MinMaxExpr *mm = (MinMaxExpr *) n;
				ListCell   *lc2;

				/*
				 * PostgreSQL skips NULLs (NULL only when all are); ClickHouse's
				 * greatest() is NULL when any is. Each argument is replaced by
				 * the first non-NULL one when NULL, which cannot change the
				 * result over the non-NULL ones.
				 */
				/* nested pairs: greatest() of 18.16 takes two arguments */
				bool		fl = chfdw_type_class(mm->minmaxtype) == TC_FLOAT;
				StringInfoData acc;

				initStringInfo(&acc);
				foreach(lc, mm->args)
				{
					StringInfoData one;
					char	   *prev;

					initStringInfo(&one);
					if (chfdw_is_const_node(lfirst(lc)))
						chfdw_deparse_value(&one, cx, lfirst(lc));
					else
					{
						appendStringInfoString(&one, "coalesce(");
						chfdw_deparse_value(&one, cx, lfirst(lc));
						foreach(lc2, mm->args)
						{
							if (lfirst(lc2) == lfirst(lc))
								continue;
							appendStringInfoString(&one, ", ");
							chfdw_deparse_value(&one, cx, lfirst(lc2));
						}
						appendStringInfoChar(&one, ')');
					}
					if (foreach_current_index(lc) == 0)
					{
						appendStringInfoString(&acc, one.data);
						continue;
					}
					prev = pstrdup(acc.data);
					resetStringInfo(&acc);
					/*
					 * PostgreSQL: NaN is greater than every number (greatest
					 * is NaN, least the other); ClickHouse's answer depends
					 * on the order of the arguments.
					 */
					if (fl && mm->op == IS_GREATEST)
						appendStringInfo(&acc, "if(isNaN(%s) OR isNaN(%s), nan, greatest(%s, %s))",
										 prev, one.data, prev, one.data);
					else if (fl)
						appendStringInfo(&acc, "if(isNaN(%s), %s, if(isNaN(%s), %s, least(%s, %s)))",
										 prev, one.data, one.data, prev, prev, one.data);
					else
						appendStringInfo(&acc, "%s(%s, %s)",
										 mm->op == IS_GREATEST ? "greatest" : "least",
										 prev, one.data);
				}
				appendStringInfoString(buf, acc.data);
				break;
			}
		case T_OpExpr:
			{
				OpExpr	   *op = (OpExpr *) n;

				chfdw_fn_deparse(buf, cx, chfdw_op_row(op->opno), op->args);
				break;
			}
		case T_SubscriptingRef:
			chfdw_deparse_match_item(buf, cx, n);
			break;
		case T_Aggref:
			chfdw_deparse_aggref(buf, cx, (Aggref *) n);
			break;
		case T_SubPlan:
			chfdw_deparse_subplan(buf, cx, (SubPlan *) n);
			break;
		case T_AlternativeSubPlan:
			chfdw_deparse_altsubplan(buf, cx, (AlternativeSubPlan *) n);
			break;
		default:
			elog(ERROR, "unexpected value expression %d", (int) nodeTag(n));
	}
}

/*
 * A condition written as another that PostgreSQL evaluates alike, or NULL:
 * x op ANY (ARRAY[e1, ..., en]) is (x op e1) OR ... OR (x op en) and
 * x op ALL (ARRAY[...]) the AND of them (the same three-valued answer:
 * true if one is true, NULL if none is and one is NULL; the elements are
 * evaluated first, so a raising one is refused by the OR/AND rule for
 * later operands); regexp_like(s, p) is s ~ p.
 */
static Node *
equivalent_cond(Node *n)
{
	if (IsA(n, ScalarArrayOpExpr))
	{
		ScalarArrayOpExpr *sa = (ScalarArrayOpExpr *) n;
		Node	   *r = list_length(sa->args) == 2 ? chfdw_strip_relabel(lsecond(sa->args)) : NULL;
		List	   *ops = NIL;
		ListCell   *lc;

		List	   *elements;

		if (r && IsA(r, Const) && !((Const *) r)->constisnull &&
			chfdw_type_class(get_element_type(((Const *) r)->consttype)) == TC_FLOAT)
		{
			/*
			 * (floatin) a constant array of floats: ClickHouse's IN keeps -0
			 * apart from 0 and NaN apart from NaN, the comparisons are
			 * PostgreSQL's (NaN equal to NaN)
			 */
			ChFdwArrayElems a;

			chfdw_array_elems(((Const *) r)->constvalue, &a);
			if (a.ndim != 1)
				return NULL;
			elements = NIL;
			for (int i = 0; i < a.n && a.n <= MAX_IN_LIST; i++)
				elements = lappend(elements, chfdw_array_elem_const(&a, i));
		}
		else if (!r || !IsA(r, ArrayExpr) || ((ArrayExpr *) r)->multidims)
			return NULL;
		else
			elements = ((ArrayExpr *) r)->elements;
		if (list_length(elements) == 0 || list_length(elements) > MAX_IN_LIST)
			return NULL;
		foreach(lc, elements)
		{
			OpExpr	   *op = (OpExpr *) make_opclause(sa->opno, BOOLOID, false,
													  (Expr *) linitial(sa->args),
													  (Expr *) lfirst(lc), InvalidOid,
													  sa->inputcollid);

			op->opfuncid = sa->opfuncid;
			ops = lappend(ops, op);
		}
		if (list_length(ops) == 1)
			return linitial(ops);
		return (Node *) (sa->useOr ? make_orclause(ops) : make_andclause(ops));
	}
	if (IsA(n, FuncExpr) && ((FuncExpr *) n)->funcid == F_REGEXP_LIKE_TEXT_TEXT)
	{
		FuncExpr   *f = (FuncExpr *) n;
		OpExpr	   *op = (OpExpr *) make_opclause(OID_TEXT_REGEXEQ_OP, BOOLOID, false,
												  (Expr *) linitial(f->args),
												  (Expr *) lsecond(f->args), InvalidOid,
												  f->inputcollid);

		op->opfuncid = F_TEXTREGEXEQ;
		return (Node *) op;
	}
	return NULL;
}

bool
chfdw_expr_shippable(ShipCtx *cx, Node *n)
{
	Node	   *eq;

	n = chfdw_strip_relabel(n);
	if (!n)
		return false;
	if ((eq = equivalent_cond(n)) != NULL)
		return chfdw_expr_shippable(cx, eq);
	switch (nodeTag(n))
	{
		case T_BoolExpr:
			{
				ListCell   *lc;
				ShipCtx		later = *cx;

				/* PostgreSQL stops at the first operand that decides */
				later.may_raise = false;
				foreach(lc, ((BoolExpr *) n)->args)
					if (!chfdw_expr_shippable(foreach_current_index(lc) == 0 ? cx : &later,
											  lfirst(lc)))
						return false;
				return true;
			}
		case T_NullTest:
			{
				NullTest   *nt = (NullTest *) n;

				Node	   *arg = chfdw_strip_relabel((Node *) nt->arg);

				/* regexp_match(s, p) IS [NOT] NULL (pushdown_map.c, strfn) */
				if (!nt->argisrow && chfdw_regexp_match_test_ok(cx, arg))
					return true;
				/* (subq4) of a boolean condition (shippable_distinct.c) */
				if (chfdw_is_condition_node(arg))
					return chfdw_bool_nulltest_shippable(cx, nt);
				/* a column, an expression, or in HAVING an aggregate */
				return !nt->argisrow && arg && !chfdw_is_const_node(arg) &&
					(chfdw_value_shippable(cx, arg) || chfdw_jsonb_nulltest_shippable(cx, arg));
			}
		case T_OpExpr:
			/* jsonb ? ?| ?& @>: boolean values (jsonb.c) */
			if (chfdw_jsonb_bool_op(n))
				return chfdw_value_shippable(cx, n);
			return chfdw_opexpr_shippable(cx, (OpExpr *) n);
		case T_DistinctExpr:
			/* (subq4) of boolean conditions (shippable_distinct.c) */
			if (chfdw_bool_distinct_applies((OpExpr *) n))
				return chfdw_bool_distinct_shippable(cx, (OpExpr *) n);
			/* IS DISTINCT FROM: as "=" for its operands; never NULL */
			return chfdw_opexpr_shippable(cx, (OpExpr *) n);
		case T_ScalarArrayOpExpr:
			return chfdw_saop_shippable(cx, (ScalarArrayOpExpr *) n);
		case T_Var:
			return chfdw_is_our_var(cx, n) && ((Var *) n)->vartype == BOOLOID;
		case T_FuncExpr:
			/* starts_with() */
			return exprType(n) == BOOLOID && chfdw_value_shippable(cx, n);
		case T_SubPlan:
		case T_AlternativeSubPlan:
			/* (subq3) EXISTS, IN, NOT IN sub-plans (subquery.c) */
			return exprType(n) == BOOLOID && chfdw_value_shippable(cx, n);
		default:
			return false;
	}
}

/*
 * Can clause (a boolean condition on baserel) be evaluated by ClickHouse
 * with PostgreSQL's result?
 */
static bool
clause_shippable(RelOptInfo *baserel, Oid relid, Expr *clause, bool allow_aggs,
				 bool allow_outer, bool may_raise)
{
	ShipCtx		cx = chfdw_ship_ctx(baserel, relid);

	cx.allow_aggs = allow_aggs;
	cx.allow_outer = allow_outer;
	cx.may_raise = may_raise && cx.root == NULL;
	if (contain_volatile_functions((Node *) clause))
		return false;
	return chfdw_expr_shippable(&cx, (Node *) clause);
}

bool
chfdw_is_shippable(PlannerInfo *root, RelOptInfo *baserel, Oid relid, Expr *clause)
{
	(void) root;

	/*
	 * Values that raise PostgreSQL's errors (CHFN_RAISES): only in the one
	 * condition of a scan, which PostgreSQL evaluates for every row as
	 * ClickHouse does (of two conditions PostgreSQL may skip the second
	 * for a row the first rejects), outside the operands PostgreSQL may
	 * skip (after the first of AND/OR/COALESCE, CASE branches); of a SELECT
	 * only (ClickHouse applies a mutation's condition in the background,
	 * where an error would not reach the statement). That condition itself:
	 * a join's ON condition on one side is evaluated for the pairs only.
	 * And only when the query wants every row (tuple_fraction 0): under
	 * LIMIT, in EXISTS or IN sub-plans and cursors PostgreSQL may stop
	 * before the row that raises, ClickHouse evaluates whole blocks.
	 */
	return clause_shippable(baserel, relid, clause, false, false,
							baserel && list_length(baserel->baserestrictinfo) == 1 &&
							linitial_node(RestrictInfo, baserel->baserestrictinfo)->clause == clause &&
							root && root->parse && root->parse->commandType == CMD_SELECT &&
							root->tuple_fraction == 0.0);
}

/* Does the scan's condition hold a value sent because it may raise? */
static bool
raising_cond(RelOptInfo *baserel, Oid relid)
{
	RestrictInfo *ri;

	if (!baserel || list_length(baserel->baserestrictinfo) != 1)
		return false;
	ri = linitial_node(RestrictInfo, baserel->baserestrictinfo);
	return clause_shippable(baserel, relid, ri->clause, false, false, true) &&
		!clause_shippable(baserel, relid, ri->clause, false, false, false);
}

/*
 * A join clause of baserel and other relations, evaluated by ClickHouse in
 * a parameterized scan: the other relations' columns are run-time values
 * (one remote query per outer row; each rescan binds the new values).
 */
bool
chfdw_is_shippable_join(RelOptInfo *baserel, Oid relid, Expr *clause)
{
	/* a join clause would filter the rows that condition raises for */
	if (raising_cond(baserel, relid))
		return false;
	return clause_shippable(baserel, relid, clause, false, true, false);
}

/* ---- deparsing conditions ---- */

/* "isNull(a) OR isNull(b)" for the operands of an atom */
static void
null_guard(StringInfo buf, ShipCtx *cx, List *args)
{
	ListCell   *lc;
	bool		first = true;

	foreach(lc, args)
	{
		Node	   *a = lfirst(lc);

		/* a strict operator's result is NULL when an operand is */
		if (chfdw_is_const_node(a))
			continue;
		appendStringInfoString(buf, first ? "" : " OR ");
		appendStringInfoString(buf, "isNull(");
		chfdw_deparse_value(buf, cx, a);
		appendStringInfoChar(buf, ')');
		first = false;
	}
	if (first)
		appendStringInfoChar(buf, '0');
}

/* Can this double precision value be NaN (a date part cannot)? */
static bool
may_be_nan(ShipCtx *cx, Node *n)
{
	const ChFnRow *row;

	(void) cx;
	n = chfdw_strip_relabel(n);
	if (chfdw_type_class(exprType(n)) != TC_FLOAT)
		return false;
	if (IsA(n, FuncExpr) && (row = chfdw_fn_row(((FuncExpr *) n)->funcid)) != NULL &&
		(row->guards & CHFN_NOT_NAN))
		return false;
	return true;
}

/*
 * (floatparam) "if(isNaN(p), <x op NaN>, " before a float column or value x
 * compared with a run-time float p (the caller writes "(x op p [OR
 * isNaN(x)]))", right for every p but NaN): PostgreSQL orders NaN above
 * every number and equal to itself, so x = NaN and x >= NaN hold where x is
 * NaN, x <> NaN and x < NaN where it is not, x > NaN never and x <= NaN
 * always (deparse_nan_compare; the operands' NULLs are the caller's guard).
 * p is known only when the query starts; ClickHouse folds isNaN of the
 * written-in constant.
 */
static int
deparse_float_param_nan(StringInfo buf, ShipCtx *cx, Node *x, Node *p, const char *name)
{
	int			idx = list_length(cx->dp->params);

	appendStringInfoString(buf, "if(isNaN(");
	deparse_marker(buf, cx, p, false);
	appendStringInfoString(buf, "), ");
	deparse_nan_compare(buf, cx, x, name);
	appendStringInfoString(buf, ", ");
	return idx;
}

/* The atom's value when its operands are not NULL. */
static void
deparse_atom(StringInfo buf, ShipCtx *cx, Node *n)
{
	if (IsA(n, OpExpr) || IsA(n, DistinctExpr))
	{
		OpExpr	   *op = (OpExpr *) n;
		char		name[NAMEDATALEN];
		Node	   *l = linitial(op->args);
		Node	   *r = lsecond(op->args);
		bool		nan_rule;
		int			param_idx = -1;

		chfdw_builtin_operator(op->opno, name, sizeof(name));
		if (chfdw_dates5_compare(buf, cx, op, name) || chfdw_interval_compare(buf, cx, op, name))
			return;				/* (dates5) a DateTime64(7..9) column */
		/* tochar: date_trunc against a constant (pushdown_dates.c) */
		if (IsA(n, OpExpr) && chfdw_date_trunc_compare_shippable(cx, op, name))
		{
			chfdw_deparse_date_trunc_compare(buf, cx, op, name);
			return;
		}
		if (strstr(name, "~~*") != NULL)
		{
			/* ILIKE under C: both sides lowered (ASCII), as PostgreSQL does */
			char	   *pat = pstrdup(chfdw_const_text(r));
			char	   *q;

			for (q = pat; *q; q++)
				*q = pg_ascii_tolower((unsigned char) *q);
			appendStringInfoString(buf, "(lower(");
			chfdw_deparse_value(buf, cx, l);
			appendStringInfoString(buf, name[0] == '!' ? ") NOT LIKE " : ") LIKE ");
			chfdw_quote_literal(buf, pat);
			appendStringInfoChar(buf, ')');
			return;
		}
		if (strcmp(name, "~") == 0 || strcmp(name, "!~") == 0)
		{
			appendStringInfoString(buf, name[0] == '!' ? "NOT match(" : "match(");
			chfdw_deparse_value(buf, cx, l);
			appendStringInfoString(buf, ", ");
			chfdw_quote_literal(buf, psprintf("(?s)%s", chfdw_const_text(r)));
			appendStringInfoChar(buf, ')');
			return;
		}
		if (strcmp(name, "~~") == 0 || strcmp(name, "!~~") == 0)
		{
			appendStringInfoChar(buf, '(');
			chfdw_deparse_value(buf, cx, l);
			appendStringInfoString(buf, name[0] == '!' ? " NOT LIKE " : " LIKE ");
			chfdw_deparse_value(buf, cx, r);
			appendStringInfoChar(buf, ')');
			return;
		}
		/*
		 * a float column compared with a constant or (floatparam) a
		 * run-time value: put the column left
		 */
		if (chfdw_is_const_node(l) || chfdw_float_param_value(cx, l))
		{
			Node	   *t = l;

			l = r;
			r = t;
			if (strcmp(name, "<") == 0)
				strcpy(name, ">");
			else if (strcmp(name, "<=") == 0)
				strcpy(name, ">=");
			else if (strcmp(name, ">") == 0)
				strcpy(name, "<");
			else if (strcmp(name, ">=") == 0)
				strcpy(name, "<=");
		}
		if (chfdw_nan_const(r))
		{
			deparse_nan_compare(buf, cx, l, name);	/* (nanconst) */
			return;
		}
		if (chfdw_numconst_compare(buf, cx, l, name, r))
			return;				/* (numconst) in the column's own type */
		if (IsA(n, OpExpr) && chfdw_numparam_compare(buf, cx, l, r, name))
			return;				/* (numparam) a numeric run-time value */
		nan_rule = may_be_nan(cx, l) && name[0] == '>';
		if (chfdw_float_param_value(cx, r))
			param_idx = deparse_float_param_nan(buf, cx, l, r, name);
		appendStringInfoChar(buf, '(');
		deparse_operand(buf, cx, l);
		appendStringInfo(buf, " %s ", strcmp(name, "<>") == 0 ? "!=" : name);
		if (param_idx >= 0)
			appendStringInfo(buf, "\x01%dc\x01", param_idx);	/* the same value: one $n */
		else
			deparse_operand(buf, cx, r);
		if (nan_rule)
		{
			/* PostgreSQL: NaN is greater than every number */
			appendStringInfoString(buf, " OR isNaN(");
			chfdw_deparse_value(buf, cx, l);
			appendStringInfoChar(buf, ')');
		}
		appendStringInfoChar(buf, ')');
		if (param_idx >= 0)
			appendStringInfoChar(buf, ')');
		return;
	}
	if (IsA(n, ScalarArrayOpExpr))
	{
		ScalarArrayOpExpr *sa = (ScalarArrayOpExpr *) n;
		Const	   *c = (Const *) chfdw_strip_relabel(lsecond(sa->args));
		ChFdwArrayElems a;

		chfdw_array_elems(c->constvalue, &a);
		if (chfdw_dates5_in_list(buf, cx, sa, a.values, a.nulls, a.n))
			return;				/* (dates5) a DateTime64(7..9) column */
		if (chfdw_numconst_in_list(buf, cx, sa, &a))
			return;				/* (numconst) in the column's own type */
		appendStringInfoChar(buf, '(');
		chfdw_deparse_value(buf, cx, linitial(sa->args));
		appendStringInfoString(buf, sa->useOr ? " IN (" : " NOT IN (");
		for (int i = 0; i < a.n; i++)
		{
			if (i > 0)
				appendStringInfoString(buf, ", ");
			chfdw_deparse_const(buf, chfdw_array_elem_const(&a, i));
		}
		appendStringInfoString(buf, "))");
		return;
	}
	elog(ERROR, "unexpected atom %d", (int) nodeTag(n));
}

static List *
atom_args(Node *n)
{
	if (IsA(n, OpExpr))
		return ((OpExpr *) n)->args;
	return ((ScalarArrayOpExpr *) n)->args;
}

void
chfdw_deparse_cond(StringInfo buf, ShipCtx *cx, Node *n, bool want_true, bool top)
{
	Node	   *eq;

	n = chfdw_strip_relabel(n);
	if ((eq = equivalent_cond(n)) != NULL)
	{
		chfdw_deparse_cond(buf, cx, eq, want_true, top);
		return;
	}
	switch (nodeTag(n))
	{
		case T_BoolExpr:
			{
				BoolExpr   *b = (BoolExpr *) n;
				ListCell   *lc;
				bool		first = true;
				const char *sep;
				bool		child_top;

				if (b->boolop == NOT_EXPR)
				{
					chfdw_deparse_cond(buf, cx, linitial(b->args), !want_true, false);
					return;
				}
				/* T(a AND b) = T(a) AND T(b); F(a AND b) = F(a) OR F(b) */
				sep = ((b->boolop == AND_EXPR) == want_true) ? " AND " : " OR ";
				child_top = top && want_true && b->boolop == AND_EXPR;
				appendStringInfoChar(buf, '(');
				foreach(lc, b->args)
				{
					if (!first)
						appendStringInfoString(buf, sep);
					chfdw_deparse_cond(buf, cx, lfirst(lc), want_true, child_top);
					first = false;
				}
				appendStringInfoChar(buf, ')');
				return;
			}
		case T_NullTest:
			{
				NullTest   *nt = (NullTest *) n;
				bool		is_null = (nt->nulltesttype == IS_NULL) == want_true;

				if (chfdw_regexp_match_test_ok(cx, (Node *) nt->arg))
				{
					chfdw_deparse_regexp_match_test(buf, cx, (Node *) nt->arg, is_null);
					return;
				}
				/* (subq4) of a boolean condition (shippable_distinct.c) */
				if (chfdw_is_condition_node((Node *) nt->arg))
				{
					chfdw_deparse_bool_nulltest(buf, cx, nt, is_null);
					return;
				}
				appendStringInfoString(buf, is_null ? "isNull(" : "isNotNull(");
				chfdw_deparse_value(buf, cx, (Node *) nt->arg);
				appendStringInfoChar(buf, ')');
				return;
			}
		case T_OpExpr:
			/* jsonb ? ?| ?& @>: boolean values (jsonb.c) */
			if (!chfdw_jsonb_bool_op(n))
				break;
			/* FALLTHROUGH */
		case T_Var:
		case T_FuncExpr:
		case T_SubPlan:			/* (subq3) EXISTS, IN sub-plans */
		case T_AlternativeSubPlan:
			if (top && want_true)
				chfdw_deparse_value(buf, cx, n);
			else
			{
				appendStringInfoString(buf, "if(isNull(");
				chfdw_deparse_value(buf, cx, n);
				appendStringInfoString(buf, "), 0, ifNull(");
				chfdw_deparse_value(buf, cx, n);
				appendStringInfoString(buf, want_true ? " != 0, 0))" : " = 0, 0))");
			}
			return;
		case T_DistinctExpr:
			{
				OpExpr	   *op = (OpExpr *) n;
				Node	   *l = linitial(op->args);
				Node	   *r = lsecond(op->args);

				/* (subq4) of boolean conditions (shippable_distinct.c) */
				if (chfdw_bool_distinct_applies(op))
				{
					chfdw_deparse_bool_distinct(buf, cx, op, want_true);
					return;
				}
				/* distinct: exactly one is NULL, or neither and they differ */
				appendStringInfoString(buf, want_true ? "if(" : "NOT if(");
				null_guard(buf, cx, op->args);
				appendStringInfoString(buf, ", ");
				if (chfdw_is_const_node(l) || chfdw_is_const_node(r))
					appendStringInfoChar(buf, '1');
				else
				{
					appendStringInfoString(buf, "isNull(");
					chfdw_deparse_value(buf, cx, l);
					appendStringInfoString(buf, ") != isNull(");
					chfdw_deparse_value(buf, cx, r);
					appendStringInfoChar(buf, ')');
				}
				appendStringInfoString(buf, ", ifNull(NOT ");
				deparse_atom(buf, cx, n);
				appendStringInfoString(buf, ", 0))");
				return;
			}
		default:
			break;
	}
	/* tochar: date_trunc against a constant is NULL only where date_trunc is */
	if (IsA(n, OpExpr))
	{
		char		name[NAMEDATALEN];

		if (chfdw_builtin_operator(((OpExpr *) n)->opno, name, sizeof(name)) &&
			chfdw_date_trunc_compare_shippable(cx, (OpExpr *) n, name))
		{
			appendStringInfoString(buf, want_true ? "ifNull(" : "ifNull(NOT ");
			deparse_atom(buf, cx, n);
			appendStringInfoString(buf, ", 0)");
			return;
		}
	}
	/* comparison, LIKE, IN */
	if (top && want_true && !(IsA(n, ScalarArrayOpExpr) && !((ScalarArrayOpExpr *) n)->useOr))
	{
		deparse_atom(buf, cx, n);
		return;
	}
	/*
	 * ifNull(..., 0): ClickHouse 18.16 fails with "Illegal columns Const(UInt8)
	 * and Const(Nullable(UInt8)) of ... function if" when the same atom is
	 * also a top-level condition (it folds the atom to a constant after
	 * filtering by it). A non-Nullable branch avoids that.
	 */
	appendStringInfoString(buf, "if(");
	/* (tscol) a timestamp comparison's operands are their microseconds */
	if (!(IsA(n, OpExpr) && chfdw_interval_null_guard(buf, cx, (OpExpr *) n)))
		null_guard(buf, cx, atom_args(n));
	appendStringInfoString(buf, want_true ? ", 0, ifNull(" : ", 0, ifNull(NOT ");
	deparse_atom(buf, cx, n);
	appendStringInfoString(buf, ", 0))");
}

/* " <keyword> c1 AND c2 ..." for shippable conditions (bare clauses). */
static void
deparse_conds(StringInfo buf, ShipCtx *cx, const char *keyword, List *conds)
{
	ListCell   *lc;
	bool		first = true;

	if (conds == NIL)
		return;
	appendStringInfo(buf, " %s ", keyword);
	foreach(lc, conds)
	{
		if (!first)
			appendStringInfoString(buf, " AND ");
		chfdw_deparse_cond(buf, cx, (Node *) lfirst(lc), true, true);
		first = false;
	}
}

void
chfdw_deparse_where(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel, Oid relid,
					List *conds)
{
	ShipCtx		cx = chfdw_ship_ctx(baserel, relid);

	cx.dp = dp;
	/* a parameterized scan's join clauses are among them */
	cx.allow_outer = true;

	deparse_conds(buf, &cx, "WHERE", conds);
}

/*
 * A condition over a join of foreign tables (in the WHERE above the join,
 * or on one side of it), its columns named by their aliases.
 */
bool
chfdw_is_shippable_rel(PlannerInfo *root, RelOptInfo *rel, Expr *clause)
{
	ShipCtx		cx = chfdw_ship_ctx_join(root, rel);

	if (contain_volatile_functions((Node *) clause))
		return false;
	return chfdw_expr_shippable(&cx, (Node *) clause);
}

void
chfdw_deparse_rel_conds(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *rel,
						const char *keyword, List *conds)
{
	ShipCtx		cx = chfdw_ship_ctx_join(dp->root, rel);

	cx.dp = dp;
	deparse_conds(buf, &cx, keyword, conds);
}

/*
 * HAVING: a condition on grouping columns and shippable aggregates, with
 * the same rules as WHERE (aggregates are values like columns).
 */
bool
chfdw_is_shippable_having(RelOptInfo *baserel, Oid relid, Expr *clause)
{
	return clause_shippable(baserel, relid, clause, true, false, false);
}

void
chfdw_deparse_having(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel, Oid relid,
					 List *conds)
{
	ShipCtx		cx = chfdw_ship_ctx(baserel, relid);

	cx.dp = dp;
	cx.allow_aggs = true;
	deparse_conds(buf, &cx, "HAVING", conds);
}

/* ---- values for UPDATE ... SET ---- */

/* A column of the table or an exactly representable constant. */
bool
chfdw_is_shippable_value(RelOptInfo *baserel, Oid relid, Expr *expr)
{
	ShipCtx		cx;

	cx = chfdw_ship_ctx(baserel, relid);
	/* SET col = NULL */
	if (IsA(chfdw_strip_relabel((Node *) expr), Const) &&
		((Const *) chfdw_strip_relabel((Node *) expr))->constisnull)
		return true;
	/*
	 * SET col = $1, current_date, ...: written in when the mutation starts.
	 * Not timestamps: ClickHouse would cut now()'s microseconds off to store
	 * them in a DateTime, where an INSERT refuses to.
	 */
	if (runtime_value((Node *) expr) && !IsA(chfdw_strip_relabel((Node *) expr), Const) &&
		chfdw_type_class(exprType((Node *) expr)) != TC_TIMESTAMPTZ)
		return true;
	return chfdw_value_shippable(&cx, (Node *) expr);
}

void
chfdw_deparse_value_expr(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *baserel, Oid relid,
						 Expr *expr)
{
	ShipCtx		cx;

	cx = chfdw_ship_ctx(baserel, relid);
	cx.dp = dp;
	if (IsA(chfdw_strip_relabel((Node *) expr), Const) &&
		((Const *) chfdw_strip_relabel((Node *) expr))->constisnull)
		appendStringInfoString(buf, "NULL");
	else
		chfdw_deparse_value(buf, &cx, (Node *) expr);
}
