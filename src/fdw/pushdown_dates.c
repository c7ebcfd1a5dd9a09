/*-------------------------------------------------------------------------
 * pushdown_dates.c
 *	  Rows of the pushdown table (pushdown_map.c) for more date parts and
 *	  date_trunc() of timestamp and timestamptz columns: their checks and
 *	  deparse callbacks.
 *
 * src/fdw/pushdown_dates.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/pg_locale.h"

#include "chfdw.h"
#include "pushdown_map.h"
#include "pushdown_map_int.h"
#include "shippable.h"

/* ---- dates: more date parts and date_trunc of timestamp columns ---- */

/*
 * Of a plain timestamp column of the scanned table (in the column's own
 * zone, any session TimeZone: as check_extract_local_ts) and of a plain
 * timestamptz column under a UTC session: the fields second,
 * milliseconds, microseconds, epoch, dow, isodow and doy, and date_trunc()
 * as a GROUP BY key. Every value is built by integer arithmetic from the
 * wall time's parts, toYear() .. toSecond() (the parts field_map sends,
 * exact over every value the columns hold, with the range-end guards of
 * the column markers), and the fraction of the second PostgreSQL reads
 * (chfdw_deparse_fraction_column): the day number comes from the year,
 * month and day by the proleptic Gregorian calendar's arithmetic (days
 * from civil), never from toDate()/toStartOf*() or toRelativeDayNum(),
 * which clamp or wrap outside 1970..2149 (26.5's toStartOfDay of a
 * DateTime64 in 1950 is 2086-07-21; toStartOfMonth of 1950-06-15 is
 * 1970-01-01; 18.16's toStartOfDay of 2106-02-07 06:28:15 is 0000-00-00).
 *
 * Results in PostgreSQL's types: extract() is numeric, of the scale
 * PostgreSQL's timestamp_part_common() gives (second and epoch 6,
 * milliseconds 3, the others 0): a Decimal(38, s) computed exactly from
 * the integer count of microseconds; date_part() is double precision,
 * computed with the same double operations (tm_sec + fsec / 1000000.0,
 * (timestamp - epoch) / 1000000.0, ...). date_trunc() returns its
 * timestamp as the text 'YYYY-MM-DD HH:MI:SS[.ffffff]' (four-digit years,
 * fixed width: it sorts as bytes in time order and is equal only for
 * equal timestamps), which the scan reads as timestamp through its text;
 * so it is sent only as a whole grouping key (and ORDER BY of that key),
 * never compared with another value (ShipCtx.key_args).
 */
/*
 * A part used several times, repeated rather than aliased: ClickHouse
 * expands aliases anyway, and 18.16 did not resolve an alias a grouping
 * key referred to before its definition once the key was repeated in
 * ORDER BY (UNKNOWN_IDENTIFIER).
 */
static Sub *
rep(const char *expr)
{
	Sub		   *s = palloc0(sizeof(Sub));

	s->expr = expr;
	return s;
}

typedef struct WallTime
{
	Sub		   *y,
			   *m,
			   *d,
			   *h,
			   *mi,
			   *s,
			   *f;				/* the microseconds below the second */
} WallTime;

static const char *const date_fields[] = {
	"second", "milliseconds", "microseconds", "epoch", "dow", "isodow", "doy",
};

static const char *const trunc_fields[] = {
	"microseconds", "milliseconds", "second", "minute", "hour", "day", "week",
	"month", "quarter", "year", "decade", "century", "millennium",
};

static bool
field_in(Node *n, const char *const *list, int len)
{
	const char *f = chfdw_const_text(n);
	int			i;

	if (!f)
		return false;
	for (i = 0; i < len; i++)
		if (pg_strcasecmp(f, list[i]) == 0)
			return true;
	return false;
}

bool
chfdw_is_date_field(Node *n)
{
	return field_in(n, date_fields, lengthof(date_fields));
}

/* a plain timestamp (or, under UTC, timestamptz) column of the scanned table */
static bool
plain_ts_column(ShipCtx *cx, Node *n)
{
	Var		   *v;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Var) || cx->qualify || !OidIsValid(cx->relid))
		return false;
	v = (Var *) n;
	if (v->vartype == TIMESTAMPTZOID && !chfdw_session_zone())
		return false;
	return (v->vartype == TIMESTAMPOID || v->vartype == TIMESTAMPTZOID) &&
		v->varlevelsup == 0 && v->varattno > 0 &&
		bms_is_member(v->varno, cx->visible) &&
		chfdw_column_read_as(cx->relid, v->varattno) == 0;
}

static void
wall_time(ShipCtx *cx, Node *col, WallTime *w)
{
	Var		   *v = (Var *) chfdw_strip_relabel(col);
	StringInfoData c;
	StringInfoData f;
	const char *parts[6] = {"toYear", "toMonth", "toDayOfMonth", "toHour", "toMinute", "toSecond"};
	Sub		  **subs[6] = {&w->y, &w->m, &w->d, &w->h, &w->mi, &w->s};
	int			i;

	initStringInfo(&c);
	if (v->vartype == TIMESTAMPOID)
		chfdw_deparse_zoned_column(&c, cx->relid, v->varattno, true);
	else
	{
		chfdw_deparse_zoned_column(&c, cx->relid, v->varattno, false);
		chfdw_deparse_zone(&c, cx);
	}
	for (i = 0; i < 6; i++)
		*subs[i] = rep(psprintf("toInt64(%s(%s))", parts[i], c.data));
	initStringInfo(&f);
	chfdw_deparse_fraction_column(&f, cx->relid, v->varattno);
	w->f = rep(f.data);
}

/*
 * Days from 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
 * days_from_civil, its eras folded for positive years: every year here is),
 * y, m, d as SQL. ClickHouse expands aliases before it runs a query, so
 * the forms here use each part few times (an AST of nested uses grows as
 * their product).
 */
static const char *
days_from_civil(ShipCtx *cx, const char *y, const char *m, const char *d)
{
	Sub		   *mm = rep(m);
	Sub		   *y2 = rep(psprintf("(%s - (%s <= 2))", y, chfdw_pm_use(mm)));
	const char *a = chfdw_pm_use(y2);
	const char *b = chfdw_pm_use(y2);
	const char *c = chfdw_pm_use(y2);

	return psprintf("(365 * %s + intDiv(%s, 4) - intDiv(%s, 100) + intDiv(%s, 400) + "
					"intDiv(153 * modulo(%s + 9, 12) + 2, 5) + %s - 719469)",
					a, b, c, chfdw_pm_use(y2), chfdw_pm_use(mm), d);
}

/* two digits of 0..99 */
static const char *
two_digits(const char *x)
{
	return psprintf("substring(toString(100 + %s), 2, 2)", x);
}

/* 'YYYY-MM-DD HH:MI:SS' (and '.ffffff' when f) of parts given as SQL */
static const char *
wall_text(ShipCtx *cx, const char *y, const char *m, const char *d, const char *h,
		  const char *mi, const char *s, const char *f)
{
	StringInfoData b;

	(void) cx;
	initStringInfo(&b);
	appendStringInfo(&b, "concat(toString(%s), '-', %s, '-', %s, ' ', %s, ':', %s, ':', %s",
					 y, two_digits(m), two_digits(d), two_digits(h), two_digits(mi),
					 two_digits(s));
	/* six digits: 1000000 + f without its leading 1 */
	if (f)
		appendStringInfo(&b, ", '.', substring(toString(1000000 + %s), 2, 6)", f);
	appendStringInfoChar(&b, ')');
	return b.data;
}

/*
 * The Monday on or before y-m-d, k = isodow - 1 days earlier: in the same
 * month when d > k, else in the month before (December of the year
 * before for January), whose length is the calendar's.
 */
static void
monday_of(ShipCtx *cx, const char *y, const char *m, const char *d, const char *k,
		  const char **my, const char **mm, const char **md)
{
	Sub		   *ys = rep(y);
	Sub		   *ms = rep(m);
	Sub		   *ds = rep(d);
	Sub		   *ks = rep(k);
	Sub		   *same = rep(psprintf("(%s > %s)", chfdw_pm_use(ds), chfdw_pm_use(ks)));
	Sub		   *pm = rep(psprintf("if(%s = 1, 12, %s - 1)", chfdw_pm_use(ms), chfdw_pm_use(ms)));
	Sub		   *py = rep(psprintf("(%s - (%s = 1))", chfdw_pm_use(ys), chfdw_pm_use(ms)));
	const char *leap;
	const char *len;

	{
		const char *a = chfdw_pm_use(py);
		const char *b = chfdw_pm_use(py);

		leap = psprintf("((modulo(%s, 4) = 0 AND modulo(%s, 100) != 0) OR modulo(%s, 400) = 0)",
						a, b, chfdw_pm_use(py));
	}
	{
		const char *a = chfdw_pm_use(pm);
		const char *b = chfdw_pm_use(pm);

		len = psprintf("multiIf(%s = 2, 28 + %s, %s IN (4, 6, 9, 11), 30, 31)", a, leap, b);
	}
	{
		const char *a = chfdw_pm_use(same);
		const char *b = chfdw_pm_use(ys);
		const char *c = chfdw_pm_use(same);
		const char *e = chfdw_pm_use(ms);
		const char *g = chfdw_pm_use(same);
		const char *h = chfdw_pm_use(ds);
		const char *i = chfdw_pm_use(ks);

		*my = psprintf("if(%s, %s, %s)", a, b, chfdw_pm_use(py));
		*mm = psprintf("if(%s, %s, %s)", c, e, chfdw_pm_use(pm));
		*md = psprintf("if(%s, %s - %s, %s + %s - %s)", g, h, i, len, chfdw_pm_use(ds), chfdw_pm_use(ks));
	}
}

/*
 * extract()'s numeric second, milliseconds and epoch are Decimals in
 * ClickHouse, never grouping keys: ClickHouse 18.16 crashed (SIGSEGV in
 * ColumnDecimal<Decimal128>::deserializeAndInsertFromArena) grouping by
 * such a value. date_part()'s double precision and the integer fields are
 * keys.
 */
bool
chfdw_check_date_field(ShipCtx *cx, List *args, bool dbl)
{
	const char *f;

	if (!field_in(linitial(args), date_fields, lengthof(date_fields)) ||
		!plain_ts_column(cx, lsecond(args)))
		return false;
	f = chfdw_const_text(linitial(args));
	if (!dbl && cx->key_args != NIL &&
		(pg_strcasecmp(f, "second") == 0 || pg_strcasecmp(f, "milliseconds") == 0 ||
		 pg_strcasecmp(f, "epoch") == 0))
		return false;
	return true;
}

/* extract(field ...) is numeric, date_part(field, ...) double precision */
void
chfdw_deparse_date_field(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	const char *field = chfdw_const_text(linitial(args));
	bool		dbl = strncmp(row->sig, "date_part", 9) == 0;
	WallTime	w;

	wall_time(cx, lsecond(args), &w);
	if (pg_strcasecmp(field, "second") == 0 || pg_strcasecmp(field, "milliseconds") == 0 ||
		pg_strcasecmp(field, "microseconds") == 0)
	{
		int			scale;
		const char *s1 = chfdw_pm_use(w.s);
		const char *f1 = chfdw_pm_use(w.f);

		if (pg_strcasecmp(field, "microseconds") == 0)
			scale = 0;
		else if (pg_strcasecmp(field, "milliseconds") == 0)
			scale = 3;
		else
			scale = 6;
		if (!dbl && scale == 0)
			appendStringInfo(buf, "(%s * 1000000 + %s)", s1, f1);
		else if (!dbl)
			appendStringInfo(buf, "(toDecimal128(%s * 1000000 + %s, %d) / %s)", s1, f1, scale,
							 scale == 6 ? "1000000" : "1000");
		else if (scale == 6)
			appendStringInfo(buf, "(toFloat64(%s) + toFloat64(%s) / 1000000.0)", s1, f1);
		else if (scale == 3)
			appendStringInfo(buf, "(toFloat64(%s) * 1000.0 + toFloat64(%s) / 1000.0)", s1, f1);
		else
			appendStringInfo(buf, "(toFloat64(%s) * 1000000.0 + toFloat64(%s))", s1, f1);
		return;
	}
	{
		const char *y1 = chfdw_pm_use(w.y);
		const char *m1 = chfdw_pm_use(w.m);
		Sub		   *days = rep(days_from_civil(cx, y1, m1, chfdw_pm_use(w.d)));
		const char *v;

		if (pg_strcasecmp(field, "epoch") == 0)
		{
			const char *dd = chfdw_pm_use(days);
			const char *h1 = chfdw_pm_use(w.h);
			const char *mi1 = chfdw_pm_use(w.mi);
			const char *s1 = chfdw_pm_use(w.s);
			const char *us = psprintf("((%s * 86400 + %s * 3600 + %s * 60 + %s) * 1000000 + %s)",
									  dd, h1, mi1, s1, chfdw_pm_use(w.f));

			if (dbl)
				appendStringInfo(buf, "(toFloat64(%s) / 1000000.0)", us);
			else
				appendStringInfo(buf, "(toDecimal128(%s, 6) / 1000000)", us);
			return;
		}
		if (pg_strcasecmp(field, "doy") == 0)
			v = psprintf("(%s - %s + 1)", chfdw_pm_use(days), days_from_civil(cx, chfdw_pm_use(w.y), "1", "1"));
		else
		{
			/* 1970-01-01 was a Thursday (4); day numbers may be negative */
			Sub		   *dow = rep(psprintf("modulo(modulo(%s, 7) + 11, 7)", chfdw_pm_use(days)));

			if (pg_strcasecmp(field, "dow") == 0)
				v = chfdw_pm_use(dow);
			else
			{
				const char *d1 = chfdw_pm_use(dow);

				v = psprintf("if(%s = 0, 7, %s)", d1, chfdw_pm_use(dow));
			}
		}
		appendStringInfo(buf, dbl ? "toFloat64(%s)" : "toInt64(%s)", v);
	}
}

/* date_trunc('field', column) as a whole grouping key only */
bool
chfdw_check_date_trunc(ShipCtx *cx, List *args, const ChFnRow *row)
{
	(void) row;
	return cx->key_args == args &&
		field_in(linitial(args), trunc_fields, lengthof(trunc_fields)) &&
		plain_ts_column(cx, lsecond(args));
}

void
chfdw_deparse_date_trunc(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	const char *field = chfdw_const_text(linitial(args));
	WallTime	w;
	const char *y;
	const char *m;
	const char *d;

	(void) row;
	wall_time(cx, lsecond(args), &w);
	if (pg_strcasecmp(field, "microseconds") == 0 || pg_strcasecmp(field, "milliseconds") == 0 ||
		pg_strcasecmp(field, "second") == 0 || pg_strcasecmp(field, "minute") == 0 ||
		pg_strcasecmp(field, "hour") == 0 || pg_strcasecmp(field, "day") == 0)
	{
		const char *f = NULL;
		char		c = pg_ascii_tolower((unsigned char) field[0]);
		bool		sec = pg_strcasecmp(field, "second") == 0;

		if (pg_strcasecmp(field, "microseconds") == 0)
			f = chfdw_pm_use(w.f);
		else if (pg_strcasecmp(field, "milliseconds") == 0)
			f = psprintf("intDiv(%s, 1000) * 1000", chfdw_pm_use(w.f));
		y = chfdw_pm_use(w.y);
		m = chfdw_pm_use(w.m);
		d = chfdw_pm_use(w.d);
		appendStringInfoString(buf, wall_text(cx, y, m, d,
											  c == 'd' ? "0" : chfdw_pm_use(w.h),
											  c == 'd' || c == 'h' ? "0" : chfdw_pm_use(w.mi),
											  (f || sec) ? chfdw_pm_use(w.s) : "0", f));
		return;
	}
	if (pg_strcasecmp(field, "week") == 0)
	{
		const char *y1 = chfdw_pm_use(w.y);
		const char *m1 = chfdw_pm_use(w.m);
		Sub		   *days = rep(days_from_civil(cx, y1, m1, chfdw_pm_use(w.d)));
		const char *y2 = chfdw_pm_use(w.y);
		const char *m2 = chfdw_pm_use(w.m);
		const char *d2 = chfdw_pm_use(w.d);

		/* isodow - 1: 1970-01-01 was a Thursday; day numbers may be negative */
		monday_of(cx, y2, m2, d2, psprintf("modulo(modulo(%s, 7) + 10, 7)", chfdw_pm_use(days)),
				  &y, &m, &d);
		appendStringInfoString(buf, wall_text(cx, y, m, d, "0", "0", "0", NULL));
		return;
	}
	if (pg_strcasecmp(field, "month") == 0)
		m = chfdw_pm_use(w.m);
	else if (pg_strcasecmp(field, "quarter") == 0)
		m = psprintf("(intDiv(%s - 1, 3) * 3 + 1)", chfdw_pm_use(w.m));
	else
		m = "1";
	if (pg_strcasecmp(field, "decade") == 0)
	{
		const char *y1 = chfdw_pm_use(w.y);

		y = psprintf("(%s - modulo(%s, 10))", y1, chfdw_pm_use(w.y));
	}
	else if (pg_strcasecmp(field, "century") == 0)
		y = psprintf("(intDiv(%s + 99, 100) * 100 - 99)", chfdw_pm_use(w.y));
	else if (pg_strcasecmp(field, "millennium") == 0)
		y = psprintf("(intDiv(%s + 999, 1000) * 1000 - 999)", chfdw_pm_use(w.y));
	else
		y = chfdw_pm_use(w.y);
	appendStringInfoString(buf, wall_text(cx, y, m, "1", "0", "0", "0", NULL));
}

/* Is n a call sent only as a whole grouping key (date_trunc)? */
bool
chfdw_is_key_only_call(Node *n)
{
	const ChFnRow *row;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, FuncExpr) || ((FuncExpr *) n)->funcid >= FirstGenbkiObjectId)
		return false;
	row = chfdw_fn_row(((FuncExpr *) n)->funcid);
	return row && row->check == chfdw_check_date_trunc;
}

