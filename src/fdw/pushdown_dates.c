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
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/fmgroids.h"
#include "utils/memutils.h"
#include "utils/pg_locale.h"
#include "utils/timestamp.h"

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

	if (chfdw_dates5_date_cast(cx, n))
		return true;			/* (dates5) a date column as timestamp(tz) */
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
	const char *specs[6] = {"Y", "M", "D", "H", "I", "S"};	/* (dates18) */
	Sub		  **subs[6] = {&w->y, &w->m, &w->d, &w->h, &w->mi, &w->s};
	int			i;

	if (chfdw_dates5_date_cast(cx, col))
	{
		/* (dates5) a date's midnight: its parts as to_char's of a date */
		v = chfdw_dates5_date_cast(cx, col);
		initStringInfo(&c);
		chfdw_deparse_zoned_column(&c, cx->relid, v->varattno, true);
		for (i = 0; i < 3; i++)
			*subs[i] = rep(chfdw_epoch_marker(v->varattno, 'd', specs[i],
											  psprintf("toInt64(%s(%s))", parts[i], c.data)));
		w->h = rep("toInt64(0)");
		w->mi = rep("toInt64(0)");
		w->s = rep("toInt64(0)");
		w->f = rep("toInt64(0)");
		return;
	}
	initStringInfo(&c);
	if (v->vartype == TIMESTAMPOID)
		chfdw_deparse_zoned_column(&c, cx->relid, v->varattno, true);
	else
	{
		chfdw_deparse_zoned_column(&c, cx->relid, v->varattno, false);
		chfdw_deparse_zone(&c, cx);
	}
	for (i = 0; i < 6; i++)
	{
		const char *part = psprintf("toInt64(%s(%s))", parts[i], c.data);

		/* (dates18) a timestamptz's parts from the epoch where Date32 is missing */
		if (v->vartype == TIMESTAMPTZOID)
			part = chfdw_epoch_marker(v->varattno, 'g', specs[i], part);
		*subs[i] = rep(part);
	}
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

static void trunc_text(StringInfo buf, ShipCtx *cx, const char *field, WallTime *w_parts);

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
	WallTime	w;

	(void) row;
	wall_time(cx, lsecond(args), &w);
	trunc_text(buf, cx, chfdw_const_text(linitial(args)), &w);
}

/*
 * (tsdate) date(column), ts::date, of a plain timestamp column (its wall
 * date in the column's zone, any session TimeZone) or timestamptz column
 * (under UTC), as a whole grouping key only (and ORDER BY of it), as
 * date_trunc: its text 'YYYY-MM-DD' (four-digit years: the bytes sort in
 * date order, equal only for equal dates), which the scan reads as date
 * through its text, from the wall time's parts (never toDate(), which
 * clamps DateTime64 values outside 1970..2149, or 18.16's date functions
 * at DateTime's range end: wall_time's markers).
 */
bool
chfdw_check_ts_date(ShipCtx *cx, List *args, const ChFnRow *row)
{
	(void) row;
	return cx->key_args == args && list_length(args) == 1 && plain_ts_column(cx, linitial(args));
}

void
chfdw_deparse_ts_date(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	WallTime	w;
	const char *y;
	const char *m;

	(void) row;
	wall_time(cx, linitial(args), &w);
	y = chfdw_pm_use(w.y);
	m = chfdw_pm_use(w.m);
	appendStringInfo(buf, "concat(toString(%s), '-', %s, '-', %s)", y, two_digits(m),
					 two_digits(chfdw_pm_use(w.d)));
}

/* date_trunc's text of the wall time's parts w (as SQL) */
static void
trunc_text(StringInfo buf, ShipCtx *cx, const char *field, WallTime *w_parts)
{
	WallTime	w = *w_parts;
	const char *y;
	const char *m;
	const char *d;

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

/*
 * (tskey) A plain timestamp column of the scanned table as a grouping key,
 * a DISTINCT output, an ORDER BY key or the argument of count, count
 * (DISTINCT), min and max. Its ClickHouse value is an instant, whose order
 * and equality are not its wall time's in a zone with DST (the hour a
 * change repeats holds two instants of each wall time, sorted the other
 * way round), so it travels as date_trunc('microseconds', column) does:
 * the fixed-width text of its wall time (trunc_text), equal only for equal
 * wall times and sorting as bytes in their order, read back as timestamp
 * through its text. Over a DateTime in UTC (or naming no zone: the zone it
 * is read in, convert.c) the wall time is the instant, and over a Date it
 * is its midnight, and over a DateTime64 in UTC of at most 6 digits it is
 * its value, so the marker (chfdw_epoch_marker, src 'w') becomes the
 * column itself when the query starts (chfdw_bind_epoch): no parts, no
 * text, and no range-end guard. Not a DateTime64 under min/max (spec "M")
 * nor a Date32: 26.5's JIT-compiled min/max compare their values as
 * unsigned (aggregates.c).
 * Only over a column the catalog says is a DateTime, DateTime64, Date or
 * Date32 (a String declared timestamp has no wall-time parts: it stays
 * local, as before), and only where the form cannot raise (below).
 */
bool
chfdw_ts_key_column(ShipCtx *cx, Node *n)
{
	Var		   *v;
	int			kind;
	int			precision;
	int			scale;

	/* plain_ts_column's plain column (not its date casts), of type timestamp */
	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Var) || ((Var *) n)->vartype != TIMESTAMPOID || !plain_ts_column(cx, n))
		return false;
	v = (Var *) n;
	/*
	 * a DateTime, DateTime64, Date or Date32 as the planner's catalog
	 * lookup saw it (remote.c; precision 1: in UTC or naming no zone), whose
	 * form has no range-end guard, which would raise 22008 over a value
	 * PostgreSQL reads (a DateTime's last second, 2106-02-07 06:28:15, is a
	 * common placeholder): a DateTime in another zone only where the
	 * server has Date32 (18.16's date parts end on 2106-02-05), a
	 * DateTime64 only in UTC (its first and last day raise elsewhere)
	 */
	if (!chfdw_column_numeric_type(cx->relid, v->varattno,
								   cx->baserel && OidIsValid(cx->baserel->userid) ?
								   cx->baserel->userid : GetUserId(), &kind, &precision, &scale))
		return false;
	if (kind == CH_T_DATE || kind == CH_T_DATE32)
		return true;
	if (kind == CH_T_DATETIME)
		return precision == 1 || (chfdw_ship_caps(cx) && chfdw_ship_caps(cx)->date32);
	return kind == CH_T_DATETIME64 && precision == 1;
}

static void
deparse_ts_key(StringInfo buf, ShipCtx *cx, Node *n, const char *spec)
{
	Var		   *v = (Var *) chfdw_strip_relabel(n);
	WallTime	w;
	StringInfoData fb;

	initStringInfo(&fb);
	wall_time(cx, n, &w);
	trunc_text(&fb, cx, "microseconds", &w);
	appendStringInfoString(buf, chfdw_epoch_marker(v->varattno, 'w', spec, fb.data));
	pfree(fb.data);
}

/* as a key, a DISTINCT output, an ORDER BY key, count(DISTINCT)'s argument */
void
chfdw_deparse_ts_key(StringInfo buf, ShipCtx *cx, Node *n)
{
	deparse_ts_key(buf, cx, n, "K");
}

/*
 * as min/max's argument: the same but over a DateTime64, which stays the
 * text there (26.5's JIT-compiled min/max compare its ticks as unsigned)
 */
void
chfdw_deparse_ts_key_minmax(StringInfo buf, ShipCtx *cx, Node *n)
{
	deparse_ts_key(buf, cx, n, "M");
}

/* Is n a call sent only as a whole grouping key (date_trunc, (tsdate) ts::date)? */
bool
chfdw_is_key_only_call(Node *n)
{
	const ChFnRow *row;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, FuncExpr) || ((FuncExpr *) n)->funcid >= FirstGenbkiObjectId)
		return false;
	row = chfdw_fn_row(((FuncExpr *) n)->funcid);
	return row && (row->check == chfdw_check_date_trunc || row->check == chfdw_check_ts_date);
}


/* ---- tochar: to_char of timestamp, timestamptz and date columns ---- */

/*
 * to_char(value, 'format') of a plain timestamp column (in the column's
 * own zone, any session TimeZone), of a plain timestamptz column under the
 * session zone rule (chfdw_session_zone: UTC), and of a plain date column
 * (to_char(d::timestamp, ...) in any zone; to_char(d, ...), which
 * PostgreSQL reads as to_char(d::timestamptz, ...), under UTC), for
 * constant formats whose every keyword is one PostgreSQL's C locale
 * writes as below (formatting.c, DCH_to_char): the format is parsed as
 * PostgreSQL parses it (its keyword table, longest first within each
 * letter, the prefixes FM/fm/TM/tm and suffixes TH/th/SP, "quoted text"
 * with backslash escapes, \" outside quotes), and it is sent only when
 * every letter outside quotes belongs to a keyword of that list, FM only
 * before such a keyword, no TM, TH or SP: so a keyword this list lacks
 * (TZ, OF, FX, ...) cannot pass as literal text, and anything else keeps
 * the whole call local.
 *
 * The value's parts are toYear() .. toSecond() and the fraction, as the
 * dates section above reads them (wall_time(): the column markers with
 * their range-end guards, 22008; a timestamptz's and a date's from the
 * epoch on servers without Date32, pushdown_epoch.c), once each: a lambda binds them,
 * arrayMap((y, m, ...) -> text, [Y], [M], ...)[1], and a nested one the
 * day of the year and the ISO day of the week, so the SQL grows linearly
 * with the format (ClickHouse 18.16 and 26.5 both run such lambdas, also
 * as grouping keys). A date's time of day is 0. Every derived value is
 * calendar arithmetic over the proleptic Gregorian calendar, as
 * PostgreSQL's (timestamp2tm, date2isoweek), never ClickHouse's
 * toDayOfWeek()/toISOWeek() (see field_map in pushdown_map.c).
 * Every year here has four digits (1900 .. 2299), so YYYY, with or
 * without FM, is toString(year). A NULL value gives NULL.
 */
typedef enum TcKey
{
	TK_UNSUPPORTED,
	TK_YYYY, TK_YYY, TK_YY, TK_Y, TK_Y_YYY,
	TK_IYYY, TK_IYY, TK_IY, TK_I,
	TK_MM, TK_DD, TK_DDD, TK_IDDD, TK_D, TK_ID, TK_W, TK_WW, TK_IW, TK_Q, TK_CC, TK_J,
	TK_HH24, TK_HH12, TK_MI, TK_SS, TK_MS, TK_US, TK_FF, TK_SSSS,
	TK_AMPM, TK_ERA, TK_MONTH, TK_MON, TK_DAY, TK_DY, TK_RM
} TcKey;

/* what a keyword needs (TcWord.needs) */
#define TN_TIME		0x01		/* h, i, s */
#define TN_FRAC		0x02		/* f */
#define TN_DOY		0x04
#define TN_IDW		0x10
#define TN_ISO		0x20

typedef struct TcWord
{
	const char *name;
	TcKey		key;
	int			arg;			/* FF: digits; text keywords: 0 upper, 1
								 * capitalized, 2 lower */
	const char *a;				/* AM/PM and era: the forms */
	const char *b;
} TcWord;

/*
 * PostgreSQL 15's DCH_keywords, in its order (index_seq_search takes the
 * first that matches), the ones not sent as TK_UNSUPPORTED.
 */
static const TcWord tc_words[] = {
	{"A.D.", TK_ERA, 0, "A.D."}, {"A.M.", TK_AMPM, 0, "A.M.", "P.M."},
	{"AD", TK_ERA, 0, "AD"}, {"AM", TK_AMPM, 0, "AM", "PM"},
	{"B.C.", TK_ERA, 0, "A.D."}, {"BC", TK_ERA, 0, "AD"},
	{"CC", TK_CC},
	{"DAY", TK_DAY, 0}, {"DDD", TK_DDD}, {"DD", TK_DD}, {"DY", TK_DY, 0},
	{"Day", TK_DAY, 1}, {"Dy", TK_DY, 1}, {"D", TK_D},
	{"FF1", TK_FF, 1}, {"FF2", TK_FF, 2}, {"FF3", TK_FF, 3}, {"FF4", TK_FF, 4},
	{"FF5", TK_FF, 5}, {"FF6", TK_FF, 6}, {"FX", TK_UNSUPPORTED},
	{"HH24", TK_HH24}, {"HH12", TK_HH12}, {"HH", TK_HH12},
	{"IDDD", TK_IDDD}, {"ID", TK_ID}, {"IW", TK_IW}, {"IYYY", TK_IYYY}, {"IYY", TK_IYY},
	{"IY", TK_IY}, {"I", TK_I},
	{"J", TK_J},
	{"MI", TK_MI}, {"MM", TK_MM}, {"MONTH", TK_MONTH, 0}, {"MON", TK_MON, 0}, {"MS", TK_MS},
	{"Month", TK_MONTH, 1}, {"Mon", TK_MON, 1},
	{"OF", TK_UNSUPPORTED},
	{"P.M.", TK_AMPM, 0, "A.M.", "P.M."}, {"PM", TK_AMPM, 0, "AM", "PM"},
	{"Q", TK_Q},
	{"RM", TK_RM, 0},
	{"SSSSS", TK_SSSS}, {"SSSS", TK_SSSS}, {"SS", TK_SS},
	{"TZH", TK_UNSUPPORTED}, {"TZM", TK_UNSUPPORTED}, {"TZ", TK_UNSUPPORTED},
	{"US", TK_US},
	{"WW", TK_WW}, {"W", TK_W},
	{"Y,YYY", TK_Y_YYY}, {"YYYY", TK_YYYY}, {"YYY", TK_YYY}, {"YY", TK_YY}, {"Y", TK_Y},
	{"a.d.", TK_ERA, 0, "a.d."}, {"a.m.", TK_AMPM, 0, "a.m.", "p.m."},
	{"ad", TK_ERA, 0, "ad"}, {"am", TK_AMPM, 0, "am", "pm"},
	{"b.c.", TK_ERA, 0, "a.d."}, {"bc", TK_ERA, 0, "ad"},
	{"cc", TK_CC},
	{"day", TK_DAY, 2}, {"ddd", TK_DDD}, {"dd", TK_DD}, {"dy", TK_DY, 2}, {"d", TK_D},
	{"ff1", TK_FF, 1}, {"ff2", TK_FF, 2}, {"ff3", TK_FF, 3}, {"ff4", TK_FF, 4},
	{"ff5", TK_FF, 5}, {"ff6", TK_FF, 6}, {"fx", TK_UNSUPPORTED},
	{"hh24", TK_HH24}, {"hh12", TK_HH12}, {"hh", TK_HH12},
	{"iddd", TK_IDDD}, {"id", TK_ID}, {"iw", TK_IW}, {"iyyy", TK_IYYY}, {"iyy", TK_IYY},
	{"iy", TK_IY}, {"i", TK_I},
	{"j", TK_J},
	{"mi", TK_MI}, {"mm", TK_MM}, {"month", TK_MONTH, 2}, {"mon", TK_MON, 2}, {"ms", TK_MS},
	{"of", TK_UNSUPPORTED},
	{"p.m.", TK_AMPM, 0, "a.m.", "p.m."}, {"pm", TK_AMPM, 0, "am", "pm"},
	{"q", TK_Q},
	{"rm", TK_RM, 2},
	{"sssss", TK_SSSS}, {"ssss", TK_SSSS}, {"ss", TK_SS},
	{"tzh", TK_UNSUPPORTED}, {"tzm", TK_UNSUPPORTED}, {"tz", TK_UNSUPPORTED},
	{"us", TK_US},
	{"ww", TK_WW}, {"w", TK_W},
	{"y,yyy", TK_Y_YYY}, {"yyyy", TK_YYYY}, {"yyy", TK_YYY}, {"yy", TK_YY}, {"y", TK_Y},
};

/* One piece of the output: a keyword (word) or literal text. */
typedef struct TcNode
{
	const TcWord *word;			/* NULL: text */
	bool		fm;
	StringInfoData text;
} TcNode;

static const TcWord *
tc_word(const char *s)
{
	int			i;

	for (i = 0; i < (int) lengthof(tc_words); i++)
		if (strncmp(s, tc_words[i].name, strlen(tc_words[i].name)) == 0)
			return &tc_words[i];
	return NULL;
}

static bool
tc_letter(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* a literal character we write as is: printable ASCII */
static bool
tc_printable(char c)
{
	return c >= 0x20 && c < 0x7f;
}

/*
 * The format as PostgreSQL's parse_format() reads it, or NIL when it is
 * not sent (see above); *needs: what its keywords need.
 */
static List *
tc_parse(const char *fmt, int *needs)
{
	List	   *nodes = NIL;
	TcNode	   *lit = NULL;
	const char *p = fmt;
	int			nwords = 0;

	*needs = 0;
	if (!fmt || !*fmt)
		return NIL;				/* PostgreSQL answers NULL */
	while (*p)
	{
		bool		fm = false;
		const TcWord *w;

		if (strncmp(p, "TM", 2) == 0 || strncmp(p, "tm", 2) == 0)
			return NIL;
		if (strncmp(p, "FM", 2) == 0 || strncmp(p, "fm", 2) == 0)
		{
			fm = true;
			p += 2;
		}
		if (*p && (w = tc_word(p)) != NULL)
		{
			TcNode	   *n;

			if (w->key == TK_UNSUPPORTED || ++nwords > 40)
				return NIL;
			p += strlen(w->name);
			/* TH, th, SP after a keyword: ordinal and spelled forms, not sent */
			if (strncmp(p, "TH", 2) == 0 || strncmp(p, "th", 2) == 0 || strncmp(p, "SP", 2) == 0)
				return NIL;
			n = palloc0(sizeof(TcNode));
			n->word = w;
			n->fm = fm;
			nodes = lappend(nodes, n);
			lit = NULL;
			switch (w->key)
			{
				case TK_HH24:
				case TK_HH12:
				case TK_MI:
				case TK_SS:
				case TK_SSSS:
				case TK_AMPM:
					*needs |= TN_TIME;
					break;
				case TK_MS:
				case TK_US:
				case TK_FF:
					*needs |= TN_FRAC;
					break;
				case TK_DDD:
				case TK_WW:
					*needs |= TN_DOY;
					break;
				case TK_J:
					*needs |= TN_DOY;
					break;
				case TK_D:
				case TK_ID:
				case TK_DAY:
				case TK_DY:
					*needs |= TN_DOY | TN_IDW;
					break;
				case TK_IYYY:
				case TK_IYY:
				case TK_IY:
				case TK_I:
				case TK_IW:
				case TK_IDDD:
					*needs |= TN_DOY | TN_IDW | TN_ISO;
					break;
				default:
					break;
			}
			continue;
		}
		if (fm)
			return NIL;			/* FM before no keyword: not sent */
		if (!lit)
		{
			lit = palloc0(sizeof(TcNode));
			initStringInfo(&lit->text);
			nodes = lappend(nodes, lit);
		}
		if (*p == '"')
		{
			/* quoted text; a backslash quotes the next character */
			for (p++; *p && *p != '"'; p++)
			{
				if (*p == '\\' && p[1])
					p++;
				if (!tc_printable(*p))
					return NIL;
				appendStringInfoChar(&lit->text, *p);
			}
			if (*p == '"')
				p++;
			continue;
		}
		/* outside quotes a backslash quotes only a double quote */
		if (*p == '\\' && p[1] == '"')
			p++;
		if (tc_letter(*p) || !tc_printable(*p))
			return NIL;
		appendStringInfoChar(&lit->text, *p);
		p++;
	}
	return nodes;
}

/* a timestamp or timestamptz column of wall_time's, or a date column (*date) */
static Var *
tc_value(ShipCtx *cx, Node *n, bool *date)
{
	Var		   *v;

	n = chfdw_strip_relabel(n);
	*date = false;
	if (n && IsA(n, FuncExpr) && list_length(((FuncExpr *) n)->args) == 1 &&
		(((FuncExpr *) n)->funcid == F_TIMESTAMPTZ_DATE ||
		 ((FuncExpr *) n)->funcid == F_TIMESTAMP_DATE))
	{
		/* date::timestamptz is the date's midnight in the session's zone: UTC */
		if (((FuncExpr *) n)->funcid == F_TIMESTAMPTZ_DATE && !chfdw_session_zone())
			return NULL;
		n = chfdw_strip_relabel(linitial(((FuncExpr *) n)->args));
		if (!n || !IsA(n, Var) || ((Var *) n)->vartype != DATEOID)
			return NULL;
		*date = true;
	}
	else if (!plain_ts_column(cx, n))
		return NULL;
	v = (Var *) n;

	/*
	 * (dates18) A timestamptz or date on a server without Date32 (18.16):
	 * its parts are computed from the epoch (pushdown_epoch.c), where
	 * 18.16's date parts raised over the last days of DateTime's range and
	 * a Date's from 2106-02-05 on; a timestamp column raises there as its
	 * other date parts do.
	 */
	if (cx->qualify || !OidIsValid(cx->relid) || v->varlevelsup != 0 || v->varattno <= 0 ||
		!bms_is_member(v->varno, cx->visible) ||
		chfdw_column_read_as(cx->relid, v->varattno) != 0)
		return NULL;
	return v;
}

bool
chfdw_check_tochar(ShipCtx *cx, List *args)
{
	bool		date;
	int			needs;

	if (list_length(args) != 2 || !tc_value(cx, linitial(args), &date))
		return false;
	return tc_parse(chfdw_const_text(lsecond(args)), &needs) != NIL;
}

/* n digits of x, 0 <= x < 10^n */
static const char *
tc_pad(const char *x, int n)
{
	static const char *const pow10[] = {"1", "10", "100", "1000", "10000", "100000", "1000000"};

	return psprintf("substring(toString(%s + %s), 2, %d)", pow10[n], x, n);
}

/* the number, n digits wide unless FM */
static const char *
tc_num(const char *x, int n, bool fm)
{
	return fm ? psprintf("toString(%s)", x) : tc_pad(x, n);
}

/* a ClickHouse array of the names, padded to width, in a case */
static const char *
tc_names(const char *const *names, int len, int cs, int width)
{
	StringInfoData b;
	int			i;

	initStringInfo(&b);
	appendStringInfoChar(&b, '[');
	for (i = 0; i < len; i++)
	{
		char		s[16];
		int			j;

		snprintf(s, sizeof(s), "%-*s", width, names[i]);
		/* cs 0: upper case, 1: as written (capitalized), 2: lower case */
		for (j = 0; s[j]; j++)
			s[j] = cs == 0 ? pg_ascii_toupper((unsigned char) s[j]) :
				cs == 2 ? pg_ascii_tolower((unsigned char) s[j]) : s[j];
		if (i > 0)
			appendStringInfoString(&b, ", ");
		chfdw_quote_literal(&b, s);
	}
	appendStringInfoChar(&b, ']');
	return b.data;
}

static const char *const tc_months[] = {
	"January", "February", "March", "April", "May", "June", "July", "August", "September",
	"October", "November", "December",
};
static const char *const tc_days[] = {
	"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
};
/* roman months, I .. XII */
static const char *const tc_roman[] = {
	"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII",
};

/*
 * Calendar arithmetic over the lambdas' names (chfdw_t<part>): a leap
 * year; the day of the year; the day number (days from 1970-01-01) of a
 * day of the year; the Thursday of the ISO week as a day of the year (it
 * may fall outside the year).
 */
#define TC_LEAP(y) "toInt64((modulo(" y ", 4) = 0 AND modulo(" y ", 100) != 0) OR modulo(" y ", 400) = 0)"
#define TC_DOY "toInt64([0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334][chfdw_tm] + " \
	"chfdw_td + (chfdw_tm > 2) * " TC_LEAP("chfdw_ty") ")"
#define TC_DAYS(doy) "(365 * (chfdw_ty - 1) + intDiv(chfdw_ty - 1, 4) - intDiv(chfdw_ty - 1, 100) + " \
	"intDiv(chfdw_ty - 1, 400) - 719162 + " doy " - 1)"
#define TC_THU "(chfdw_tdoy - chfdw_tidw + 4)"
/* ISO day of the week: Sakamoto's day of the week (0: Sunday) moved to 1 .. 7 */
#define TC_Y3 "(chfdw_ty - (chfdw_tm < 3))"
#define TC_IDW "(modulo(modulo(" TC_Y3 " + intDiv(" TC_Y3 ", 4) - intDiv(" TC_Y3 ", 100) + " \
	"intDiv(" TC_Y3 ", 400) + [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4][chfdw_tm] + chfdw_td, 7) + 6, 7) + 1)"
/* the ISO year and week: the Thursday's (date2isoyear, date2isoweek) */
#define TC_IY "(chfdw_ty - (" TC_THU " < 1) + (" TC_THU " > 365 + " TC_LEAP("chfdw_ty") "))"
#define TC_IW "multiIf(" TC_THU " < 1, intDiv(" TC_THU " + 364 + " TC_LEAP("chfdw_ty - 1") ", 7) + 1, " \
	TC_THU " > 365 + " TC_LEAP("chfdw_ty") ", 1, intDiv(" TC_THU " - 1, 7) + 1)"

/* one keyword's text */
static const char *
tc_keyword(const TcNode *n)
{
	const TcWord *w = n->word;
	bool		fm = n->fm;
	char		abbr[12][4];
	const char *ab[12];
	int			i;

	switch (w->key)
	{
		case TK_YYYY:
			return "toString(chfdw_ty)";
		case TK_YYY:
			return tc_num("modulo(chfdw_ty, 1000)", 3, fm);
		case TK_YY:
			return tc_num("modulo(chfdw_ty, 100)", 2, fm);
		case TK_Y:
			return "toString(modulo(chfdw_ty, 10))";
		case TK_Y_YYY:
			return psprintf("concat(toString(intDiv(chfdw_ty, 1000)), ',', %s)",
							tc_pad("modulo(chfdw_ty, 1000)", 3));
		case TK_IYYY:
			return "toString" TC_IY;
		case TK_IYY:
			return tc_num("modulo(" TC_IY ", 1000)", 3, fm);
		case TK_IY:
			return tc_num("modulo(" TC_IY ", 100)", 2, fm);
		case TK_I:
			return "toString(modulo(" TC_IY ", 10))";
		case TK_MM:
			return tc_num("chfdw_tm", 2, fm);
		case TK_DD:
			return tc_num("chfdw_td", 2, fm);
		case TK_DDD:
			return tc_num("chfdw_tdoy", 3, fm);
		case TK_IDDD:
			return tc_num("((" TC_IW " - 1) * 7 + chfdw_tidw)", 3, fm);
		case TK_D:
			return "toString(modulo(chfdw_tidw, 7) + 1)";
		case TK_ID:
			return "toString(chfdw_tidw)";
		case TK_W:
			return "toString(intDiv(chfdw_td - 1, 7) + 1)";
		case TK_WW:
			return tc_num("(intDiv(chfdw_tdoy - 1, 7) + 1)", 2, fm);
		case TK_IW:
			return tc_num(TC_IW, 2, fm);
		case TK_Q:
			return "toString(intDiv(chfdw_tm - 1, 3) + 1)";
		case TK_CC:
			/* 19 .. 23: two digits with or without FM */
			return "toString(intDiv(chfdw_ty - 1, 100) + 1)";
		case TK_J:
			return "toString(" TC_DAYS("chfdw_tdoy") " + 2440588)";
		case TK_HH24:
			return tc_num("chfdw_th", 2, fm);
		case TK_HH12:
			return tc_num("if(modulo(chfdw_th, 12) = 0, 12, modulo(chfdw_th, 12))", 2, fm);
		case TK_MI:
			return tc_num("chfdw_ti", 2, fm);
		case TK_SS:
			return tc_num("chfdw_ts", 2, fm);
		case TK_MS:
			/* MS, US and FFn are written %03d, %06d, %0nd whatever FM says */
			return tc_pad("intDiv(chfdw_tf, 1000)", 3);
		case TK_US:
			return tc_pad("chfdw_tf", 6);
		case TK_FF:
			{
				static const char *const div[] = {"", "100000", "10000", "1000", "100", "10", "1"};

				return tc_pad(psprintf("intDiv(chfdw_tf, %s)", div[w->arg]), w->arg);
			}
		case TK_SSSS:
			return "toString(chfdw_th * 3600 + chfdw_ti * 60 + chfdw_ts)";
		case TK_AMPM:
			{
				StringInfoData b;

				initStringInfo(&b);
				appendStringInfoString(&b, "if(chfdw_th >= 12, ");
				chfdw_quote_literal(&b, w->b);
				appendStringInfoString(&b, ", ");
				chfdw_quote_literal(&b, w->a);
				appendStringInfoChar(&b, ')');
				return b.data;
			}
		case TK_ERA:
			{
				/* every year here is AD */
				StringInfoData b;

				initStringInfo(&b);
				chfdw_quote_literal(&b, w->a);
				return b.data;
			}
		case TK_MONTH:
			return psprintf("%s[chfdw_tm]", tc_names(tc_months, 12, w->arg, fm ? 0 : 9));
		case TK_MON:
			for (i = 0; i < 12; i++)
			{
				strlcpy(abbr[i], tc_months[i], 4);
				ab[i] = abbr[i];
			}
			return psprintf("%s[chfdw_tm]", tc_names(ab, 12, w->arg, 0));
		case TK_DAY:
			return psprintf("%s[modulo(chfdw_tidw, 7) + 1]", tc_names(tc_days, 7, w->arg, fm ? 0 : 9));
		case TK_DY:
			for (i = 0; i < 7; i++)
			{
				strlcpy(abbr[i], tc_days[i], 4);
				ab[i] = abbr[i];
			}
			return psprintf("%s[modulo(chfdw_tidw, 7) + 1]", tc_names(ab, 7, w->arg, 0));
		case TK_RM:
			return psprintf("%s[chfdw_tm]", tc_names(tc_roman, 12, w->arg == 2 ? 2 : 0, fm ? 0 : 4));
		case TK_UNSUPPORTED:
			break;
	}
	elog(ERROR, "to_char keyword \"%s\" is not sent", w->name);
	return NULL;
}

void
chfdw_deparse_tochar(StringInfo buf, ShipCtx *cx, List *args)
{
	bool		date;
	Var		   *v = tc_value(cx, linitial(args), &date);
	int			needs;
	List	   *nodes = tc_parse(chfdw_const_text(lsecond(args)), &needs);
	WallTime	w;
	const char *names[7] = {"chfdw_ty", "chfdw_tm", "chfdw_td", "chfdw_th", "chfdw_ti", "chfdw_ts", "chfdw_tf"};
	const char *parts[7];
	int			nparts;
	int			i;
	ListCell   *lc;
	int			n = 0;

	Assert(v && nodes);
	if (date)
	{
		/* the date as the midnight its timestamp is (a zoned marker on a Date) */
		StringInfoData c;
		const char *p[3] = {"toYear", "toMonth", "toDayOfMonth"};
		const char *specs[3] = {"Y", "M", "D"};	/* (dates18) */

		initStringInfo(&c);
		chfdw_deparse_zoned_column(&c, cx->relid, v->varattno, true);
		for (i = 0; i < 3; i++)
			parts[i] = chfdw_epoch_marker(v->varattno, 'd', specs[i],
										  psprintf("toInt64(%s(%s))", p[i], c.data));
		parts[3] = parts[4] = parts[5] = parts[6] = "toInt64(0)";
	}
	else
	{
		wall_time(cx, (Node *) v, &w);
		parts[0] = w.y->expr;
		parts[1] = w.m->expr;
		parts[2] = w.d->expr;
		parts[3] = w.h->expr;
		parts[4] = w.mi->expr;
		parts[5] = w.s->expr;
		parts[6] = w.f->expr;
	}
	nparts = (needs & TN_FRAC) ? 7 : (needs & TN_TIME) ? 6 : 3;

	/*
	 * The parts, bound once; then the day of the year and the ISO day of
	 * the week, from which the keywords' forms compute the rest. Two
	 * levels: the 26.5 engine's analyzer took 0.14 s for ISO week's form
	 * so, 0.27 s with a third level for the ISO year and week, 0.43 s with
	 * one level and everything written out (an empty table, per query).
	 */
	appendStringInfoString(buf, "arrayMap((");
	for (i = 0; i < nparts; i++)
		appendStringInfo(buf, "%s%s", i > 0 ? ", " : "", names[i]);
	appendStringInfoString(buf, ") -> ");
	if (needs & TN_DOY)
		appendStringInfo(buf, "arrayMap((chfdw_tdoy%s) -> ", (needs & TN_IDW) ? ", chfdw_tidw" : "");
	appendStringInfoString(buf, "if(isNull(chfdw_ty), NULL, concat(");
	foreach(lc, nodes)
	{
		TcNode	   *nd = lfirst(lc);

		if (n++ > 0)
			appendStringInfoString(buf, ", ");
		if (nd->word)
			appendStringInfoString(buf, tc_keyword(nd));
		else
			chfdw_quote_literal(buf, nd->text.data);
	}
	/* 18.16's concat() wants two arguments or more */
	if (n == 1)
		appendStringInfoString(buf, ", ''");
	appendStringInfoString(buf, "))");
	if (needs & TN_DOY)
	{
		appendStringInfo(buf, ", [%s]", TC_DOY);
		if (needs & TN_IDW)
			appendStringInfo(buf, ", [%s]", TC_IDW);
		appendStringInfoString(buf, ")[1]");
	}
	for (i = 0; i < nparts; i++)
		appendStringInfo(buf, ", [%s]", parts[i]);
	appendStringInfoString(buf, ")[1]");
}

/* ---- tochar: date_trunc() compared with a constant ---- */

/*
 * date_trunc('field', column) = <> < <= > >= a constant of its type (a
 * timestamp; a timestamptz under the session zone rule, read in UTC):
 * date_trunc's text (chfdw_deparse_date_trunc: 'YYYY-MM-DD HH:MI:SS', with
 * '.ffffff' for milliseconds and microseconds, fixed width, four-digit
 * years) compared as bytes with the constant's text in the same form. The
 * constant's fraction is written when date_trunc's is or when it is not
 * zero: the same width orders as time, and a text without a fraction that
 * is a prefix of one with a fraction sorts first, as the instant .000000
 * before it; neither is equal. Constants of years 1000 .. 9999 only
 * (finite, four digits).
 */
static bool
trunc_call(ShipCtx *cx, Node *n)
{
	FuncExpr   *f;
	const ChFnRow *row;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, FuncExpr) || ((FuncExpr *) n)->funcid >= FirstGenbkiObjectId)
		return false;
	f = (FuncExpr *) n;
	row = chfdw_fn_row(f->funcid);
	return row && row->check == chfdw_check_date_trunc && list_length(f->args) == 2 &&
		field_in(linitial(f->args), trunc_fields, lengthof(trunc_fields)) &&
		plain_ts_column(cx, lsecond(f->args));
}

/* the constant's wall time (UTC for timestamptz), or false */
static bool
trunc_const(Node *n, Oid type, struct pg_tm *tm, fsec_t *fsec)
{
	Const	   *c;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Const) || ((Const *) n)->constisnull || ((Const *) n)->consttype != type)
		return false;
	c = (Const *) n;
	if (TIMESTAMP_NOT_FINITE(DatumGetTimestamp(c->constvalue)) ||
		timestamp2tm(DatumGetTimestamp(c->constvalue), NULL, tm, fsec, NULL, NULL) != 0)
		return false;
	return tm->tm_year >= 1000 && tm->tm_year <= 9999;
}

static bool
trunc_compare_op(const char *name)
{
	return strcmp(name, "=") == 0 || strcmp(name, "<>") == 0 || strcmp(name, "<") == 0 ||
		strcmp(name, "<=") == 0 || strcmp(name, ">") == 0 || strcmp(name, ">=") == 0;
}

bool
chfdw_date_trunc_compare_shippable(ShipCtx *cx, OpExpr *op, const char *name)
{
	Node	   *l,
			   *r;
	struct pg_tm tm;
	fsec_t		fsec;

	if (list_length(op->args) != 2 || !trunc_compare_op(name))
		return false;
	l = linitial(op->args);
	r = lsecond(op->args);
	if (trunc_call(cx, r))
	{
		Node	   *t = l;

		l = r;
		r = t;
	}
	return trunc_call(cx, l) && trunc_const(r, exprType(l), &tm, &fsec);
}

void
chfdw_deparse_date_trunc_compare(StringInfo buf, ShipCtx *cx, OpExpr *op, const char *name)
{
	Node	   *l = linitial(op->args);
	Node	   *r = lsecond(op->args);
	FuncExpr   *f;
	const char *field;
	struct pg_tm tm;
	fsec_t		fsec;
	const char *o = name;
	char		text[64];

	if (!trunc_call(cx, l))
	{
		Node	   *t = l;

		l = r;
		r = t;
		/* the constant was on the left: the operator mirrored */
		o = strcmp(name, "<") == 0 ? ">" : strcmp(name, "<=") == 0 ? ">=" :
			strcmp(name, ">") == 0 ? "<" : strcmp(name, ">=") == 0 ? "<=" : name;
	}
	f = (FuncExpr *) chfdw_strip_relabel(l);
	field = chfdw_const_text(linitial(f->args));
	if (!trunc_const(r, exprType(l), &tm, &fsec))
		elog(ERROR, "date_trunc comparison not shippable");
	snprintf(text, sizeof(text), "%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year, tm.tm_mon,
			 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	if (fsec != 0 || pg_strcasecmp(field, "microseconds") == 0 ||
		pg_strcasecmp(field, "milliseconds") == 0)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), ".%06d", (int) fsec);
	appendStringInfoChar(buf, '(');
	if (cx->allow_aggs)
	{
		/* HAVING: the form of the grouping key, which ClickHouse matches */
		chfdw_deparse_date_trunc(buf, cx, f->args, NULL);
	}
	else
	{
		/*
		 * WHERE: the parts bound once by a lambda, as to_char's: the key's
		 * form repeats each part's SQL (with its column markers' guards:
		 * 25 KB for 'week' of a New York DateTime on 18.16), and a few
		 * such comparisons passed ClickHouse's max_query_size (256 KiB),
		 * which it reports as a syntax error
		 */
		WallTime	w;
		WallTime	names;
		const char *const nm[7] = {"chfdw_ty", "chfdw_tm", "chfdw_td", "chfdw_th", "chfdw_ti",
		"chfdw_ts", "chfdw_tf"};

		wall_time(cx, lsecond(f->args), &w);
		names.y = rep(nm[0]);
		names.m = rep(nm[1]);
		names.d = rep(nm[2]);
		names.h = rep(nm[3]);
		names.mi = rep(nm[4]);
		names.s = rep(nm[5]);
		names.f = rep(nm[6]);
		appendStringInfo(buf, "arrayMap((%s, %s, %s, %s, %s, %s, %s) -> ", nm[0], nm[1], nm[2],
						 nm[3], nm[4], nm[5], nm[6]);
		trunc_text(buf, cx, field, &names);
		/* the fraction only where date_trunc reads it (its marker may raise) */
		appendStringInfo(buf, ", [%s], [%s], [%s], [%s], [%s], [%s], [%s])[1]", w.y->expr,
						 w.m->expr, w.d->expr, w.h->expr, w.mi->expr, w.s->expr,
						 (pg_strcasecmp(field, "microseconds") == 0 ||
						  pg_strcasecmp(field, "milliseconds") == 0) ? w.f->expr : "toInt64(0)");
	}
	appendStringInfo(buf, " %s ", strcmp(o, "<>") == 0 ? "!=" : o);
	chfdw_quote_literal(buf, text);
	appendStringInfoChar(buf, ')');
}
