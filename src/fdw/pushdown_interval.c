/*-------------------------------------------------------------------------
 * pushdown_interval.c
 *	  (interval) timestamp, timestamptz and date +/- a constant interval of
 *	  columns, computed by ClickHouse with PostgreSQL's answers: compared
 *	  (= <> < <= > >=) with constants, run-time values, columns and other
 *	  such sums, as a whole grouping key (timestamptz), and under
 *	  date_trunc() as a grouping key.
 *
 * PostgreSQL's timestamp_pl_interval() (src/backend/utils/adt/timestamp.c)
 * adds the interval's months to the wall time's month, clamping the day to
 * the new month's last day (Jan 31 + 1 month = Feb 28 or 29), then its days
 * to the date through the Julian day, keeping the time of day, then its
 * microseconds to the result; timestamp_mi_interval() adds the negated
 * interval; date_pl_interval() the interval to the date's midnight (a
 * timestamp). timestamptz_pl_interval() does the same in the session
 * TimeZone's wall time, the months and days converted back through
 * DetermineTimeZoneOffset(): so an interval with months or days is sent for
 * timestamptz only under TimeZone UTC (chfdw_session_zone), where the wall
 * time is UTC's; one of microseconds alone is an absolute shift, sent in
 * every zone.
 *
 * The value is computed in Int64 microseconds of the wall time since
 * 1970-01-01 (of UTC for timestamptz), exactly, never in a DateTime or
 * DateTime64 (which wrap or clamp outside 1970..2106 and 1900..2299): the
 * column's microseconds from its parts (toYear() .. toSecond() in its
 * zone and the fraction PostgreSQL reads, through the column markers of
 * deparse.c/pushdown_epoch.c, with their range-end rules), its civil date
 * from the day number (H. Hinnant's civil_from_days) for the months, the
 * day number of the clamped date (days_from_civil) for the days. The
 * interval is kept within 800 years in all (months/12 + days/365 +
 * microseconds/year), so that every result of every value the servers
 * hold (1900 .. 2299) falls in the years 1100 .. 3100, where PostgreSQL
 * raises no "timestamp out of range" and the text below has four digits;
 * a larger interval stays local.
 *
 * As a grouping key the value travels as the text
 * 'YYYY-MM-DD HH:MI:SS.ffffff' (and '+00' for timestamptz), which the scan
 * reads through timestamp_in/timestamptz_in, and which sorts as bytes in
 * time order (fixed width, four-digit years). A comparison compares the
 * microseconds of both sides: a constant's written as a number, a run-time
 * value's computed by PostgreSQL when the query starts
 * ((extract(epoch from v) * 1000000)::bigint, a marker of shippable.c),
 * a plain column's from its parts. (tscol) A plain timestamp column
 * compared with such a value is the same form with no interval: its wall
 * time's microseconds, which order as PostgreSQL orders wall times (a
 * DateTime's instants do not, where a DST change repeats an hour).
 *
 * src/fdw/pushdown_interval.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/stratnum.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_collation.h"
#include "commands/defrem.h"
#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"

#include "chfdw.h"
#include "pushdown_map.h"
#include "pushdown_map_int.h"
#include "pushdown_interval.h"
#include "shippable.h"

#define US_DAY "86400000000"
/* microseconds from 0000-03-01 to 1970-01-01: 719468 days */
#define US_OFF "62162035200000000"
#define MAX_YEARS 800.0
#define MAX_DEPTH 4

/* ---- the operators ---- */

typedef struct IvOp
{
	const char *sig;
	char		kind;			/* of the timestamp operand: 't' timestamp,
								 * 'z' timestamptz, 'd' date */
	int			sign;			/* +1 or -1 (the interval subtracted) */
	bool		swap;			/* interval + timestamp */
} IvOp;

static const IvOp iv_ops[] = {
	{"+(timestamp without time zone,interval)", 't', 1, false},
	{"-(timestamp without time zone,interval)", 't', -1, false},
	{"+(interval,timestamp without time zone)", 't', 1, true},
	{"+(timestamp with time zone,interval)", 'z', 1, false},
	{"-(timestamp with time zone,interval)", 'z', -1, false},
	{"+(interval,timestamp with time zone)", 'z', 1, true},
	{"+(date,interval)", 'd', 1, false},
	{"-(date,interval)", 'd', -1, false},
	{"+(interval,date)", 'd', 1, true},
};

static Oid	iv_oids[lengthof(iv_ops)];

static const IvOp *
iv_op(Oid opno)
{
	int			i;

	if (!OidIsValid(iv_oids[0]))
		for (i = 0; i < (int) lengthof(iv_ops); i++)
		{
			Datum		d = DirectFunctionCall1(to_regoperator,
											   CStringGetTextDatum(iv_ops[i].sig));

			if (!OidIsValid(DatumGetObjectId(d)))
				elog(ERROR, "clickhouse_fdw: unknown operator \"%s\"", iv_ops[i].sig);
			iv_oids[i] = DatumGetObjectId(d);
		}
	for (i = 0; i < (int) lengthof(iv_ops); i++)
		if (iv_oids[i] == opno)
			return &iv_ops[i];
	return NULL;
}

/* an OpExpr timestamp/timestamptz/date +/- interval (any operands) */
static const IvOp *
iv_node(Node *n)
{
	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, OpExpr) || list_length(((OpExpr *) n)->args) != 2)
		return NULL;
	return iv_op(((OpExpr *) n)->opno);
}

/* the result's kind: 't' timestamp, 'z' timestamptz */
static char
result_kind(Node *n)
{
	return exprType(n) == TIMESTAMPTZOID ? 'z' : 't';
}

/* ---- shippability ---- */

/* a plain timestamp, timestamptz or date column of the scanned table */
static bool
plain_column(ShipCtx *cx, Node *n, char kind)
{
	Var		   *v;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Var) || cx->qualify || !OidIsValid(cx->relid))
		return false;
	v = (Var *) n;
	if (v->vartype != (kind == 't' ? TIMESTAMPOID : kind == 'z' ? TIMESTAMPTZOID : DATEOID))
		return false;
	return v->varlevelsup == 0 && v->varattno > 0 &&
		bms_is_member(v->varno, cx->visible) &&
		chfdw_column_read_as(cx->relid, v->varattno) == 0;
}

/*
 * Is n (an interval sum) sent: its base a plain column or another such
 * sum, its interval a constant; *years the intervals' size so far,
 * *utc set when the form needs the session zone UTC (timestamptz with
 * months or days).
 */
static bool
sum_ok(ShipCtx *cx, Node *n, double *years, bool *utc, int depth)
{
	const IvOp *op = iv_node(n);
	OpExpr	   *o;
	Node	   *base;
	Node	   *ivn;
	Interval   *iv;

	if (!op || depth > MAX_DEPTH)
		return false;
	o = (OpExpr *) chfdw_strip_relabel(n);
	base = chfdw_strip_relabel(op->swap ? lsecond(o->args) : linitial(o->args));
	ivn = chfdw_strip_relabel(op->swap ? linitial(o->args) : lsecond(o->args));
	if (!ivn || !IsA(ivn, Const) || ((Const *) ivn)->constisnull ||
		((Const *) ivn)->consttype != INTERVALOID)
		return false;
	iv = DatumGetIntervalP(((Const *) ivn)->constvalue);
	*years += fabs((double) iv->month) / 12.0 + fabs((double) iv->day) / 365.0 +
		fabs((double) iv->time) / (365.0 * USECS_PER_DAY);
	if (*years > MAX_YEARS)
		return false;
	if (op->kind == 'z' && (iv->month != 0 || iv->day != 0))
		*utc = true;
	if (plain_column(cx, base, op->kind))
		return true;
	return op->kind != 'd' && sum_ok(cx, base, years, utc, depth + 1);
}

static bool
sum_shippable(ShipCtx *cx, Node *n)
{
	double		years = 0;
	bool		utc = false;

	if (!sum_ok(cx, n, &years, &utc, 0))
		return false;
	return !utc || chfdw_session_zone() != NULL;
}

static const char *const trunc_fields[] = {
	"microseconds", "milliseconds", "second", "minute", "hour", "day", "week",
	"month", "quarter", "year", "decade", "century", "millennium",
};

static const char *
trunc_field(Node *n)
{
	const char *f = chfdw_const_text(n);
	int			i;

	if (!f)
		return NULL;
	for (i = 0; i < (int) lengthof(trunc_fields); i++)
		if (pg_strcasecmp(f, trunc_fields[i]) == 0)
			return trunc_fields[i];
	return NULL;
}

/* date_trunc('field', sum): the two-argument forms of timestamp and timestamptz */
static bool
is_trunc_of_sum(Node *n)
{
	FuncExpr   *f;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, FuncExpr))
		return false;
	f = (FuncExpr *) n;
	return (f->funcid == F_DATE_TRUNC_TEXT_TIMESTAMP ||
			f->funcid == F_DATE_TRUNC_TEXT_TIMESTAMPTZ) &&
		list_length(f->args) == 2 && iv_node(lsecond(f->args)) != NULL;
}

/* the fields of extract()/date_part() of a sum: integers of the civil date and time */
static const char *const part_fields[] = {
	"year", "quarter", "month", "day", "hour", "minute", "dow", "isodow", "doy",
	"decade", "century", "millennium",
};

static const char *
part_field(Node *n)
{
	const char *f = chfdw_const_text(n);
	int			i;

	if (!f)
		return NULL;
	for (i = 0; i < (int) lengthof(part_fields); i++)
		if (pg_strcasecmp(f, part_fields[i]) == 0)
			return part_fields[i];
	return NULL;
}

/* extract('field', sum) or date_part('field', sum) of timestamp or timestamptz */
static bool
is_part_of_sum(Node *n)
{
	FuncExpr   *f;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, FuncExpr))
		return false;
	f = (FuncExpr *) n;
	return (f->funcid == F_EXTRACT_TEXT_TIMESTAMP || f->funcid == F_EXTRACT_TEXT_TIMESTAMPTZ ||
			f->funcid == F_DATE_PART_TEXT_TIMESTAMP || f->funcid == F_DATE_PART_TEXT_TIMESTAMPTZ) &&
		list_length(f->args) == 2 && iv_node(lsecond(f->args)) != NULL;
}

static bool
tz_part(FuncExpr *f)
{
	return f->funcid == F_EXTRACT_TEXT_TIMESTAMPTZ || f->funcid == F_DATE_PART_TEXT_TIMESTAMPTZ;
}

bool
chfdw_interval_node(Node *n)
{
	return iv_node(n) != NULL || is_trunc_of_sum(n) || is_part_of_sum(n);
}

/*
 * Shippable as a value: only as a whole grouping key (ShipCtx.key_args,
 * as date_trunc's text), a sum or date_trunc() of one; date_trunc of a
 * timestamptz under TimeZone UTC (its truncation is the session zone's).
 */
bool
chfdw_interval_value_ok(ShipCtx *cx, Node *n)
{
	n = chfdw_strip_relabel(n);
	if (is_part_of_sum(n))
	{
		/* an integer: a value anywhere (timestamptz: the session zone's, UTC) */
		FuncExpr   *f = (FuncExpr *) n;

		if (!part_field(linitial(f->args)) || (tz_part(f) && !chfdw_session_zone()))
			return false;
		return sum_shippable(cx, lsecond(f->args));
	}
	if (cx->key_args == NIL)
		return false;
	if (IsA(n, FuncExpr))
	{
		FuncExpr   *f = (FuncExpr *) n;

		if (cx->key_args != f->args || !is_trunc_of_sum(n) || !trunc_field(linitial(f->args)))
			return false;
		if (f->funcid == F_DATE_TRUNC_TEXT_TIMESTAMPTZ && !chfdw_session_zone())
			return false;
		return sum_shippable(cx, lsecond(f->args));
	}
	if (list_length(cx->key_args) != 1 || chfdw_strip_relabel(linitial(cx->key_args)) != n)
		return false;
	return sum_shippable(cx, n);
}

/* ---- the SQL ---- */

static int	lambda_no = 0;

/* a fresh lambda parameter name */
static const char *
pname(const char *what)
{
	return psprintf("chfdw_i%d%s", lambda_no++, what);
}

/*
 * days from 1970-01-01 of y-m-d (names or small SQL: each used several
 * times), days_from_civil of March-based years
 */
static const char *
days_sql(const char *y, const char *m, const char *d)
{
	const char *yy = psprintf("(%s - (%s <= 2))", y, m);

	return psprintf("(365 * %s + intDiv(%s, 4) - intDiv(%s, 100) + intDiv(%s, 400) + "
					"intDiv(153 * modulo(%s + 9, 12) + 2, 5) + %s - 719469)",
					yy, yy, yy, yy, m, d);
}

/*
 * The column's wall-time microseconds since 1970 (Int64): a timestamp
 * column's in its zone (its parts, with the markers' range-end rules), a
 * timestamptz column's of UTC (its UTC parts: from the epoch on servers
 * without Date32, pushdown_epoch.c), a date's midnight.
 */
static const char *
column_us(ShipCtx *cx, Var *v)
{
	const char *parts[6] = {"toYear", "toMonth", "toDayOfMonth", "toHour", "toMinute", "toSecond"};
	const char *specs[6] = {"Y", "M", "D", "H", "I", "S"};
	const char *p[6];
	const char *nm[6];
	StringInfoData c;
	StringInfoData f;
	StringInfoData b;
	int			i;

	initStringInfo(&c);
	if (v->vartype == DATEOID)
	{
		/* Date, Date32, or a DateTime's date in its zone (deparse.c) */
		chfdw_deparse_date_column(&c, cx->relid, v->varattno);
		return psprintf("(toInt64(toInt32(%s)) * " US_DAY ")", c.data);
	}
	if (v->vartype == TIMESTAMPOID)
		chfdw_deparse_zoned_column(&c, cx->relid, v->varattno, true);
	else
	{
		chfdw_deparse_zoned_column(&c, cx->relid, v->varattno, false);
		appendStringInfoString(&c, ", 'UTC'");
	}
	for (i = 0; i < 6; i++)
	{
		p[i] = psprintf("toInt64(%s(%s))", parts[i], c.data);
		if (v->vartype == TIMESTAMPTZOID)
			p[i] = chfdw_epoch_marker(v->varattno, 'g', specs[i], p[i]);
		nm[i] = pname(specs[i]);
	}
	initStringInfo(&f);
	chfdw_deparse_fraction_column(&f, cx->relid, v->varattno);
	initStringInfo(&b);
	appendStringInfo(&b, "arrayMap((%s, %s, %s, %s, %s, %s) -> %s * " US_DAY " + ((%s * 60 + %s) * 60 + %s) * 1000000, ",
					 nm[0], nm[1], nm[2], nm[3], nm[4], nm[5], days_sql(nm[0], nm[1], nm[2]),
					 nm[3], nm[4], nm[5]);
	for (i = 0; i < 6; i++)
		appendStringInfo(&b, "[%s]%s", p[i], i < 5 ? ", " : "");
	appendStringInfo(&b, ")[1] + %s", f.data);
	return psprintf("(%s)", b.data);
}

/* tmpl with each @Y@ @M@ @D@ @T@ @Z@ replaced by y, m, d, t, z */
static const char *
subst(const char *tmpl, const char *y, const char *m, const char *d, const char *t,
	  const char *z)
{
	StringInfoData b;
	const char *p = tmpl;

	initStringInfo(&b);
	while (*p)
	{
		if (p[0] == '@' && p[1] && p[2] == '@' && strchr("YMDTZ", p[1]))
		{
			appendStringInfoString(&b, p[1] == 'Y' ? y : p[1] == 'M' ? m : p[1] == 'D' ? d :
								   p[1] == 'T' ? t : z);
			p += 3;
			continue;
		}
		appendStringInfoChar(&b, *p++);
	}
	return b.data;
}

/*
 * body(y, m, d, t) over the civil date of us (SQL, Int64 microseconds
 * since 1970, from year 1 on): t the microseconds of the day, z the days
 * from 0000-03-01 (a Wednesday); the body names them @Y@ @M@ @D@ @T@ @Z@
 * (subst).
 */
static const char *
civil_sql(const char *us, const char *body_fmt)
{
	const char *z = pname("z");
	const char *t = pname("t");
	const char *e = pname("e");
	const char *yo = pname("y");
	const char *dy = pname("d");
	const char *mp = pname("p");
	const char *m = psprintf("if(%s < 10, %s + 3, %s - 9)", mp, mp, mp);
	const char *d = psprintf("(%s - intDiv(153 * %s + 2, 5) + 1)", dy, mp);
	const char *y = psprintf("(%s + intDiv(%s, 146097) * 400 + (%s <= 2))", yo, z, m);
	const char *body = subst(body_fmt, y, m, d, t, z);
	const char *zt = pname("u");

	/* zt: us + US_OFF, positive for every year from 1 on */
	return psprintf("arrayMap((%s) -> arrayMap((%s, %s) -> arrayMap((%s) -> arrayMap((%s) -> "
					"arrayMap((%s) -> arrayMap((%s) -> %s, [intDiv(5 * %s + 2, 153)])[1], "
					"[%s - (365 * %s + intDiv(%s, 4) - intDiv(%s, 100))])[1], "
					"[intDiv(%s - intDiv(%s, 1460) + intDiv(%s, 36524) - intDiv(%s, 146096), 365)])[1], "
					"[modulo(%s, 146097)])[1], [intDiv(%s, " US_DAY ")], [modulo(%s, " US_DAY ")])[1], "
					"[toInt64(%s) + " US_OFF "])[1]",
					zt, z, t, e, yo, dy, mp, body, dy,
					e, yo, yo, yo,
					e, e, e, e,
					z, zt, zt,
					us);
}

static const char *sum_us(ShipCtx *cx, Node *n);

/*
 * The form computes in the session zone's wall time, UTC's (sum_shippable
 * checked it): the plan's zone, so that the plan refuses to run in another
 * (chfdw_deparse_zone, shippable.c)
 */
static void
record_utc(ShipCtx *cx)
{
	StringInfoData scratch;

	if (!chfdw_session_zone())
		elog(ERROR, "clickhouse_fdw: an interval form of timestamptz deparsed outside TimeZone UTC");
	initStringInfo(&scratch);
	chfdw_deparse_zone(&scratch, cx);
}

/* microseconds of a sum's base or of a plain column */
static const char *
value_us(ShipCtx *cx, Node *n)
{
	n = chfdw_strip_relabel(n);
	if (IsA(n, Var))
		return column_us(cx, (Var *) n);
	return sum_us(cx, n);
}

/* the microseconds of the sum n (shippable: sum_ok) */
static const char *
sum_us(ShipCtx *cx, Node *n)
{
	const IvOp *op = iv_node(n);
	OpExpr	   *o = (OpExpr *) chfdw_strip_relabel(n);
	Node	   *base = op->swap ? lsecond(o->args) : linitial(o->args);
	Const	   *ivc = (Const *) chfdw_strip_relabel(op->swap ? linitial(o->args) : lsecond(o->args));
	Interval   *iv = DatumGetIntervalP(ivc->constvalue);
	int64		months = (int64) iv->month * op->sign;
	int64		days = (int64) iv->day * op->sign;
	int64		time = iv->time * op->sign;
	const char *b = value_us(cx, base);
	const char *r;

	if (op->kind == 'z' && (months != 0 || days != 0) && cx->dp)
	{
		/* the plan's zone (shippable.c): a plan made under UTC runs only there */
		record_utc(cx);
	}
	if (months != 0)
	{
		/*
		 * tm_mon += months, the year carried, the day clamped to the month's
		 * length (day_tab of isleap), then the days and the time of day
		 */
		const char *mm = pname("m");
		const char *dd = pname("q");
		const char *tt = pname("s");
		const char *y2 = psprintf("intDiv(%s, 12)", mm);
		const char *m2 = psprintf("(modulo(%s, 12) + 1)", mm);
		const char *leap = psprintf("((modulo(%s, 4) = 0 AND modulo(%s, 100) != 0) OR modulo(%s, 400) = 0)",
									y2, y2, y2);
		const char *len = psprintf("multiIf(%s = 2, 28 + %s, %s IN (4, 6, 9, 11), 30, 31)", m2, leap, m2);
		const char *d2 = psprintf("least(%s, %s)", dd, len);
		const char *inner = psprintf("arrayMap((%s, %s, %s) -> (%s + (" INT64_FORMAT ")) * " US_DAY " + %s, "
									 "[@Y@ * 12 + @M@ - 1 + (" INT64_FORMAT ")], [toInt64(@D@)], [@T@])[1]",
									 mm, dd, tt, days_sql(y2, m2, d2), days, tt, months);

		r = civil_sql(b, inner);
	}
	else if (days != 0)
		r = psprintf("(%s + (" INT64_FORMAT ") * " US_DAY ")", b, days);
	else
		r = b;
	if (time != 0)
		r = psprintf("(%s + (" INT64_FORMAT "))", r, time);
	return r;
}

/* two digits of 0..99 */
static const char *
two(const char *x)
{
	return psprintf("substring(toString(100 + %s), 2, 2)", x);
}

/*
 * The text of the microseconds us, truncated to field (NULL: none), '+00'
 * after it for timestamptz
 */
static const char *
text_sql(const char *us, const char *field, bool tz)
{
	const char *unit = NULL;
	const char *fmt;

	if (field)
	{
		if (strcmp(field, "milliseconds") == 0)
			unit = "1000";
		else if (strcmp(field, "second") == 0)
			unit = "1000000";
		else if (strcmp(field, "minute") == 0)
			unit = "60000000";
		else if (strcmp(field, "hour") == 0)
			unit = "3600000000";
		else if (strcmp(field, "microseconds") != 0)
			unit = US_DAY;
		if (unit)
		{
			/* floor: (us + US_OFF) is positive */
			us = psprintf("(intDiv(toInt64(%s) + " US_OFF ", %s) * %s - " US_OFF ")", us, unit, unit);
		}
		if (strcmp(field, "week") == 0)
		{
			/* back to the Monday: 0000-03-01 (day 0) was a Wednesday (isodow 3) */
			us = psprintf("(%s - modulo(intDiv(toInt64(%s) + " US_OFF ", " US_DAY ") + 2, 7) * " US_DAY ")",
						  us, us);
		}
	}
	{
		const char *y = "@Y@";
		const char *m = "@M@";
		const char *d = "@D@";
		const char *t = "@T@";

		if (field && strcmp(field, "month") == 0)
			d = "1";
		else if (field && strcmp(field, "quarter") == 0)
		{
			m = "(intDiv(@M@ - 1, 3) * 3 + 1)";
			d = "1";
		}
		else if (field && (strcmp(field, "year") == 0 || strcmp(field, "decade") == 0 ||
						   strcmp(field, "century") == 0 || strcmp(field, "millennium") == 0))
		{
			m = "1";
			d = "1";
			if (strcmp(field, "decade") == 0)
				y = "(@Y@ - modulo(@Y@, 10))";
			else if (strcmp(field, "century") == 0)
				y = "(intDiv(@Y@ + 99, 100) * 100 - 99)";
			else if (strcmp(field, "millennium") == 0)
				y = "(intDiv(@Y@ + 999, 1000) * 1000 - 999)";
		}
		fmt = psprintf("concat(toString(%s), '-', %s, '-', %s, ' ', %s, ':', %s, ':', %s, '.', "
					   "substring(toString(1000000 + modulo(%s, 1000000)), 2, 6)%s)",
					   y, two(m), two(d),
					   two(psprintf("intDiv(%s, 3600000000)", t)),
					   two(psprintf("modulo(intDiv(%s, 60000000), 60)", t)),
					   two(psprintf("modulo(intDiv(%s, 1000000), 60)", t)),
					   t, tz ? ", '+00'" : "");
	}
	return civil_sql(us, fmt);
}

/*
 * extract()'s integer fields (timestamp_part_common: year, quarter as
 * (month - 1) / 3 + 1, decade year / 10, century and millennium of
 * positive years, dow 0 = Sunday, isodow 7 = Sunday, doy from January 1st)
 */
static const char *
part_sql(const char *us, const char *field)
{
	const char *body;

	if (strcmp(field, "year") == 0)
		body = "@Y@";
	else if (strcmp(field, "quarter") == 0)
		body = "(intDiv(@M@ - 1, 3) + 1)";
	else if (strcmp(field, "month") == 0)
		body = "@M@";
	else if (strcmp(field, "day") == 0)
		body = "@D@";
	else if (strcmp(field, "hour") == 0)
		body = "intDiv(@T@, 3600000000)";
	else if (strcmp(field, "minute") == 0)
		body = "modulo(intDiv(@T@, 60000000), 60)";
	else if (strcmp(field, "dow") == 0)
		body = "modulo(@Z@ + 3, 7)";
	else if (strcmp(field, "isodow") == 0)
		body = "(modulo(@Z@ + 2, 7) + 1)";
	else if (strcmp(field, "doy") == 0)
		body = psprintf("(@Z@ - 719468 - %s + 1)", days_sql("@Y@", "1", "1"));
	else if (strcmp(field, "decade") == 0)
		body = "intDiv(@Y@, 10)";
	else if (strcmp(field, "century") == 0)
		body = "intDiv(@Y@ + 99, 100)";
	else
		body = "intDiv(@Y@ + 999, 1000)";
	return civil_sql(us, psprintf("toInt64(%s)", body));
}

bool
chfdw_interval_deparse(StringInfo buf, ShipCtx *cx, Node *n)
{
	n = chfdw_strip_relabel(n);
	/* the same names each time: a key's SQL must equal its SELECT item's */
	lambda_no = 0;
	if (is_part_of_sum(n))
	{
		FuncExpr   *f = (FuncExpr *) n;
		const char *field = part_field(linitial(f->args));

		if (!field)
			return false;
		if (tz_part(f) && cx->dp)
		{
			record_utc(cx);
		}
		/* date_part: double precision */
		appendStringInfo(buf, f->funcid == F_DATE_PART_TEXT_TIMESTAMP ||
						 f->funcid == F_DATE_PART_TEXT_TIMESTAMPTZ ? "toFloat64(%s)" : "%s",
						 part_sql(sum_us(cx, lsecond(f->args)), field));
		return true;
	}
	if (is_trunc_of_sum(n))
	{
		FuncExpr   *f = (FuncExpr *) n;
		const char *field = trunc_field(linitial(f->args));

		if (!field)
			return false;
		if (f->funcid == F_DATE_TRUNC_TEXT_TIMESTAMPTZ && cx->dp)
		{
			record_utc(cx);
		}
		appendStringInfoString(buf, text_sql(sum_us(cx, lsecond(f->args)), field,
											 f->funcid == F_DATE_TRUNC_TEXT_TIMESTAMPTZ));
		return true;
	}
	if (!iv_node(n))
		return false;
	appendStringInfoString(buf, text_sql(sum_us(cx, n), NULL, result_kind(n) == 'z'));
	return true;
}

/* ---- comparisons ---- */

static bool
compare_op(const char *name)
{
	return strcmp(name, "=") == 0 || strcmp(name, "<>") == 0 || strcmp(name, "<") == 0 ||
		strcmp(name, "<=") == 0 || strcmp(name, ">") == 0 || strcmp(name, ">=") == 0;
}

/* a value PostgreSQL computes when the query starts (shippable.c's rule) */
static bool
runtime(Node *n)
{
	return !contain_var_clause(n) && !contain_volatile_functions(n) &&
		!contain_agg_clause(n) && !contain_window_function(n) && !contain_subplans(n) &&
		!expression_returns_set(n) && !IsA(n, Const);
}

/*
 * The other side of a comparison with a sum of kind k ('t', 'z'): a
 * constant of that type (or a date against a timestamp), a run-time
 * timestamptz value, a plain column, another sum.
 */
static bool
other_ok(ShipCtx *cx, Node *n, char k)
{
	Oid			t;

	n = chfdw_strip_relabel(n);
	if (!n)
		return false;
	t = exprType(n);
	if (!(k == 't' ? (t == TIMESTAMPOID || t == DATEOID) : t == TIMESTAMPTZOID))
		return false;
	if (runtime(n))
		return true;			/* now() - interval '7 days', localtimestamp, a parameter */
	if (IsA(n, Const))
	{
		Const	   *c = (Const *) n;

		if (c->constisnull)
			return false;
		if (t == DATEOID)
			return !DATE_NOT_FINITE(DatumGetDateADT(c->constvalue));
		return !TIMESTAMP_NOT_FINITE(DatumGetTimestamp(c->constvalue));
	}
	if (iv_node(n))
		return sum_shippable(cx, n) && result_kind(n) == k;
	if (IsA(n, Var))
		return plain_column(cx, n, t == DATEOID ? 'd' : k);
	return false;
}

bool
chfdw_interval_compare_ok(ShipCtx *cx, OpExpr *op, const char *name)
{
	Node	   *l,
			   *r;

	if (list_length(op->args) != 2 || !compare_op(name))
		return false;
	l = chfdw_strip_relabel(linitial(op->args));
	r = chfdw_strip_relabel(lsecond(op->args));
	if (iv_node(l) && sum_shippable(cx, l))
		return other_ok(cx, r, result_kind(l));
	if (iv_node(r) && sum_shippable(cx, r))
		return other_ok(cx, l, result_kind(r));
	/* (tscol) a plain timestamp column: its wall time's microseconds */
	if (plain_column(cx, l, 't'))
		return other_ok(cx, r, 't');
	if (plain_column(cx, r, 't'))
		return other_ok(cx, l, 't');
	return false;
}

/*
 * (extract(epoch from c(v)) * 1000000)::bigint: v's microseconds since
 * 1970 (a timestamp's of its wall time, a date's of its midnight), v
 * clamped (chfdw_clamp_time, rewrite.c)
 */
static Node *
runtime_us(Node *v)
{
	Const	   *field = makeConst(TEXTOID, -1, DEFAULT_COLLATION_OID, -1,
								  CStringGetTextDatum("epoch"), false, false);
	Const	   *mil = makeConst(NUMERICOID, -1, InvalidOid, -1,
								DirectFunctionCall1(int8_numeric, Int64GetDatum(1000000)),
								false, false);
	Oid			type = exprType(v);
	Node	   *ep = (Node *) makeFuncExpr(type == TIMESTAMPTZOID ? F_EXTRACT_TEXT_TIMESTAMPTZ :
										   type == TIMESTAMPOID ? F_EXTRACT_TEXT_TIMESTAMP :
										   F_EXTRACT_TEXT_DATE, NUMERICOID,
										   list_make2(field, (Node *) chfdw_clamp_time((Expr *) v)), InvalidOid,
										   DEFAULT_COLLATION_OID, COERCE_EXPLICIT_CALL);
	Node	   *mul = (Node *) makeFuncExpr(F_NUMERIC_MUL, NUMERICOID, list_make2(ep, mil),
											InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);

	return (Node *) makeFuncExpr(F_INT8_NUMERIC, INT8OID, list_make1(mul), InvalidOid,
								 InvalidOid, COERCE_EXPLICIT_CALL);
}

/* one side's microseconds */
static void
side_us(StringInfo buf, ShipCtx *cx, Node *n)
{
	n = chfdw_strip_relabel(n);
	if (IsA(n, Const))
	{
		Const	   *c = (Const *) n;
		int64		us;

		/*
		 * kept within 1000-01-01 .. 9999-12-31 as run-time values are
		 * (chfdw_clamp_time): a date past 294276 would overflow the
		 * microseconds
		 */
		int64		lo = (int64) (date2j(1000, 1, 1) - POSTGRES_EPOCH_JDATE) * USECS_PER_DAY;
		int64		hi = (int64) (date2j(9999, 12, 31) - POSTGRES_EPOCH_JDATE) * USECS_PER_DAY;

		if (c->consttype == DATEOID)
			us = Min(Max((int64) DatumGetDateADT(c->constvalue),
						 lo / USECS_PER_DAY), hi / USECS_PER_DAY) * USECS_PER_DAY;
		else
			us = Min(Max(DatumGetTimestamp(c->constvalue), lo), hi);
		us += (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY;
		appendStringInfo(buf, "toInt64(" INT64_FORMAT ")", us);
	}
	else if (IsA(n, Var) || (iv_node(n) && !runtime(n)))
		appendStringInfoString(buf, value_us(cx, n));
	else
	{
		/*
		 * a run-time value's marker (shippable.c), written as an Int64
		 * (tsfast: its NULL typed, chfdw_deparse_int64_operand)
		 */
		appendStringInfoString(buf, "toInt64(");
		chfdw_deparse_int64_operand(buf, cx, runtime_us(n));
		appendStringInfoChar(buf, ')');
	}
}

/*
 * (tsfast) A plain timestamp column against a constant or run-time value
 * x (its microseconds, Int64 SQL), over a DateTime in UTC: its epoch
 * seconds s against x in whole seconds, s * 10^6 op x as s op' floor or
 * ceil of x / 10^6, which ClickHouse computes once and compares with the
 * column as its primary key can (a multiplication of the column could
 * not: force_primary_key refused it on 18.16). intDiv truncates, so x is
 * first moved by 10^18 (a multiple of 10^6; every clamped x is within
 * +-3 * 10^17). = is s >= ceil AND s <= floor (no second when x has a
 * fraction), <> its negation; NULL stays NULL.
 */
static void
fast_compare(StringInfo buf, const char *col, const char *op, const char *x)
{
	const char *s = psprintf("toInt64(toUInt32(%s))", col);
	const char *fl = psprintf("(intDiv(%s + 1000000000000000000, 1000000) - 1000000000000)", x);
	const char *ce = psprintf("(1000000000000 - intDiv(1000000000000000000 - %s, 1000000))", x);

	if (strcmp(op, ">") == 0 || strcmp(op, "<=") == 0)
		appendStringInfo(buf, "(%s %s %s)", s, op, fl);
	else if (strcmp(op, ">=") == 0 || strcmp(op, "<") == 0)
		appendStringInfo(buf, "(%s %s %s)", s, op, ce);
	else if (strcmp(op, "=") == 0)
		appendStringInfo(buf, "(%s >= %s AND %s <= %s)", s, ce, s, fl);	/* empty for a fraction */
	else
		appendStringInfo(buf, "(%s < %s OR %s > %s)", s, ce, s, fl);	/* all for a fraction */
}

bool
chfdw_interval_compare(StringInfo buf, ShipCtx *cx, OpExpr *op, const char *name)
{
	Node	   *l;
	Node	   *r;
	StringInfoData fb;

	StringInfoData ls;
	StringInfoData rs;

	if (!chfdw_interval_compare_ok(cx, op, name))
		return false;
	lambda_no = 0;
	/* each side once: a run-time value's marker registers its parameter */
	initStringInfo(&ls);
	side_us(&ls, cx, linitial(op->args));
	initStringInfo(&rs);
	side_us(&rs, cx, lsecond(op->args));
	initStringInfo(&fb);
	appendStringInfo(&fb, "(%s %s %s)", ls.data, strcmp(name, "<>") == 0 ? "!=" : name, rs.data);
	l = chfdw_strip_relabel(linitial(op->args));
	r = chfdw_strip_relabel(lsecond(op->args));
	/* (tsfast) a column against a value: the fast form where it is a DateTime in UTC */
	if (plain_column(cx, l, 't') != plain_column(cx, r, 't') &&
		!iv_node(plain_column(cx, l, 't') ? r : l) && !IsA(plain_column(cx, l, 't') ? r : l, Var))
	{
		bool		swap = plain_column(cx, r, 't');
		Var		   *v = (Var *) (swap ? r : l);
		const char *x = swap ? ls.data : rs.data;
		StringInfoData col;
		StringInfoData fast;
		const char *o = name;

		initStringInfo(&col);
		chfdw_quote_identifier(&col, chfdw_column_name(cx->relid, v->varattno));
		if (swap)				/* x op col is col op' x */
			o = strcmp(name, "<") == 0 ? ">" : strcmp(name, ">") == 0 ? "<" :
				strcmp(name, "<=") == 0 ? ">=" : strcmp(name, ">=") == 0 ? "<=" : name;
		initStringInfo(&fast);
		fast_compare(&fast, col.data, o, x);
		appendStringInfoString(buf, chfdw_alt_marker(v->varattno, fast.data, fb.data));
	}
	else
		appendStringInfoString(buf, fb.data);
	pfree(fb.data);
	return true;
}

/*
 * (tscol) "isNull(l) OR isNull(r)" of such a comparison's operands as
 * their microseconds (a plain timestamp column or a run-time value has no
 * other sent form), for a comparison under NOT or OR (shippable.c); false
 * for another atom
 */
bool
chfdw_interval_null_guard(StringInfo buf, ShipCtx *cx, OpExpr *op)
{
	char		name[NAMEDATALEN];
	ListCell   *lc;
	bool		first = true;

	if (!chfdw_builtin_operator(op->opno, name, sizeof(name)) ||
		!chfdw_interval_compare_ok(cx, op, name))
		return false;
	foreach(lc, op->args)
	{
		if (chfdw_is_const_node(lfirst(lc)))
			continue;
		lambda_no = 0;
		appendStringInfoString(buf, first ? "isNull(" : " OR isNull(");
		if (plain_column(cx, lfirst(lc), 't'))
		{
			/* (tsfast) NULL where its microseconds are: the column itself */
			Var		   *v = (Var *) chfdw_strip_relabel(lfirst(lc));

			chfdw_quote_identifier(buf, chfdw_column_name(cx->relid, v->varattno));
		}
		else
			side_us(buf, cx, lfirst(lc));
		appendStringInfoChar(buf, ')');
		first = false;
	}
	if (first)
		appendStringInfoChar(buf, '0');
	return true;
}
