/*-------------------------------------------------------------------------
 * pushdown_casts.c
 *	  Casts from text to smallint/integer/bigint, make_date() and date
 *	  +/- integer, computed by ClickHouse with PostgreSQL's answers and
 *	  raising PostgreSQL's errors (issue 17, casts).
 *
 * Each form raises where PostgreSQL does through the guards' marker
 * mechanism (pushdown_map.c, error.c): ClickHouse converts, for the
 * offending row only, a marker string of the FDW's to a number, which fails
 * quoting it. Where PostgreSQL's message quotes a value (the text that is
 * no integer, the fields of make_date), the value follows the marker in hex
 * (chfdw_raise_value_marker), and error.c writes PostgreSQL's message with
 * it. So these forms are sent only where raising is (ShipCtx.may_raise: a
 * scan's one condition, a grouping key of a query reading every group).
 *
 * Not sent: casts to numeric (an unconstrained numeric keeps the input's
 * display scale, which a Decimal column has not; numeric(p,s) accepts
 * 'NaN', which no Decimal holds) and to date (date_in reads every DateStyle
 * form, month names, 'epoch', 'today'...: a text that is no ISO date may
 * still be one); a local condition with such a cast gets a pre-filter
 * beside it (casts2: prefilter.c, whose nodes are computed below). See
 * README "What is sent".
 *
 * src/fdw/pushdown_casts.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "mb/pg_wchar.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "chfdw.h"
#include "prefilter.h"
#include "pushdown_map.h"
#include "pushdown_map_int.h"
#include "shippable.h"

static const char *
dv(ShipCtx *cx, Node *n)
{
	StringInfoData b;

	initStringInfo(&b);
	chfdw_deparse_value(&b, cx, n);
	return b.data;
}

static const char *
quoted(const char *s)
{
	StringInfoData b;

	initStringInfo(&b);
	chfdw_quote_literal(&b, s);
	return b.data;
}

/*
 * if(toInt8(multiIf(c1, m1, ...)) = 0, v, v): every row's guard is
 * evaluated (as pushdown_map.c's guarded_by); a NULL condition never
 * raises, as PostgreSQL's strict functions do not.
 */
static void
guarded_value(StringInfo buf, ShipCtx *cx, int n, const char **cond, const char **marker,
			  const char *value)
{
	Sub		   *v = chfdw_pm_sub(cx, value);
	int			i;

	appendStringInfoString(buf, "if(toInt8(multiIf(");
	for (i = 0; i < n; i++)
		appendStringInfo(buf, "ifNull(%s, 0), %s, ", cond[i], marker[i]);
	appendStringInfo(buf, "'0')) = 0, %s, ", chfdw_pm_use(v));
	appendStringInfo(buf, "%s)", chfdw_pm_use(v));
}

/*
 * concat('marker', hex of the value): a value of more than 400 bytes is cut
 * to its first 100 characters, so that the exception's text fits error.c's
 * ch_error message (1,024 bytes). Never NULL: the 26.5 engine converts a
 * Nullable(String) that is no number to NULL (toInt8 raises for a String
 * only), which would let the row through.
 */
static const char *
value_marker(ChFdwRaiseValue kind, Sub *text)
{
	const char *t1 = chfdw_pm_use(text);
	const char *t2 = chfdw_pm_use(text);

	return psprintf("ifNull(concat('%s', if(length(%s) > 400, concat(hex(substringUTF8(%s, 1, 100)), 'Z'), hex(%s))), '')",
					chfdw_raise_value_marker(kind), t1, t2, chfdw_pm_use(text));
}

/* ---- text -> smallint, integer, bigint ---- */

/*
 * The text being cast: a column of the scanned table whose ClickHouse type
 * is String or FixedString (under Nullable, LowCardinality), as the remote
 * catalog says (remote.c), so that ClickHouse's bytes are the text
 * PostgreSQL reads: a FixedString's zero padding is removed as convert.c
 * does. Another expression's bytes may be a FixedString's (lower() of one
 * keeps the padding): not sent.
 */
static Var *
text_column(ShipCtx *cx, Node *n, char *kind)
{
	Var		   *v;
	char		ra;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Var) || cx->qualify || !OidIsValid(cx->relid))
		return NULL;
	v = (Var *) n;
	if (v->varlevelsup != 0 || v->varattno < 1 || !bms_is_member(v->varno, cx->visible) ||
		chfdw_type_class(v->vartype) != TC_TEXT)
		return NULL;
	ra = chfdw_column_read_as(cx->relid, v->varattno);
	if (ra != 0 && ra != 'f')
		return NULL;
	*kind = chfdw_column_string_kind(cx->relid, v->varattno,
									 cx->baserel ? cx->baserel->userid : InvalidOid);
	if (*kind != 's' && *kind != 'f')
		return NULL;
	return v;
}

/* (casts2) text_column() for prefilter.c */
Var *
chfdw_cast_text_column(ShipCtx *cx, Node *n, char *kind)
{
	return text_column(cx, n, kind);
}

static int
int_width(Oid type)
{
	return type == INT2OID ? 2 : type == INT4OID ? 4 : type == INT8OID ? 8 : 0;
}

/*
 * Do isspace() and isdigit() of this backend's LC_CTYPE (the database's)
 * take exactly the bytes of the form's character classes, " \t\n\v\f\r"
 * and "0".."9", as pg_strtoint32() calls them? (C.UTF-8 and the glibc
 * UTF-8 locales do.) Checked once: a database's ctype does not change.
 */
static bool
ctype_as_form(void)
{
	static int	ok = -1;
	int			b;

	if (ok < 0)
	{
		ok = 1;
		for (b = 1; b < 256; b++)
			if ((isspace(b) != 0) != (strchr(" \t\n\v\f\r", b) != NULL) ||
				(isdigit(b) != 0) != (b >= '0' && b <= '9'))
				ok = 0;
	}
	return ok == 1;
}

/*
 * (casts2) ctype_as_form(), and '-', '+', '.' are neither letters nor
 * digits (DecodeDate() skips the non-alphanumeric bytes between the fields
 * of a date).
 */
bool
chfdw_cast_ctype_ok(void)
{
	return ctype_as_form() && !isalnum('-') && !isalnum('+') && !isalnum('.');
}

/*
 * col::smallint / integer / bigint (CoerceViaIO). Sent where raising is,
 * in a UTF-8 database whose ctype classifies bytes as the form does.
 */
bool
chfdw_cast_text_ok(ShipCtx *cx, CoerceViaIO *io)
{
	char		kind;
	ChFdwPfNode *pf = chfdw_pf_node(cx, io);

	if (pf)
		return chfdw_pf_node_ok(cx, pf);	/* (casts2) a pre-filter's */
	return int_width(io->resulttype) != 0 && cx->may_raise &&
		GetDatabaseEncoding() == PG_UTF8 && ctype_as_form() &&
		text_column(cx, (Node *) io->arg, &kind) != NULL;
}

/*
 * PostgreSQL 15's pg_strtoint16/32/64 (numutils.c): leading isspace()
 * characters, one sign, at least one ASCII digit, trailing isspace()
 * characters and nothing else; the digits are read first, so a run of
 * digits out of the type's range is "out of range" whatever follows it
 * ('99999999999x'), otherwise a text of another shape is "invalid input
 * syntax" (no '0x', no '_', no '1e3', '' neither). The digits are read
 * after their leading zeros; at most 5, 10 or 19 of them fit, compared as
 * a UInt64 with the type's bound (one more when negative).
 */
void
chfdw_deparse_cast_text(StringInfo buf, ShipCtx *cx, CoerceViaIO *io)
{
	static const char *ws = "[ \t\n\v\f\r]";
	int			w = int_width(io->resulttype);
	char		kind = 0;
	Var		   *v = text_column(cx, (Node *) io->arg, &kind);
	StringInfoData col;
	Sub		   *s;
	Sub		   *d;
	Sub		   *u;
	Sub		   *neg;
	const char *cond[3];
	const char *marker[3];
	const char *maxlen = w == 2 ? "5" : w == 4 ? "10" : "19";
	const char *absmin = w == 2 ? "32768" : w == 4 ? "2147483648" : "9223372036854775808";
	const char *max = w == 2 ? "32767" : w == 4 ? "2147483647" : "9223372036854775807";
	ChFdwRaiseValue syn = w == 2 ? CHFDW_RV_INT2_SYNTAX : w == 4 ? CHFDW_RV_INT4_SYNTAX :
		CHFDW_RV_INT8_SYNTAX;
	ChFdwRaiseValue rng = w == 2 ? CHFDW_RV_INT2_RANGE : w == 4 ? CHFDW_RV_INT4_RANGE :
		CHFDW_RV_INT8_RANGE;

	if (chfdw_pf_node(cx, io))
	{
		chfdw_deparse_pf_node(buf, cx, chfdw_pf_node(cx, io));	/* (casts2) */
		return;
	}
	Assert(v);
	initStringInfo(&col);
	chfdw_quote_identifier(&col, chfdw_column_name(cx->relid, v->varattno));
	if (kind == 'f')
		s = chfdw_pm_sub(cx, psprintf("replaceRegexpOne(toString(%s), '\\\\x00+$', '')", col.data));
	else
		s = chfdw_pm_sub(cx, col.data);
	neg = chfdw_pm_sub(cx, psprintf("match(%s, %s)", chfdw_pm_use(s),
								quoted(psprintf("^%s*-", ws))));
	d = chfdw_pm_sub(cx, psprintf("extract(%s, %s)", chfdw_pm_use(s),
							  quoted(psprintf("^%s*[+-]?0*([0-9]*)", ws))));
	u = chfdw_pm_sub(cx, psprintf("toUInt64OrZero(%s)", chfdw_pm_use(d)));

	cond[0] = psprintf("NOT match(%s, %s)", chfdw_pm_use(s), quoted(psprintf("^%s*[+-]?[0-9]", ws)));
	marker[0] = value_marker(syn, s);
	{
		const char *d1 = chfdw_pm_use(d);
		const char *u1 = chfdw_pm_use(u);

		cond[1] = psprintf("length(%s) > %s OR %s > if(%s, %s, %s)", d1, maxlen, u1,
						   chfdw_pm_use(neg), absmin, max);
	}
	marker[1] = value_marker(rng, s);
	cond[2] = psprintf("NOT match(%s, %s)", chfdw_pm_use(s),
					   quoted(psprintf("^%s*[+-]?[0-9]+%s*$", ws, ws)));
	marker[2] = value_marker(syn, s);
	{
		const char *n1 = chfdw_pm_use(neg);
		const char *u1 = chfdw_pm_use(u);

		/* -(2^63) is negate(toInt64(2^63)): the wrapped minimum itself */
		guarded_value(buf, cx, 3, cond, marker,
					  psprintf("toInt%d(if(%s, negate(toInt64(%s)), toInt64(%s)))", w * 8, n1, u1,
							   chfdw_pm_use(u)));
	}
}

/* ---- dates: make_date, date +/- integer ---- */

/*
 * The days (since 1970-01-01) of a date result this server holds: Date32
 * where it has it (1900-01-01 .. 2299-12-31), else Date up to the last day
 * of 18.16's date functions (2106-02-07, see pushdown_map.c's extract):
 * a result outside raises 22008 (not PostgreSQL's error: PostgreSQL has the
 * date), never wraps.
 */
typedef struct DateRange
{
	int			lo;
	int			hi;
	const char *from_days;		/* %s: the days */
	ChFdwRaiseValue raise;
} DateRange;

static bool
date_range(ShipCtx *cx, DateRange *r)
{
	const ch_caps *caps = chfdw_ship_caps(cx);

	if (!caps)
		return false;
	if (caps->date32)
	{
		r->lo = -25567;
		r->hi = 120529;
		r->from_days = "addDays(toDate32('1970-01-01'), %s)";
		r->raise = CHFDW_RV_DATE_CH32;
	}
	else
	{
		r->lo = 0;
		r->hi = 49710;
		r->from_days = "addDays(toDate('1970-01-01'), %s)";
		r->raise = CHFDW_RV_DATE_CH16;
	}
	return true;
}

static bool
check_dates(ShipCtx *cx, List *args, const ChFnRow *row)
{
	DateRange	r;

	(void) args;
	(void) row;
	return date_range(cx, &r);
}

/*
 * date + integer, integer + date, date - integer (row->arg "+", "i", "-"):
 * date_pli()/date_mii(): a result past PostgreSQL's dates raises "date out
 * of range"; the others past the server's range (date_range).
 */
static void
deparse_date_pm(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	bool		swap = row->arg[0] == 'i';
	const char *dt = dv(cx, swap ? lsecond(args) : linitial(args));
	const char *n = dv(cx, swap ? linitial(args) : lsecond(args));
	Sub		   *r;
	DateRange	dr;
	const char *cond[2];
	const char *marker[2];

	if (!date_range(cx, &dr))
		elog(ERROR, "clickhouse_fdw: the server's capabilities are not known");
	r = chfdw_pm_sub(cx, psprintf("toInt64(toInt32(%s)) %c toInt64(%s)", dt,
							  row->arg[0] == '-' ? '-' : '+', n));
	{
		const char *r1 = chfdw_pm_use(r);

		cond[0] = psprintf("%s < %d OR %s >= %d", r1, DATETIME_MIN_JULIAN - UNIX_EPOCH_JDATE,
						   chfdw_pm_use(r), DATE_END_JULIAN - UNIX_EPOCH_JDATE);
	}
	marker[0] = psprintf("'%s'", chfdw_raise_value_marker(CHFDW_RV_DATE_OUT));
	{
		const char *r1 = chfdw_pm_use(r);

		cond[1] = psprintf("%s < %d OR %s > %d", r1, dr.lo, chfdw_pm_use(r), dr.hi);
	}
	marker[1] = psprintf("'%s'", chfdw_raise_value_marker(dr.raise));
	guarded_value(buf, cx, 2, cond, marker, psprintf(dr.from_days, chfdw_pm_use(r)));
}

/*
 * Days since 1970 of the civil date y-m-d (each a Sub), of March-based
 * years (the 400-year cycle's leap days): exact from year 0 on.
 */
static Sub *
civil_days(ShipCtx *cx, Sub *y, Sub *m, Sub *d)
{
	Sub		   *yy = chfdw_pm_sub(cx, psprintf("%s - (%s <= 2)", chfdw_pm_use(y), chfdw_pm_use(m)));
	const char *a = chfdw_pm_use(yy);
	const char *b = chfdw_pm_use(yy);
	const char *c = chfdw_pm_use(yy);
	const char *m1 = chfdw_pm_use(m);

	return chfdw_pm_sub(cx, psprintf("%s * 365 + intDiv(%s, 4) - intDiv(%s, 100) + intDiv(%s, 400) + "
									 "intDiv(153 * ((%s + 9) %% 12) + 2, 5) + %s - 719469",
									 a, b, c, chfdw_pm_use(yy), m1, chfdw_pm_use(d)));
}

/*
 * make_date(y, m, d) as PostgreSQL 15's (date.c): a negative year is BC
 * (internally year + 1, and that is the year its messages print, except
 * for the minimum, whose negation overflows); ValidateDate()'s checks
 * raise "date field value out of range: y-mm-dd" (22008), a date before
 * 4714-11-24 BC or from 5874898 on "date out of range: y-mm-dd" (22008).
 * The days since 1970 of a valid date by calendar arithmetic (below).
 */
static void
deparse_make_date(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	Sub		   *y0 = chfdw_pm_sub(cx, psprintf("toInt64(%s)", dv(cx, linitial(args))));
	Sub		   *m = chfdw_pm_sub(cx, psprintf("toInt64(%s)", dv(cx, lsecond(args))));
	Sub		   *d = chfdw_pm_sub(cx, psprintf("toInt64(%s)", dv(cx, lthird(args))));
	Sub		   *y;
	Sub		   *days;
	Sub		   *text;
	DateRange	dr;
	const char *cond[3];
	const char *marker[3];

	(void) row;
	if (!date_range(cx, &dr))
		elog(ERROR, "clickhouse_fdw: the server's capabilities are not known");

	/*
	 * Each name is used as few times as may be: 18.16 writes a name's
	 * expression in for each use before computing it once, so that nested
	 * uses multiply.
	 */
	{
		const char *a = chfdw_pm_use(y0);

		y = chfdw_pm_sub(cx, psprintf("%s + (%s BETWEEN -2147483647 AND -1)", a, chfdw_pm_use(y0)));
	}
	{
		const char *m1 = chfdw_pm_use(m);
		const char *d1 = chfdw_pm_use(d);
		const char *y1 = chfdw_pm_use(y);

		text = chfdw_pm_sub(cx, psprintf("concat(toString(%s), '-', if(%s BETWEEN 0 AND 9, '0', ''), toString(%s), '-', "
									 "if(%s BETWEEN 0 AND 9, '0', ''), toString(%s))",
									 y1, m1, chfdw_pm_use(m), d1, chfdw_pm_use(d)));
	}
	{
		Sub		   *q = chfdw_pm_sub(cx, psprintf("%s %% 400", chfdw_pm_use(y)));
		const char *q1 = chfdw_pm_use(q);
		const char *q2 = chfdw_pm_use(q);
		const char *m1 = chfdw_pm_use(m);
		const char *m2 = chfdw_pm_use(m);

		/* ValidateDate(): the year, the month, the day of that month (leap: of y % 400) */
		/* 18.16 has no NOT BETWEEN */
		cond[0] = psprintf("%s IN (0, -2147483648) OR NOT (%s BETWEEN 1 AND 12) OR NOT (%s BETWEEN 1 AND "
						   "multiIf(%s = 2, 28 + (%s %% 4 = 0 AND (%s %% 100 != 0 OR %s = 0)), "
						   "%s IN (4, 6, 9, 11), 30, 31))",
						   chfdw_pm_use(y0), m1, chfdw_pm_use(d), m2, q1, q2, chfdw_pm_use(q),
						   chfdw_pm_use(m));
	}
	marker[0] = value_marker(CHFDW_RV_DATE_FIELD, text);
	/* IS_VALID_JULIAN() (month granularity) and IS_VALID_DATE() (the first day) */
	{
		const char *y1 = chfdw_pm_use(y);
		const char *y2 = chfdw_pm_use(y);

		cond[1] = psprintf("%s < -4713 OR %s > 5874897 OR (%s = -4713 AND (%s * 100 + %s) < 1124)",
						   y1, y2, chfdw_pm_use(y), chfdw_pm_use(m), chfdw_pm_use(d));
	}
	marker[1] = value_marker(CHFDW_RV_DATE_RANGE, text);

	/*
	 * Days from the civil date, of March-based years (the 400-year cycle's
	 * leap days): exact from year 0 on, which every date a server holds is
	 * (a row outside raises above or below).
	 */
	days = civil_days(cx, y, m, d);
	{
		const char *a = chfdw_pm_use(days);

		cond[2] = psprintf("%s < %d OR %s > %d", a, dr.lo, chfdw_pm_use(days), dr.hi);
	}
	marker[2] = psprintf("'%s'", chfdw_raise_value_marker(dr.raise));
	guarded_value(buf, cx, 3, cond, marker, psprintf(dr.from_days, chfdw_pm_use(days)));
}

/* ---- the rows (found by chfdw_fn_row / chfdw_op_row, pushdown_map.c) ---- */

static const ChFnRow cast_fn_rows[] = {
	{"make_date(integer,integer,integer)", NULL, CHFN_RAISES, check_dates, deparse_make_date},
};

static const ChFnRow cast_op_rows[] = {
	{"+(date,integer)", NULL, CHFN_RAISES, check_dates, deparse_date_pm, NULL, "+"},
	{"+(integer,date)", NULL, CHFN_RAISES, check_dates, deparse_date_pm, NULL, "i"},
	{"-(date,integer)", NULL, CHFN_RAISES, check_dates, deparse_date_pm, NULL, "-"},
};

static Oid	cast_fn_oids[lengthof(cast_fn_rows)];
static Oid	cast_op_oids[lengthof(cast_op_rows)];

static const ChFnRow *
cast_find(const ChFnRow *rows, Oid *oids, int n, Oid oid, bool op)
{
	int			i;

	if (!OidIsValid(oids[0]))
		for (i = 0; i < n; i++)
		{
			Datum		d = op ?
				DirectFunctionCall1(to_regoperator, CStringGetTextDatum(rows[i].sig)) :
				DirectFunctionCall1(to_regprocedure, CStringGetTextDatum(rows[i].sig));

			if (!OidIsValid(DatumGetObjectId(d)))
				elog(ERROR, "clickhouse_fdw: unknown %s \"%s\" in the pushdown table",
					 op ? "operator" : "function", rows[i].sig);
			oids[i] = DatumGetObjectId(d);
		}
	for (i = 0; i < n; i++)
		if (oids[i] == oid)
			return &rows[i];
	return NULL;
}

/* The row of a built-in function of this file (NULL: none). */
const ChFnRow *
chfdw_casts_fn_row(Oid funcid)
{
	return cast_find(cast_fn_rows, cast_fn_oids, lengthof(cast_fn_rows), funcid, false);
}

/* The row of a built-in operator of this file (NULL: none). */
const ChFnRow *
chfdw_casts_op_row(Oid opno)
{
	return cast_find(cast_op_rows, cast_op_oids, lengthof(cast_op_rows), opno, true);
}

/* ---- (casts2) the nodes of pre-filters (prefilter.c) ---- */

/* The text of a column the node reads (a FixedString without its padding). */
static Sub *
pf_text(ShipCtx *cx, ChFdwPfNode *pf)
{
	char		kind = 0;
	Var		   *v = text_column(cx, (Node *) pf->io->arg, &kind);
	StringInfoData col;

	if (!v)
		elog(ERROR, "clickhouse_fdw: a pre-filter's column is no text column");
	initStringInfo(&col);
	chfdw_quote_identifier(&col, chfdw_column_name(cx->relid, v->varattno));
	/* NULL as '': no simple form, so the node is NULL (as the cast of NULL) */
	if (kind == 'f')
		return chfdw_pm_sub(cx, psprintf("replaceRegexpOne(ifNull(toString(%s), ''), '\\\\x00+$', '')",
									 col.data));
	return chfdw_pm_sub(cx, psprintf("ifNull(%s, '')", col.data));
}

/* Is the node's column still a text column, and the server's dates known? */
bool
chfdw_pf_node_ok(ShipCtx *cx, ChFdwPfNode *pf)
{
	char		kind;
	DateRange	dr;

	return text_column(cx, (Node *) pf->io->arg, &kind) != NULL &&
		(pf->kind != 'd' || date_range(cx, &dr));
}

/*
 * 'd': the date of a text in the simple form (prefilter.c), else NULL:
 * year, month and day read from their digits, the day checked against its
 * month (ValidateDate(): 28 + leap, 30, 31), the days since 1970 by the
 * calendar arithmetic of make_date above, within the server's range.
 * Every function is total (toInt64OrZero of at most 4 digits, extract,
 * match): no row raises in ClickHouse.
 */
static void
deparse_pf_date(StringInfo buf, ShipCtx *cx, ChFdwPfNode *pf)
{
	static const char *ws = "[ \t\n\v\f\r]";
	DateRange	dr;
	Sub		   *s = pf_text(cx, pf);
	Sub		   *y;
	Sub		   *m;
	Sub		   *d;
	Sub		   *days;
	Sub		   *ok;

	if (!date_range(cx, &dr))
		elog(ERROR, "clickhouse_fdw: the server's capabilities are not known");
	{
		const char *s1 = chfdw_pm_use(s);
		const char *s2 = chfdw_pm_use(s);
		const char *s3 = chfdw_pm_use(s);

		y = chfdw_pm_sub(cx, psprintf("toInt64OrZero(extract(%s, %s))", s1,
								  quoted(psprintf("^%s*([0-9]{4})-", ws))));
		m = chfdw_pm_sub(cx, psprintf("toInt64OrZero(extract(%s, %s))", s2,
								  quoted(psprintf("^%s*[0-9]{4}-([0-9]{1,2})-", ws))));
		d = chfdw_pm_sub(cx, psprintf("toInt64OrZero(extract(%s, %s))", s3,
								  quoted(psprintf("-([0-9]{1,2})%s*$", ws))));
	}
	days = civil_days(cx, y, m, d);
	{
		const char *s1 = chfdw_pm_use(s);
		const char *m1 = chfdw_pm_use(m);
		const char *d1 = chfdw_pm_use(d);
		const char *m2 = chfdw_pm_use(m);
		const char *y1 = chfdw_pm_use(y);
		const char *y2 = chfdw_pm_use(y);
		const char *y3 = chfdw_pm_use(y);
		const char *m3 = chfdw_pm_use(m);
		const char *days1 = chfdw_pm_use(days);

		ok = chfdw_pm_sub(cx, psprintf("match(%s, %s) AND (%s BETWEEN 1 AND 12) AND (%s BETWEEN 1 AND "
								   "multiIf(%s = 2, 28 + (%s %% 4 = 0 AND (%s %% 100 != 0 OR %s %% 400 = 0)), "
								   "%s IN (4, 6, 9, 11), 30, 31)) AND (%s BETWEEN %d AND %d)",
								   s1, quoted(psprintf("^%s*[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}%s*$", ws, ws)),
								   m1, d1, m2, y1, y2, y3, m3, days1, dr.lo, dr.hi));
	}
	{
		const char *ok1 = chfdw_pm_use(ok);
		const char *ok2 = chfdw_pm_use(ok);

		appendStringInfo(buf, "if(%s, %s, NULL)", ok1,
						 psprintf(dr.from_days, psprintf("if(%s, %s, 0)", ok2, chfdw_pm_use(days))));
	}
}

/*
 * 'n': -1, 0 or 1 as the number of a text in the simple form compares with
 * the constant, else NULL. The text's integer digits without leading
 * zeros (I) and fraction digits without trailing zeros (F), as the
 * constant's: of two numbers of one sign, the one with more integer digits
 * is the larger, then I decides as a string, then F (a fraction's digits
 * compare as strings do: '5' > '49', '5' < '51'); '-0', '0.00' are 0.
 */
static void
deparse_pf_numeric(StringInfo buf, ShipCtx *cx, ChFdwPfNode *pf)
{
	static const char *ws = "[ \t\n\v\f\r]";
	Sub		   *s = pf_text(cx, pf);
	Sub		   *ip;
	Sub		   *fp;
	Sub		   *sx;
	const char *lo = pf->csign < 0 ? "1" : "-1";	/* |x| < |K| */
	const char *hi = pf->csign < 0 ? "-1" : "1";
	const char *mag;
	const char *cmp;
	const char *s1 = chfdw_pm_use(s);
	const char *s2 = chfdw_pm_use(s);
	const char *s3 = chfdw_pm_use(s);
	const char *s4 = chfdw_pm_use(s);

	ip = chfdw_pm_sub(cx, psprintf("extract(%s, %s)", s1, quoted(psprintf("^%s*[+-]?0*([0-9]*)", ws))));
	fp = chfdw_pm_sub(cx, psprintf("extract(%s, %s)", s2, quoted(psprintf("[.]([0-9]*?)0*%s*$", ws))));
	{
		const char *i1 = chfdw_pm_use(ip);
		const char *f1 = chfdw_pm_use(fp);

		sx = chfdw_pm_sub(cx, psprintf("if(%s = '' AND %s = '', 0, if(match(%s, %s), -1, 1))", i1, f1,
								   s3, quoted(psprintf("^%s*-", ws))));
	}
	{
		const char *i1 = chfdw_pm_use(ip);
		const char *i2 = chfdw_pm_use(ip);
		const char *i3 = chfdw_pm_use(ip);
		const char *i4 = chfdw_pm_use(ip);
		const char *f1 = chfdw_pm_use(fp);
		const char *f2 = chfdw_pm_use(fp);
		const char *ci = quoted(pf->cint);
		const char *cf = quoted(pf->cfrac);
		int			cl = (int) strlen(pf->cint);

		mag = psprintf("multiIf(length(%s) != %d, if(length(%s) < %d, %s, %s), %s != %s, if(%s < %s, %s, %s), "
					   "%s != %s, if(%s < %s, %s, %s), 0)",
					   i1, cl, i2, cl, lo, hi, i3, ci, i4, ci, lo, hi, f1, cf, f2, cf, lo, hi);
	}
	if (pf->csign > 0)
		cmp = psprintf("if(%s <= 0, -1, %s)", chfdw_pm_use(sx), mag);
	else if (pf->csign < 0)
		cmp = psprintf("if(%s >= 0, 1, %s)", chfdw_pm_use(sx), mag);
	else
		cmp = chfdw_pm_use(sx);
	appendStringInfo(buf, "if(length(%s) <= 1000 AND match(%s, %s), toInt8(%s), NULL)", s4,
					 chfdw_pm_use(s),
					 quoted(psprintf("^%s*[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)%s*$", ws, ws)), cmp);
}

void
chfdw_deparse_pf_node(StringInfo buf, ShipCtx *cx, ChFdwPfNode *pf)
{
	if (pf->kind == 'd')
		deparse_pf_date(buf, cx, pf);
	else
		deparse_pf_numeric(buf, cx, pf);
}
