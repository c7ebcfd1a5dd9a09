/*-------------------------------------------------------------------------
 * pushdown_map.c
 *	  The PostgreSQL functions and value operators ClickHouse computes with
 *	  PostgreSQL's answer: one row each, its ClickHouse form, what it needs.
 *
 * A row names its PostgreSQL function or operator by its signature
 * (regprocedure / regoperator text), resolved to an OID once per backend;
 * the walker in shippable.c finds a FuncExpr's or OpExpr's row by OID, so
 * an overloaded name is sent only for the argument types a row lists. A
 * row gives its ClickHouse form as a template ($1..$9: the arguments,
 * deparsed) or a deparse callback for the hard ones, an optional check of
 * its arguments (constants within bounds), its guards (CHFN_*: a UTF-8
 * database, the C ctype, the session's TimeZone, "raises where PostgreSQL
 * raises") and the server capability it needs (a ch_caps field: the
 * forms without one are read alike by ClickHouse 18.16 and the 26.5 engine,
 * see the README's "What is sent").
 *
 * A function or operator without a row is evaluated by PostgreSQL.
 *
 * src/fdw/pushdown_map.c
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

/* ---- argument helpers ---- */

static bool
null_const(Node *n)
{
	n = chfdw_strip_relabel(n);
	return n && IsA(n, Const) && ((Const *) n)->constisnull;
}

static bool
int_const(Node *n, int64 *v)
{
	Const	   *c;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Const) || ((Const *) n)->constisnull)
		return false;
	c = (Const *) n;
	switch (c->consttype)
	{
		case INT2OID:
			*v = DatumGetInt16(c->constvalue);
			return true;
		case INT4OID:
			*v = DatumGetInt32(c->constvalue);
			return true;
		case INT8OID:
			*v = DatumGetInt64(c->constvalue);
			return true;
		default:
			return false;
	}
}

/* A string literal of a function taking "any" (its type stays unknown). */
static bool
unknown_literal(Node *n)
{
	n = chfdw_strip_relabel(n);
	return n && IsA(n, Const) && ((Const *) n)->consttype == UNKNOWNOID &&
		!((Const *) n)->constisnull;
}

static void
arg(StringInfo buf, ShipCtx *cx, List *args, int i)
{
	chfdw_deparse_value(buf, cx, list_nth(args, i));
}

/* ---- checks and deparse callbacks ---- */

/* concat("any"...) of text values and literals ('-' stays unknown) */
static bool
check_concat(ShipCtx *cx, List *args, const ChFnRow *row)
{
	ListCell   *lc;

	(void) row;
	if (args == NIL)
		return false;
	foreach(lc, args)
		if (!unknown_literal(lfirst(lc)) &&
			(chfdw_type_class(exprType(lfirst(lc))) != TC_TEXT ||
			 !chfdw_value_shippable(cx, lfirst(lc)) || null_const(lfirst(lc))))
			return false;
	return true;
}

/* concat(coalesce(x, ''), ...): PostgreSQL skips NULLs */
static void
deparse_concat(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	ListCell   *lc;
	bool		first = true;

	(void) row;
	appendStringInfoString(buf, "concat(");
	foreach(lc, args)
	{
		if (!first)
			appendStringInfoString(buf, ", ");
		first = false;
		if (unknown_literal(lfirst(lc)))
			chfdw_quote_literal(buf, DatumGetCString(((Const *) chfdw_strip_relabel(lfirst(lc)))->constvalue));
		else
		{
			appendStringInfoString(buf, "coalesce(");
			chfdw_deparse_value(buf, cx, lfirst(lc));
			appendStringInfoString(buf, ", '')");
		}
	}
	/* 18.16's concat() wants two arguments or more */
	if (list_length(args) == 1)
		appendStringInfoString(buf, ", ''");
	appendStringInfoChar(buf, ')');
}

/*
 * substr(s, start[, len]) with constants start >= 1 and len >= 0:
 * PostgreSQL counts a start below 1 into the length; ClickHouse from the
 * end.
 */
static bool
check_substr(ShipCtx *cx, List *args, const ChFnRow *row)
{
	int64		start,
				len = 0;

	(void) cx;
	(void) row;
	if (!int_const(lsecond(args), &start) || start < 1 || start > PG_INT32_MAX)
		return false;
	if (list_length(args) == 3 &&
		(!int_const(lthird(args), &len) || len < 0 || len > PG_INT32_MAX))
		return false;
	return true;
}

/* round(double precision): half to even */
static void
deparse_round(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	(void) row;

	/*
	 * PostgreSQL rounds half to even (rint), ClickHouse 18.16 half away from
	 * zero: an exact half is rounded as 2 * round(x / 2).
	 */
	appendStringInfoString(buf, "if(abs(");
	arg(buf, cx, args, 0);
	appendStringInfoString(buf, " - trunc(");
	arg(buf, cx, args, 0);
	appendStringInfoString(buf, ")) = 0.5, 2 * round(");
	arg(buf, cx, args, 0);
	appendStringInfoString(buf, " / 2), round(");
	arg(buf, cx, args, 0);
	appendStringInfoString(buf, "))");
}

/* integer / and % by a constant other than 0 and -1: cannot raise */
static bool
check_const_divisor(ShipCtx *cx, List *args, const ChFnRow *row)
{
	int64		v;

	(void) cx;
	(void) row;
	return int_const(lsecond(args), &v) && v != 0 && v != -1;
}

/* ---- date parts ---- */

/* (dates) second .. doy of timestamp and timestamptz columns, further below */

/* A field of extract()/date_part() and its ClickHouse form. */
typedef struct FieldMap
{
	const char *field;
	const char *form;			/* %s: the value (and ", 'UTC'" for
								 * timestamptz) */
	bool		for_date;		/* sent for date */
	bool		for_ts;			/* sent for timestamptz */
} FieldMap;

/*
 * Fields ClickHouse computes as PostgreSQL over every value its columns
 * hold (checked on both engines at 1900, 1950, 1970, 2200 and 2299 for
 * DateTime64 and Date32; every year a Date or DateTime holds is positive,
 * so century and millennium need no year-0 rule). Not here: doy (26.5
 * says 364 for 2299-12-31 in Date32 and DateTime64), dow/isodow of
 * timestamptz (toDayOfWeek's zone argument moved between versions, and the
 * toDate()/toDateTime() a portable form needs clamps DateTime64 values
 * outside 1970..2149), second and epoch of timestamptz (DateTime64
 * fractions): of plain columns the dates section computes them by
 * arithmetic, as date_trunc. timestamptz::date is not sent:
 * toStartOf*() and toDate() return Date, which clamps DateTime64 values
 * before 1970 or after 2149 (26.5: date_trunc('month') of 1950-06-15 gave
 * 1970-01-01).
 */
static const FieldMap field_map[] = {
	{"year", "toYear(%s)", true, true},
	{"quarter", "toQuarter(%s)", true, true},
	{"month", "toMonth(%s)", true, true},
	/*
	 * 18.16's toISOWeek() is wrong through ISO year 1970 (which starts on
	 * 1969-12-29, before its table of days: 112 for 1970-01-05) and, for
	 * a DateTime, through ISO year 2106 (40 for 2106-01-07): those years'
	 * weeks are counted from their first Monday, day -3 and day 49676
	 * (2106-01-04) since 1970-01-01 (1969-12-29..31: week 1, as day
	 * numbers before 1970 wrap in 26.5's toRelativeDayNum()).
	 */
	{"week", "toUInt8(multiIf(toISOYear(%1$s) = 1970, if(toYear(%1$s) = 1969, 1, "
		"intDiv(toInt32(toRelativeDayNum(%1$s)) + 3, 7) + 1), "
		"toISOYear(%1$s) = 2106, intDiv(toInt32(toRelativeDayNum(%1$s)) - 49676, 7) + 1, "
		"toInt32(toISOWeek(%1$s))))",
	true, true},
	{"day", "toDayOfMonth(%s)", true, true},
	{"hour", "toHour(%s)", false, true},
	{"minute", "toMinute(%s)", false, true},
	{"isodow", "toDayOfWeek(%s)", true, false},
	{"dow", "modulo(toDayOfWeek(%s), 7)", true, false},	/* Sunday is 0 */
	{"isoyear", "toISOYear(%s)", true, true},
	{"decade", "intDiv(toYear(%s), 10)", true, true},
	{"century", "intDiv(toYear(%s) + 99, 100)", true, true},
	{"millennium", "intDiv(toYear(%s) + 999, 1000)", true, true},
	/* a date's day number (toInt32 of a Date or Date32) */
	{"epoch", "toInt64(toInt32(%s)) * 86400", true, false},
	{"julian", "toInt64(toInt32(%s)) + 2440588", true, false},
};

static const FieldMap *
find_field(Node *n)
{
	const char *f = chfdw_const_text(n);
	int			i;

	if (!f)
		return NULL;
	for (i = 0; i < (int) lengthof(field_map); i++)
		if (pg_strcasecmp(f, field_map[i].field) == 0)
			return &field_map[i];
	return NULL;
}

/* row->arg: "date" or "ts" */
static bool
check_extract(ShipCtx *cx, List *args, const ChFnRow *row)
{
	const FieldMap *fm = find_field(linitial(args));
	bool		ts = strcmp(row->arg, "ts") == 0;

	if (ts && chfdw_dates5_qualified_date(cx, lsecond(args)))
		return false;			/* (dates5) */
	if (ts && chfdw_check_date_field(cx, args, strncmp(row->sig, "date_part", 9) == 0))
		return true;			/* (dates) */
	if (!fm || (!ts && !fm->for_date) || (ts && !fm->for_ts))
		return false;
	return !ts || chfdw_session_zone() != NULL;
}

static void guarded(StringInfo buf, ShipCtx *cx, const char *cond, ChFdwRaise kind,
					const char *value);

static void
deparse_extract(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	const FieldMap *fm = find_field(linitial(args));
	StringInfoData v;

	if (chfdw_epoch_extract(buf, cx, args, row, deparse_extract))
		return;					/* (dates18) from the epoch where Date32 is missing */
	if (strcmp(row->arg, "ts") == 0 && chfdw_is_date_field(linitial(args)))
	{
		chfdw_deparse_date_field(buf, cx, args, row);	/* (dates) */
		return;
	}
	initStringInfo(&v);
	/* a timestamptz column: guarded where 18.16's days end (groupby) */
	if (strcmp(row->arg, "ts") == 0 && !cx->qualify && OidIsValid(cx->relid) &&
		chfdw_is_our_var(cx, lsecond(args)))
		chfdw_deparse_zoned_column(&v, cx->relid,
								   ((Var *) chfdw_strip_relabel(lsecond(args)))->varattno, false);
	else
		arg(&v, cx, args, 1);
	if (strcmp(row->arg, "ts") == 0)
		chfdw_deparse_zone(&v, cx);
	else if (strcmp(fm->field, "epoch") != 0 && strcmp(fm->field, "julian") != 0)
	{
		/*
		 * 18.16's date functions answer 1970 for every Date from
		 * 2106-02-08 (day 49711) on: toYear(toDate('2149-06-06')) is 1970
		 * there, a constant the query tests, so servers whose date
		 * functions reach 2149 compute every date as before. On such a
		 * server a later date is read 36524 days (100 years) earlier,
		 * which keeps its month and day (the century from 2100-03-01 to
		 * 2200-02-28 and the one before it have as many leap days), so
		 * year, quarter, month, day, decade, century and millennium are
		 * computed from that date; the other fields raise for it. The
		 * day-number fields need no table of days.
		 */
		static const struct
		{
			const char *field;
			const char *delta;	/* added to the earlier date's part */
		}			shifted[] = {
			{"year", " + 100"}, {"quarter", ""}, {"month", ""}, {"day", ""},
			{"decade", " + 10"}, {"century", " + 1"}, {"millennium", ""},
		};
		const char *past = psprintf("toInt32(%s) > 49710 AND toYear(toDate('2149-06-06')) != 2149",
									v.data);
		int			i;

		for (i = 0; i < (int) lengthof(shifted); i++)
			if (strcmp(fm->field, shifted[i].field) == 0)
			{
				appendStringInfo(buf, "if(%s, ", past);
				appendStringInfo(buf, fm->form, psprintf("subtractDays(%s, 36524)", v.data));
				appendStringInfo(buf, "%s, ", shifted[i].delta);
				appendStringInfo(buf, fm->form, v.data);
				appendStringInfoChar(buf, ')');
				return;
			}
		guarded(buf, cx, past, CHFDW_RAISE_DATE_PARTS, psprintf(fm->form, v.data));
		return;
	}
	appendStringInfo(buf, fm->form, v.data);
}

/* ---- date parts of timestamp (without time zone) columns (groupby) ---- */

/*
 * A column declared timestamp holds the wall time of its ClickHouse value
 * in the column's own zone (DateTime('tz'), DateTime64(p, 'tz'); UTC when
 * it names none: convert.c), whatever the session's TimeZone. Its date
 * parts are that wall time's, so ClickHouse computes them in that zone:
 * toYear(col, 'zone'). Which zone only the remote catalog says (18.16's
 * HTTP answers drop it from the type name), so the column is written as a
 * marker resolved when the query starts (chfdw_deparse_zoned_column). The
 * fields are field_map's timestamptz ones, checked there for DateTime and
 * DateTime64 over their ranges. Only a plain column of the scanned table
 * (a join's SQL does not resolve markers).
 */
static bool
check_extract_local_ts(ShipCtx *cx, List *args, const ChFnRow *row)
{
	const FieldMap *fm = find_field(linitial(args));
	Node	   *n = chfdw_strip_relabel(lsecond(args));
	Var		   *v;

	(void) row;
	if (chfdw_check_date_field(cx, args, strncmp(row->sig, "date_part", 9) == 0))
		return true;			/* (dates) */
	if (fm && fm->for_date && chfdw_dates5_date_cast(cx, n))
		return true;			/* (dates5) date_part(text, date) */
	if (!fm || !fm->for_ts || !n || !IsA(n, Var) || cx->qualify || !OidIsValid(cx->relid))
		return false;
	v = (Var *) n;
	return v->vartype == TIMESTAMPOID && v->varlevelsup == 0 && v->varattno > 0 &&
		bms_is_member(v->varno, cx->visible) &&
		chfdw_column_read_as(cx->relid, v->varattno) == 0;
}

static void
deparse_extract_local_ts(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	const FieldMap *fm = find_field(linitial(args));
	Var		   *v = (Var *) chfdw_strip_relabel(lsecond(args));
	StringInfoData c;

	if (chfdw_is_date_field(linitial(args)))
	{
		chfdw_deparse_date_field(buf, cx, args, row);	/* (dates) */
		return;
	}
	if (chfdw_dates5_date_cast(cx, (Node *) v))
	{
		/* (dates5) date_part(text, date): extract(text, date)'s form */
		ChFnRow		r = *row;

		r.arg = "date";
		deparse_extract(buf, cx, list_make2(linitial(args), chfdw_dates5_date_cast(cx, (Node *) v)), &r);
		return;
	}
	initStringInfo(&c);
	chfdw_deparse_zoned_column(&c, cx->relid, v->varattno, true);
	appendStringInfo(buf, fm->form, c.data);
}

/* ---- more strings ---- */

static const char *
dv(ShipCtx *cx, List *args, int i)
{
	StringInfoData b;

	initStringInfo(&b);
	arg(&b, cx, args, i);
	return b.data;
}

/* split_part(s, 'delimiter', n): a constant delimiter and n other than 0 */
static bool
check_split_part(ShipCtx *cx, List *args, const ChFnRow *row)
{
	const char *d = chfdw_const_text(lsecond(args));
	int64		n;

	(void) cx;
	(void) row;
	return d && d[0] && int_const(lthird(args), &n) && n != 0;
}

/* replace(s, 'from', 'to'): constants, from not empty (18.16 refuses it) */
static bool
check_replace(ShipCtx *cx, List *args, const ChFnRow *row)
{
	const char *from = chfdw_const_text(lsecond(args));

	(void) cx;
	(void) row;
	return from && from[0] && chfdw_const_text(lthird(args)) != NULL;
}

/* left(s, n) / right(s, n) with a constant n */
static bool
check_const_n(ShipCtx *cx, List *args, const ChFnRow *row)
{
	int64		n;

	(void) cx;
	(void) row;
	return int_const(lsecond(args), &n) && n > PG_INT32_MIN;
}

/*
 * left(s, n): the first n characters, all but the last -n when negative;
 * right(s, n): the last n, all but the first -n. 18.16's substringUTF8
 * wants a constant length: the end of a string is cut by reversing it.
 */
static void
deparse_left_right(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	int64		n;
	const char *s = dv(cx, args, 0);
	bool		left = row->arg[0] == 'l';

	int_const(lsecond(args), &n);
	if (left && n >= 0)
		appendStringInfo(buf, "substringUTF8(%s, 1, " INT64_FORMAT ")", s, n);
	else if (left)
		appendStringInfo(buf, "reverseUTF8(substringUTF8(reverseUTF8(%s), " INT64_FORMAT
						 ", 2147483647))", s, 1 - n);
	else if (n >= 0)
		appendStringInfo(buf, "reverseUTF8(substringUTF8(reverseUTF8(%s), 1, " INT64_FORMAT
						 "))", s, n);
	else
		appendStringInfo(buf, "substringUTF8(%s, " INT64_FORMAT ", 2147483647)", s, 1 - n);
}

/* btrim/ltrim/rtrim(s, 'characters'): printable ASCII characters */
static bool
check_trim_chars(ShipCtx *cx, List *args, const ChFnRow *row)
{
	const char *c = chfdw_const_text(lsecond(args));

	(void) cx;
	(void) row;
	if (!c || !c[0])
		return false;
	for (; *c; c++)
		if (*c < 0x20 || *c > 0x7e)
			return false;
	return true;
}

/* The characters as a bracket expression of ClickHouse's regular expressions. */
static void
char_class(StringInfo buf, const char *c)
{
	appendStringInfoChar(buf, '[');
	for (; *c; c++)
	{
		if (strchr("\\]^-[", *c))
			appendStringInfoChar(buf, '\\');
		appendStringInfoChar(buf, *c);
	}
	appendStringInfoString(buf, "]+");
}

static void
deparse_trim_chars(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	StringInfoData re,
				cls;

	initStringInfo(&cls);
	char_class(&cls, chfdw_const_text(lsecond(args)));
	initStringInfo(&re);
	if (row->arg[0] == 'b')
		appendStringInfo(&re, "^%s|%s$", cls.data, cls.data);
	else if (row->arg[0] == 'l')
		appendStringInfo(&re, "^%s", cls.data);
	else
		appendStringInfo(&re, "%s$", cls.data);
	appendStringInfo(buf, "%s(%s, ", row->arg[0] == 'b' ? "replaceRegexpAll" : "replaceRegexpOne",
					 dv(cx, args, 0));
	chfdw_quote_literal(buf, re.data);
	appendStringInfoString(buf, ", '')");
}

/* concat_ws('separator', text values and literals...): NULLs skipped */
static bool
check_concat_ws(ShipCtx *cx, List *args, const ChFnRow *row)
{
	if (list_length(args) < 2 || !chfdw_const_text(linitial(args)))
		return false;
	return check_concat(cx, list_delete_first(list_copy(args)), row);
}

static void
deparse_concat_ws(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	ListCell   *lc;

	(void) row;
	appendStringInfoString(buf, "arrayStringConcat(arrayMap(chfdw_x -> assumeNotNull(chfdw_x), "
						   "arrayFilter(chfdw_x -> isNotNull(chfdw_x), [");
	for_each_from(lc, args, 1)
	{
		if (foreach_current_index(lc) > 1)
			appendStringInfoString(buf, ", ");
		if (unknown_literal(lfirst(lc)))
			chfdw_quote_literal(buf, DatumGetCString(((Const *) chfdw_strip_relabel(lfirst(lc)))->constvalue));
		else
			chfdw_deparse_value(buf, cx, lfirst(lc));
	}
	appendStringInfoString(buf, "])), ");
	arg(buf, cx, args, 0);
	appendStringInfoChar(buf, ')');
}

/* ---- arithmetic that raises PostgreSQL's errors ---- */

/*
 * ClickHouse raises where a condition is true: the guard converts, for that
 * row only, a marker string of the FDW's to a number,
 * toInt8(multiIf(c1, 'chfdw-error:div0', c2, 'chfdw-error:int4', '0')) = 0,
 * which fails with CANNOT_PARSE_TEXT quoting the marker; error.c reports
 * PostgreSQL's own SQLSTATE and message for it (chfdw_raise_marker). The
 * conditions are tested in PostgreSQL's order, so a row meeting two gets
 * the error PostgreSQL checks first. This raises per row on ClickHouse
 * 18.16 (whose throwIf() takes no message) and the 26.5 engine alike. A
 * NULL condition (an operand is NULL) never raises, as PostgreSQL's strict
 * operators do not. The guard is the condition of if(guard, v, v), which
 * every version evaluates for every row.
 */
#define MAX_RAISE 3

typedef struct Raise
{
	int			n;
	const char *cond[MAX_RAISE];
	ChFdwRaise	kind[MAX_RAISE];
} Raise;

static void
raise_add(Raise *r, const char *cond, ChFdwRaise kind)
{
	Assert(r->n < MAX_RAISE);
	r->cond[r->n] = cond;
	r->kind[r->n] = kind;
	r->n++;
}

static void
raise_guard(StringInfo buf, const Raise *r)
{
	int			i;

	appendStringInfoString(buf, "toInt8(multiIf(");
	for (i = 0; i < r->n; i++)
		appendStringInfo(buf, "ifNull(%s, 0), '%s', ", r->cond[i], chfdw_raise_marker(r->kind[i]));
	appendStringInfoString(buf, "'0')) = 0");
}

/* the out-of-range error of an integer result (row->arg[0]: its width) */
static ChFdwRaise
int_range(const ChFnRow *row)
{
	return row->arg[0] == '2' ? CHFDW_RAISE_INT2 : row->arg[0] == '4' ? CHFDW_RAISE_INT4 :
		CHFDW_RAISE_INT8;
}

/*
 * A subexpression a form uses several times: written once as
 * "(expr AS chfdw_vN)" and elsewhere by its name (ClickHouse resolves an
 * alias wherever in the expression it is defined), so nested forms grow
 * linearly. Without a deparse context (never while deparsing) the text is
 * repeated.
 */
static Sub *
sub(ShipCtx *cx, const char *expr)
{
	Sub		   *s = palloc0(sizeof(Sub));

	s->expr = expr;
	if (cx->dp)
		s->name = psprintf("chfdw_v%d", ++cx->dp->nalias);
	return s;
}

const char *
chfdw_pm_use(Sub *s)
{
	if (!s->name)
		return psprintf("(%s)", s->expr);
	if (s->defined)
		return s->name;
	s->defined = true;
	return psprintf("(%s AS %s)", s->expr, s->name);
}

/* (casts) sub() for pushdown_casts.c */
Sub *
chfdw_pm_sub(ShipCtx *cx, const char *expr)
{
	return sub(cx, expr);
}

/* if(guard, v, v) */
static void
guarded_by(StringInfo buf, ShipCtx *cx, const Raise *r, const char *value)
{
	Sub		   *v = sub(cx, value);

	appendStringInfoString(buf, "if(");
	raise_guard(buf, r);
	appendStringInfo(buf, ", %s, ", chfdw_pm_use(v));
	appendStringInfo(buf, "%s)", chfdw_pm_use(v));
}

/* one condition raising kind */
static void
guarded(StringInfo buf, ShipCtx *cx, const char *cond, ChFdwRaise kind, const char *value)
{
	Raise		r = {0};

	raise_add(&r, cond, kind);
	guarded_by(buf, cx, &r, value);
}

/* row->arg: the result type's width, "2", "4" or "8" */
static const char *
int_min(const ChFnRow *row)
{
	return row->arg[0] == '2' ? "-32768" : row->arg[0] == '4' ? "-2147483648" :
		"(-9223372036854775807 - 1)";
}

static const char *
int_max(const ChFnRow *row)
{
	return row->arg[0] == '2' ? "32767" : row->arg[0] == '4' ? "2147483647" :
		"9223372036854775807";
}

static const char *
int_cast(const ChFnRow *row)
{
	return row->arg[0] == '2' ? "toInt16" : row->arg[0] == '4' ? "toInt32" : "toInt64";
}

/*
 * Integer + - * (row->arg: width, operator). Results of smallint and
 * integer are exact in Int64, then range-checked; bigint wraps in Int64 and
 * the overflow is found from the signs (+ -) or by dividing back (*).
 */
static void
deparse_int_arith(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	Sub		   *a = sub(cx, psprintf("toInt64(%s)", dv(cx, args, 0)));
	Sub		   *b = sub(cx, psprintf("toInt64(%s)", dv(cx, args, 1)));
	char		op = row->arg[1];
	Sub		   *r;
	const char *cond;

	r = sub(cx, psprintf("%s %c %s", chfdw_pm_use(a), op, chfdw_pm_use(b)));
	if (row->arg[0] != '8')
	{
		const char *r1 = chfdw_pm_use(r);

		cond = psprintf("%s < %s OR %s > %s", r1, int_min(row), chfdw_pm_use(r), int_max(row));
	}
	else if (op == '+' || op == '-')
	{
		const char *a1 = chfdw_pm_use(a);
		const char *b1 = chfdw_pm_use(b);
		const char *r1 = chfdw_pm_use(r);

		/* + : same signs in, another out; - : different signs in */
		cond = psprintf("((%s >= 0) %s (%s >= 0)) AND ((%s >= 0) != (%s >= 0))",
						a1, op == '+' ? "=" : "!=", b1, r1, chfdw_pm_use(a));
	}
	else
	{
		Sub		   *na = sub(cx, psprintf("assumeNotNull(%s)", chfdw_pm_use(a)));
		Sub		   *nb = sub(cx, psprintf("assumeNotNull(%s)", chfdw_pm_use(b)));
		const char *r1 = chfdw_pm_use(r);
		const char *na1 = chfdw_pm_use(na);
		const char *nb1 = chfdw_pm_use(nb);
		const char *na2 = chfdw_pm_use(na);
		const char *na3 = chfdw_pm_use(na);
		const char *nb2 = chfdw_pm_use(nb);
		const char *na4 = chfdw_pm_use(na);
		const char *na5 = chfdw_pm_use(na);
		const char *nb3 = chfdw_pm_use(nb);

		/* r / a != b, with a of 0 and -1 apart (MIN / -1 overflows) */
		cond = psprintf("isNotNull(%s) AND ((%s = -1 AND %s = %s) OR "
						"(%s NOT IN (0, -1) AND intDiv(%s * %s, if(%s IN (0, -1), 1, %s)) != %s))",
						r1, na1, nb1, int_min(row), na2, na3, nb2, na4, na5, nb3);
	}
	guarded(buf, cx, cond, int_range(row), psprintf("%s(%s)", int_cast(row), chfdw_pm_use(r)));
}

/*
 * Integer / and % (row->arg: width, operator): by a constant other than 0
 * and -1, intDiv/modulo (truncating toward zero, as PostgreSQL); by
 * anything else only where errors may be raised: division by zero, and
 * MIN / -1 out of range (MIN % -1 is 0).
 */
static bool
check_int_div(ShipCtx *cx, List *args, const ChFnRow *row)
{
	return check_const_divisor(cx, args, row) || cx->may_raise;
}

static void
deparse_int_div(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	Sub		   *a;
	Sub		   *b;
	Sub		   *nb;
	const char *d;
	const char *v;
	const char *div0;
	bool		div = row->arg[1] == '/';

	if (check_const_divisor(cx, args, row))
	{
		appendStringInfo(buf, "%s(%s, %s)", div ? "intDiv" : "modulo", dv(cx, args, 0),
						 dv(cx, args, 1));
		return;
	}
	a = sub(cx, psprintf("toInt64(%s)", dv(cx, args, 0)));
	b = sub(cx, psprintf("toInt64(%s)", dv(cx, args, 1)));
	nb = sub(cx, psprintf("assumeNotNull(%s)", chfdw_pm_use(b)));
	/* the divisor, never 0 or -1 (nor a NULL's stored 0) */
	{
		const char *n1 = chfdw_pm_use(nb);

		d = psprintf("if(%s IN (0, -1), 1, %s)", n1, chfdw_pm_use(nb));
	}
	if (div)
	{
		const char *b1 = chfdw_pm_use(b);
		const char *n1 = chfdw_pm_use(nb);
		const char *a1 = chfdw_pm_use(a);

		v = psprintf("if(isNull(%s), NULL, %s(if(%s = -1, -%s, intDiv(%s, %s))))",
					 b1, int_cast(row), n1, a1, chfdw_pm_use(a), d);
	}
	else
	{
		const char *b1 = chfdw_pm_use(b);

		v = psprintf("if(isNull(%s), NULL, %s(modulo(%s, %s)))", b1, int_cast(row), chfdw_pm_use(a), d);
	}
	{
		const char *b1 = chfdw_pm_use(b);

		div0 = psprintf("%s = 0 AND isNotNull(%s)", b1, chfdw_pm_use(a));
	}
	{
		Raise		rs = {0};

		/* int4div(): the divisor's zero first, then MIN / -1 */
		raise_add(&rs, div0, CHFDW_RAISE_DIV0);
		if (div)
		{
			const char *b1 = chfdw_pm_use(b);

			raise_add(&rs, psprintf("%s = -1 AND %s = %s", b1, chfdw_pm_use(a), int_min(row)),
					  int_range(row));
		}
		guarded_by(buf, cx, &rs, v);
	}
}

/* abs() and unary minus of integers: MIN is out of range */
static void
deparse_int_neg(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	Sub		   *a = sub(cx, psprintf("toInt64(%s)", dv(cx, args, 0)));
	const char *a1 = chfdw_pm_use(a);

	guarded(buf, cx, psprintf("%s = %s", a1, int_min(row)),
			int_range(row), psprintf("%s(%s(%s))", int_cast(row), row->arg[1] == 'a' ? "abs" : "negate",
						   chfdw_pm_use(a)));
}

/*
 * Narrowing casts (row->arg: the result's width; 'c' from an integer, 'f'
 * from double precision): out of range raises (22003), as int84() and
 * dtoi4() do; a double is rounded half to even first (rint), NaN is out of
 * range.
 */
static void
deparse_narrow(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	Sub		   *a;
	const char *cond;
	const char *a1;

	if (row->arg[1] == 'c')
	{
		a = sub(cx, psprintf("toInt64(%s)", dv(cx, args, 0)));
		a1 = chfdw_pm_use(a);
		cond = psprintf("%s < %s OR %s > %s", a1, int_min(row), chfdw_pm_use(a), int_max(row));
	}
	else
	{
		StringInfoData r;
		const char *lo = row->arg[0] == '2' ? "-32768" : row->arg[0] == '4' ? "-2147483648" :
			"-9223372036854775808.0";
		const char *hi = row->arg[0] == '2' ? "32768" : row->arg[0] == '4' ? "2147483648" :
			"9223372036854775808.0";
		const char *a2;
		const char *a3;

		initStringInfo(&r);
		deparse_round(&r, cx, args, row);
		a = sub(cx, r.data);
		a1 = chfdw_pm_use(a);
		a2 = chfdw_pm_use(a);
		a3 = chfdw_pm_use(a);
		/* FLOAT8_FITS_IN_INT32(): lo <= r < -lo */
		cond = psprintf("isNaN(%s) OR %s < %s OR %s >= %s", a1, a2, lo, a3, hi);
		/* the 26.5 engine refuses to convert NaN and Inf: 0 where the guard raises */
		{
			Sub		   *bad = sub(cx, cond);
			const char *b1 = chfdw_pm_use(bad);

			guarded(buf, cx, b1, int_range(row),
					psprintf("%s(if(%s, 0, %s))", int_cast(row), chfdw_pm_use(bad), chfdw_pm_use(a)));
		}
		return;
	}
	guarded(buf, cx, cond, int_range(row), psprintf("%s(%s)", int_cast(row), chfdw_pm_use(a)));
}

/*
 * double precision + - * / (row->arg: the operator) with float8_pl() and
 * its siblings' checks: an infinite result of finite operands overflows, a
 * zero product of non-zero operands underflows, division by zero raises
 * (unless the dividend is NaN).
 */
static void
deparse_float_arith(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	Sub		   *a = sub(cx, psprintf("toFloat64(%s)", dv(cx, args, 0)));
	Sub		   *b = sub(cx, psprintf("toFloat64(%s)", dv(cx, args, 1)));
	char		op = row->arg[0];
	bool		real = row->arg[1] == 'r';
	Sub		   *r;
	Raise		rs = {0};
	const char *x[8];
	int			i;

	/*
	 * real op real (float4pl/mi/mul/div): ClickHouse computes Float32 with
	 * Float32 in Float64; the exact operands' Float64 result rounded once
	 * to Float32 is the float result C computes (a double holds more than
	 * 2 * 24 + 2 bits, so rounding twice is rounding once for + - * /:
	 * Figueroa, "When is double rounding innocuous?", 1995). The guards
	 * then test the rounded result, as float4pl & co. do.
	 */
	r = sub(cx, psprintf(real ? "toFloat32(%s %c %s)" : "%s %c %s",
						 chfdw_pm_use(a), op, chfdw_pm_use(b)));
	/* a, b, r in turn: each call defines or names it */
	for (i = 0; i < 8; i++)
		x[i] = chfdw_pm_use(i % 3 == 0 ? r : i % 3 == 1 ? a : b);
	if (op == '+' || op == '-')
		raise_add(&rs, psprintf("isInfinite(%s) AND isFinite(%s) AND isFinite(%s)", x[0], x[1], x[2]),
				  CHFDW_RAISE_OVERFLOW);
	else if (op == '*')
	{
		raise_add(&rs, psprintf("isInfinite(%s) AND isFinite(%s) AND isFinite(%s)", x[0], x[1], x[2]),
				  CHFDW_RAISE_OVERFLOW);
		raise_add(&rs, psprintf("%s = 0 AND %s != 0 AND %s != 0", x[3], x[4], x[5]),
				  CHFDW_RAISE_UNDERFLOW);
	}
	else
	{
		raise_add(&rs, psprintf("%s = 0 AND NOT isNaN(%s)", x[2], x[1]), CHFDW_RAISE_DIV0);
		raise_add(&rs, psprintf("isInfinite(%s) AND NOT isInfinite(%s)", x[0], x[4]),
				  CHFDW_RAISE_OVERFLOW);
		raise_add(&rs, psprintf("%s = 0 AND %s != 0 AND NOT isInfinite(%s)", x[3], x[7], x[5]),
				  CHFDW_RAISE_UNDERFLOW);
	}
	guarded_by(buf, cx, &rs, chfdw_pm_use(r));
}

/* ---- fnmore: math with PostgreSQL's argument errors ---- */

/*
 * sqrt(x) of double precision, raising dsqrt()'s error (2201F) where
 * PostgreSQL does: x < 0 (NaN and -0 raise nothing, as there). Square root
 * is correctly rounded by IEEE 754, so ClickHouse's result is PostgreSQL's
 * bit for bit on every host (checked on 60,000 values of every magnitude
 * on both engines).
 *
 * Not sent: exp, ln, log10, cbrt, power and the trigonometric functions.
 * Their results come from the host's libm, which IEEE 754 does not pin to
 * the last bit: they are PostgreSQL's only where both hosts share one
 * libm, and the 26.5 engine (its own libm) differs in the last bit for
 * some values: of the same 60,000, exp for 34 (exp(-3.1869524417639727)
 * is 0.041297536001978795 there, 0.0412975360019788 in glibc), ln for 9;
 * of 4,000, log10 249, cbrt 2087, sin 8, tan 1017, atan 301, power 4.
 */
static void
deparse_sqrt(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	Sub		   *x = sub(cx, psprintf("toFloat64(%s)", dv(cx, args, 0)));
	const char *x1;

	(void) row;
	x1 = chfdw_pm_use(x);
	guarded(buf, cx, psprintf("%s < 0", x1), CHFDW_RAISE_SQRT, psprintf("sqrt(%s)", chfdw_pm_use(x)));
}

/* ---- fnmore: to_char of a few exact patterns ---- */

/*
 * to_char(timestamptz, pattern) in a UTC session for these patterns only,
 * written exactly, built from the date parts extract() sends (toYear ..
 * toSecond with 'UTC': PostgreSQL's answers over every DateTime64 value on
 * the 26.5 engine, toSecond dropping a fraction as SS does), except on the
 * last day of DateTime's range: 18.16's date tables end with 2106-02-06,
 * and it answers 1970-01-01 for a DateTime from 2106-02-07 00:00:00
 * (epoch 4294944000) to 06:28:15, where the parts are computed from the
 * epoch instead (the same on every server). Neither formatDateTime() (its
 * %M became the month's name in 23.x) nor toString() (18.16 writes a
 * DateTime of 0 as 0000-00-00 00:00:00) is portable. Years are four digits
 * in every ClickHouse date type. Parts: Y year, M month, D day, H hour,
 * I minute, S second (two digits).
 *
 * Not sent: to_char of a date (to_char(timestamptz(date), ...)): 18.16's
 * date functions answer 1970-01-01 for every Date from 2106-02-08 to 2149.
 */
typedef struct CharPattern
{
	const char *pattern;
	const char *parts;
} CharPattern;

static const CharPattern char_patterns[] = {
	{"YYYY", "Y"},
	{"YYYY-MM", "Y-M"},
	{"YYYY-MM-DD", "Y-M-D"},
	{"YYYYMMDD", "YMD"},
	{"YYYY-MM-DD HH24:MI", "Y-M-D H:I"},
	{"YYYY-MM-DD HH24:MI:SS", "Y-M-D H:I:S"},
	{"HH24", "H"},
	{"HH24:MI", "H:I"},
	{"HH24:MI:SS", "H:I:S"},
};

#define LAST_DAY_EPOCH "4294944000"	/* 2106-02-07 00:00:00 UTC */

static const CharPattern *
find_char_pattern(Node *n)
{
	const char *p = chfdw_const_text(n);
	int			i;

	if (!p)
		return NULL;
	for (i = 0; i < (int) lengthof(char_patterns); i++)
		if (strcmp(p, char_patterns[i].pattern) == 0)
			return &char_patterns[i];
	return NULL;
}

/* a timestamptz value (the guard CHFN_UTC holds) and a pattern of the list */
static bool
check_to_char(ShipCtx *cx, List *args, const ChFnRow *row)
{
	Node	   *v = linitial(args);

	(void) row;
	if (chfdw_dates5_qualified_date(cx, linitial(args)))
		return false;			/* (dates5) */
	if (!find_char_pattern(lsecond(args)) ||
		chfdw_type_class(exprType(v)) != TC_TIMESTAMPTZ ||
		!chfdw_value_shippable(cx, v) || null_const(v))
		return chfdw_check_tochar(cx, args);	/* (tochar) */
	return true;
}

/* (tochar) to_char of timestamp and date columns, and of other formats */
static bool
check_tochar_row(ShipCtx *cx, List *args, const ChFnRow *row)
{
	(void) row;
	if (chfdw_dates5_qualified_date(cx, linitial(args)))
		return false;			/* (dates5) */
	return chfdw_check_tochar(cx, args);
}

static void
deparse_tochar_row(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	(void) row;
	chfdw_deparse_tochar(buf, cx, args);
}

static void
deparse_to_char(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	const CharPattern *cp = find_char_pattern(lsecond(args));
	Sub		   *x = NULL;
	Sub		   *secs = NULL;	/* seconds into the last day, else NULL */
	const char *p;
	int			n = 0;
	Var		   *col;

	(void) row;
	if (!cp || chfdw_type_class(exprType(linitial(args))) != TC_TIMESTAMPTZ ||
		!chfdw_value_shippable(cx, linitial(args)) || null_const(linitial(args)))
	{
		chfdw_deparse_tochar(buf, cx, args);	/* (tochar) */
		return;
	}
	col = chfdw_dates5_plain_tstz(cx, linitial(args));	/* (dates5) */
	if (!col)
	{
		Sub		   *e;
		const char *e1;
		const char *e2;

		x = sub(cx, dv(cx, args, 0));
		e = sub(cx, psprintf("toInt64(%s)", chfdw_pm_use(x)));
		e1 = chfdw_pm_use(e);
		e2 = chfdw_pm_use(e);
		secs = sub(cx, psprintf("if(%s >= " LAST_DAY_EPOCH " AND %s < 4294967296, %s - "
								LAST_DAY_EPOCH ", NULL)", e1, e2, chfdw_pm_use(e)));
	}
	appendStringInfoString(buf, "concat(");
	for (p = cp->parts; *p; p++, n++)
	{
		const char *fn;
		const char *last;
		StringInfoData zone;
		Sub		   *part;
		const char *p1;
		const char *s1;

		if (n > 0)
			appendStringInfoString(buf, ", ");
		fn = *p == 'Y' ? "toYear" : *p == 'M' ? "toMonth" : *p == 'D' ? "toDayOfMonth" :
			*p == 'H' ? "toHour" : *p == 'I' ? "toMinute" : *p == 'S' ? "toSecond" : NULL;
		if (!fn)
		{
			appendStringInfo(buf, "'%c'", *p);
			continue;
		}
		initStringInfo(&zone);
		chfdw_deparse_zone(&zone, cx);
		if (col)				/* (dates5) a column's part */
			part = sub(cx, chfdw_dates5_column_part(cx, col, *p, fn, zone.data));
		else
		{
			s1 = chfdw_pm_use(secs);
			/* the part on the last day, from the seconds into it */
			last = *p == 'Y' ? "2106" : *p == 'M' ? "2" : *p == 'D' ? "7" :
				*p == 'H' ? psprintf("intDiv(assumeNotNull(%s), 3600)", chfdw_pm_use(secs)) :
				*p == 'I' ? psprintf("modulo(intDiv(assumeNotNull(%s), 60), 60)", chfdw_pm_use(secs)) :
				psprintf("modulo(assumeNotNull(%s), 60)", chfdw_pm_use(secs));
			part = sub(cx, psprintf("if(isNotNull(%s), %s, %s(%s%s))", s1, last, fn,
									chfdw_pm_use(x), zone.data));
		}
		if (*p == 'Y')
		{
			appendStringInfo(buf, "toString(%s)", chfdw_pm_use(part));
			continue;
		}
		p1 = chfdw_pm_use(part);
		appendStringInfo(buf, "concat(if(%s < 10, '0', ''), toString(%s))", p1, chfdw_pm_use(part));
	}
	/* 18.16's concat() wants two arguments or more */
	if (n == 1)
		appendStringInfoString(buf, ", ''");
	appendStringInfoChar(buf, ')');
}

/* ---- fnmore: regexp_replace of fixed-length patterns ---- */

/*
 * regexp_replace(s, 'pattern', 'replacement'[, 'g']) where every match of
 * the pattern has one length: literal printable ASCII characters, escaped
 * punctuation, ".", bracket expressions of ASCII characters and ranges
 * (also negated), "^" first and "$" last; no quantifiers, alternation,
 * groups or class escapes. Such a pattern's leftmost match is the same
 * text in PostgreSQL's ARE (leftmost-longest) and RE2 (leftmost-first), and
 * so are the successive matches of 'g'; elsewhere the two may choose
 * different matches (regexp_replace('ab', 'a|ab', 'x') is 'x' in
 * PostgreSQL, 'xb' in ClickHouse). "(?s)" makes "." match a newline, as in
 * PostgreSQL (replaceRegexpOne/All do not by default). The replacement is
 * a constant without backslashes (\1 and \& in PostgreSQL, \0..\9 in
 * ClickHouse). Characters in UTF-8 databases (both read UTF-8).
 */
static bool
fixed_regex(const char *p)
{
	int			atoms = 0;

	if (strlen(p) > 1000)
		return false;
	if (*p == '^')
		p++;
	for (; *p; p++)
	{
		unsigned char ch = (unsigned char) *p;

		if (ch == '$' && p[1] == '\0')
			break;
		if (ch == '\\')
		{
			p++;
			if (!*p || !strchr(".*+?|()[]{}^$\\-/", *p))
				return false;
		}
		else if (ch == '[')
		{
			p++;
			if (*p == '^')
				p++;
			if (*p == ']')
				return false;
			for (; *p && *p != ']'; p++)
			{
				if ((unsigned char) *p >= 0x80 || *p < 0x20 || *p == '[' || *p == '\\')
					return false;
				/* a reversed range: both refuse it, with different errors */
				if (p[1] == '-' && p[2] && p[2] != ']' && p[2] < p[0])
					return false;
			}
			if (*p != ']')
				return false;
		}
		else if (ch < 0x20 || ch >= 0x7f || strchr("*+?|(){}]^$", ch))
			return false;
		atoms++;
	}
	return atoms > 0;
}

static bool
check_regexp_replace(ShipCtx *cx, List *args, const ChFnRow *row)
{
	const char *pat = chfdw_const_text(lsecond(args));
	const char *rep = chfdw_const_text(lthird(args));

	(void) cx;
	(void) row;
	if (!pat || !rep || strchr(rep, '\\') || !fixed_regex(pat))
		return false;
	if (list_length(args) == 4)
	{
		const char *flags = chfdw_const_text(lfourth(args));

		if (!flags || (strcmp(flags, "g") != 0 && strcmp(flags, "") != 0))
			return false;
	}
	return true;
}

static void
deparse_regexp_replace(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	bool		all = list_length(args) == 4 && strcmp(chfdw_const_text(lfourth(args)), "g") == 0;

	(void) row;
	appendStringInfo(buf, "%s(%s, ", all ? "replaceRegexpAll" : "replaceRegexpOne", dv(cx, args, 0));
	chfdw_quote_literal(buf, psprintf("(?s)%s", chfdw_const_text(lsecond(args))));
	appendStringInfoString(buf, ", ");
	chfdw_quote_literal(buf, chfdw_const_text(lthird(args)));
	appendStringInfoChar(buf, ')');
}

/* ---- strfn: lpad, rpad, repeat (servers with caps.string_pad) ---- */

static bool
cap_string_pad(const ch_caps *caps)
{
	return caps->string_pad;
}

/* ClickHouse's longest padded string and most repetitions (padString.cpp, repeat.cpp) */
#define CH_MAX_PAD 1000000

/*
 * lpad/rpad(s, n[, 'fill']) with a constant n up to ClickHouse's 1,000,000
 * and a constant fill (ClickHouse wants one). PostgreSQL (oracle_compat.c)
 * counts characters, reads a negative n as 0, cuts a longer s to its first
 * n characters (both functions) and does not pad with an empty fill: so do
 * leftPadUTF8/rightPadUTF8 (checked on the 26.5 engine), except that an
 * empty fill pads with spaces there, so that case is the cut alone. An n
 * this small cannot reach PostgreSQL's "requested length too large".
 */
static bool
check_pad(ShipCtx *cx, List *args, const ChFnRow *row)
{
	int64		n;

	(void) cx;
	(void) row;
	if (!int_const(lsecond(args), &n) || n > CH_MAX_PAD)
		return false;
	return list_length(args) == 2 || chfdw_const_text(lthird(args)) != NULL;
}

static void
deparse_pad(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	int64		n;
	const char *fill = list_length(args) == 3 ? chfdw_const_text(lthird(args)) : " ";

	int_const(lsecond(args), &n);
	if (n < 0)
		n = 0;
	if (fill[0] == '\0')
	{
		appendStringInfo(buf, "substringUTF8(%s, 1, " INT64_FORMAT ")", dv(cx, args, 0), n);
		return;
	}
	appendStringInfo(buf, "%s(%s, " INT64_FORMAT ", ", row->arg[0] == 'l' ? "leftPadUTF8" : "rightPadUTF8",
					 dv(cx, args, 0), n);
	chfdw_quote_literal(buf, fill);
	appendStringInfoChar(buf, ')');
}

/*
 * repeat(s, n), a constant n up to 1,000,000: '' for n <= 0, as
 * PostgreSQL. PostgreSQL raises 54000 "requested length too large" where
 * the result would pass MaxAllocSize (bytes of s times n, plus the header):
 * so does the guard, only where PostgreSQL evaluates the call for every row
 * (ShipCtx.may_raise), and such a row repeats '' meanwhile so ClickHouse
 * never builds that string.
 */
static bool
check_repeat(ShipCtx *cx, List *args, const ChFnRow *row)
{
	int64		n;

	(void) row;
	if (!int_const(lsecond(args), &n) || n > CH_MAX_PAD)
		return false;
	return n <= 0 || cx->may_raise;
}

static void
deparse_repeat(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	int64		n;
	Sub		   *s;
	Sub		   *big;
	const char *b1;

	(void) row;
	int_const(lsecond(args), &n);
	if (n <= 0)
	{
		appendStringInfo(buf, "repeat(%s, 0)", dv(cx, args, 0));
		return;
	}
	s = sub(cx, dv(cx, args, 0));
	/* bytes * n + VARHDRSZ > MaxAllocSize, without the product */
	big = sub(cx, psprintf("length(%s) > " INT64_FORMAT, chfdw_pm_use(s),
						   (int64) (MaxAllocSize - VARHDRSZ) / n));
	b1 = chfdw_pm_use(big);
	guarded(buf, cx, b1, CHFDW_RAISE_TOO_LONG,
			psprintf("repeat(if(ifNull(%s, 0), '', %s), " INT64_FORMAT ")", chfdw_pm_use(big), chfdw_pm_use(s), n));
}

/*
 * initcap(s) under the C ctype, on servers with initcap() (23.7,
 * caps.initcap): PostgreSQL's C-locale path (formatting.c, str_initcap)
 * walks the bytes, upper-casing an ASCII letter after a byte that is no
 * ASCII letter or digit and lower-casing the others; ClickHouse's initcap
 * (src/Functions/initcap.cpp) walks the bytes with the same rule, so every
 * byte of a multibyte character is a word break in both ("ÉCOLE" is
 * "ÉCole"). Under another ctype PostgreSQL maps characters with the
 * locale's towupper()/iswalnum() and ClickHouse's initcapUTF8 with its own
 * tables: local.
 */
static bool
cap_initcap(const ch_caps *caps)
{
	return caps->initcap;
}

/* ---- strfn: regexp_match of fixed-length patterns ---- */

/*
 * regexp_match(s, 'pattern') for patterns fixed_regex accepts, also with
 * capture groups around parts of them ("(ab)-([0-9])": no nesting, no
 * empty group, no "(?"): every match has one length, so the leftmost
 * match (PostgreSQL's leftmost-longest, RE2's leftmost-first) is one text
 * and so is each group's part of it (there is no alternation or quantifier
 * to make a group take part or not). Sent as a condition,
 * regexp_match(s, p) IS [NOT] NULL (match(): a NULL s matches nothing),
 * and as (regexp_match(s, p))[k], the match without groups (k = 1:
 * extract()) or group k (replaceRegexpOne(s, '^.*?p.*$', '\k'), the
 * shortest prefix before the leftmost match), NULL where it does not
 * match (extract() would answer ''). The array itself is never sent
 * (ClickHouse has no Nullable(Array)). Characters in UTF-8 databases.
 */
static Oid	regexp_match_oid = InvalidOid;

static bool
is_regexp_match(Node *n)
{
	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, FuncExpr))
		return false;
	if (!OidIsValid(regexp_match_oid))
		regexp_match_oid = DatumGetObjectId(DirectFunctionCall1(to_regprocedure,
																CStringGetTextDatum("regexp_match(text,text)")));
	return ((FuncExpr *) n)->funcid == regexp_match_oid;
}

/* The pattern without its groups' parentheses, or NULL; *ngroups: how many. */
static char *
strip_groups(const char *p, int *ngroups)
{
	StringInfoData out;
	bool		open = false;
	bool		empty = false;

	*ngroups = 0;
	initStringInfo(&out);
	for (; *p; p++)
	{
		if (*p == '\\' && p[1])
		{
			appendStringInfoChar(&out, *p++);
			appendStringInfoChar(&out, *p);
			empty = false;
			continue;
		}
		if (*p == '[')
		{
			/* a bracket expression as fixed_regex reads it: "]" right after "[" or "[^" is refused there */
			appendStringInfoChar(&out, *p++);
			if (*p == '^')
				appendStringInfoChar(&out, *p++);
			while (*p && *p != ']')
				appendStringInfoChar(&out, *p++);
			if (!*p)
				return NULL;
			appendStringInfoChar(&out, *p);
			empty = false;
			continue;
		}
		if (*p == '(')
		{
			if (open || p[1] == '?')
				return NULL;
			open = empty = true;
			(*ngroups)++;
			continue;
		}
		if (*p == ')')
		{
			if (!open || empty)
				return NULL;
			open = false;
			continue;
		}
		/* anchors outside the groups only */
		if (open && (*p == '^' || *p == '$'))
			return NULL;
		appendStringInfoChar(&out, *p);
		empty = false;
	}
	return open ? NULL : out.data;
}

/* regexp_match(s, 'pattern') ClickHouse computes here; *ngroups of the pattern. */
static bool
regexp_match_ok(ShipCtx *cx, Node *n, int *ngroups)
{
	FuncExpr   *f;
	const char *pat;
	char	   *stripped;
	Node	   *s;

	if (!is_regexp_match(n) || GetDatabaseEncoding() != PG_UTF8)
		return false;
	f = (FuncExpr *) chfdw_strip_relabel(n);
	s = linitial(f->args);
	pat = chfdw_const_text(lsecond(f->args));
	if (!pat || null_const(s) || !chfdw_value_shippable(cx, s))
		return false;
	stripped = strip_groups(pat, ngroups);
	return stripped && *ngroups <= 9 && fixed_regex(stripped);
}

bool
chfdw_regexp_match_test_ok(ShipCtx *cx, Node *n)
{
	int			ngroups;

	return regexp_match_ok(cx, n, &ngroups);
}

/* match(s, '(?s)pattern') as a condition: regexp_match(s, p) IS [NOT] NULL */
static void
deparse_match(StringInfo buf, ShipCtx *cx, FuncExpr *f)
{
	appendStringInfoString(buf, "ifNull(match(");
	chfdw_deparse_value(buf, cx, linitial(f->args));
	appendStringInfoString(buf, ", ");
	chfdw_quote_literal(buf, psprintf("(?s)%s", chfdw_const_text(lsecond(f->args))));
	appendStringInfoString(buf, "), 0)");
}

void
chfdw_deparse_regexp_match_test(StringInfo buf, ShipCtx *cx, Node *n, bool is_null)
{
	deparse_match(buf, cx, (FuncExpr *) chfdw_strip_relabel(n));
	appendStringInfoString(buf, is_null ? " = 0" : " = 1");
}

/* (regexp_match(s, 'pattern'))[k], k a constant within the match's array */
static bool
match_item(ShipCtx *cx, Node *n, FuncExpr **f, int *k, int *ngroups)
{
	SubscriptingRef *sr;
	Node	   *idx;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, SubscriptingRef))
		return false;
	sr = (SubscriptingRef *) n;
	if (sr->refcontainertype != TEXTARRAYOID || sr->refassgnexpr || sr->reflowerindexpr != NIL ||
		list_length(sr->refupperindexpr) != 1 || !regexp_match_ok(cx, (Node *) sr->refexpr, ngroups))
		return false;
	idx = chfdw_strip_relabel(linitial(sr->refupperindexpr));
	if (!idx || !IsA(idx, Const) || ((Const *) idx)->consttype != INT4OID || ((Const *) idx)->constisnull)
		return false;
	*k = DatumGetInt32(((Const *) idx)->constvalue);
	*f = (FuncExpr *) chfdw_strip_relabel((Node *) sr->refexpr);
	return *k >= 1 && *k <= Max(*ngroups, 1);
}

bool
chfdw_match_item_ok(ShipCtx *cx, Node *n)
{
	FuncExpr   *f;
	int			k;
	int			ngroups;

	return match_item(cx, n, &f, &k, &ngroups);
}

void
chfdw_deparse_match_item(StringInfo buf, ShipCtx *cx, Node *n)
{
	FuncExpr   *f;
	int			k;
	int			ngroups;
	const char *pat;

	if (!match_item(cx, n, &f, &k, &ngroups))
		elog(ERROR, "unexpected regexp_match subscript");
	pat = chfdw_const_text(lsecond(f->args));
	appendStringInfoString(buf, "if(");
	deparse_match(buf, cx, f);
	appendStringInfoString(buf, ", ");
	if (ngroups == 0)
	{
		appendStringInfoString(buf, "extract(");
		chfdw_deparse_value(buf, cx, linitial(f->args));
		appendStringInfoString(buf, ", ");
		chfdw_quote_literal(buf, psprintf("(?s)%s", pat));
	}
	else
	{
		appendStringInfoString(buf, "replaceRegexpOne(");
		chfdw_deparse_value(buf, cx, linitial(f->args));
		appendStringInfoString(buf, ", ");
		chfdw_quote_literal(buf, psprintf("(?s)^.*?%s.*$", pat));
		appendStringInfoString(buf, ", ");
		chfdw_quote_literal(buf, psprintf("\\%d", k));
	}
	appendStringInfoString(buf, "), NULL)");
}

/* ---- the table ---- */

/*
 * Casts that cannot fail or round differently: widening int2 -> int4 ->
 * int8, integers and real -> double, integers -> numeric (Decimal128 of
 * scale 0: exact for every integer).
 */
static const ChFnRow fn_rows[] = {
	{"int4(smallint)", "toInt32($1)"},
	{"int8(smallint)", "toInt64($1)"},
	{"int8(integer)", "toInt64($1)"},
	{"float8(smallint)", "toFloat64($1)", CHFN_NOT_NAN},
	{"float8(integer)", "toFloat64($1)", CHFN_NOT_NAN},
	{"float8(bigint)", "toFloat64($1)", CHFN_NOT_NAN},
	{"float8(real)", "toFloat64($1)"},
	{"numeric(smallint)", "toDecimal128($1, 0)"},
	{"numeric(integer)", "toDecimal128($1, 0)"},
	{"numeric(bigint)", "toDecimal128($1, 0)"},

	/* narrowing casts, raising 22003 out of range */
	{"int4(bigint)", NULL, CHFN_RAISES, NULL, deparse_narrow, NULL, "4c"},
	{"int2(integer)", NULL, CHFN_RAISES, NULL, deparse_narrow, NULL, "2c"},
	{"int2(bigint)", NULL, CHFN_RAISES, NULL, deparse_narrow, NULL, "2c"},
	{"int4(double precision)", NULL, CHFN_RAISES, NULL, deparse_narrow, NULL, "4f"},
	{"int8(double precision)", NULL, CHFN_RAISES, NULL, deparse_narrow, NULL, "8f"},
	{"int2(double precision)", NULL, CHFN_RAISES, NULL, deparse_narrow, NULL, "2f"},

	/*
	 * strings: ASCII case mapping under the C ctype, characters in UTF-8;
	 * lengths and positions as Int32 (integer), as a UInt64 has no common
	 * type with signed integers in greatest() or coalesce()
	 */
	{"concat(\"any\")", NULL, CHFN_OWN_ARGS, check_concat, deparse_concat},
	{"lower(text)", "lower($1)", CHFN_C_CTYPE},
	{"upper(text)", "upper($1)", CHFN_C_CTYPE},
	{"length(text)", "toInt32(lengthUTF8($1))", CHFN_UTF8},
	{"char_length(text)", "toInt32(lengthUTF8($1))", CHFN_UTF8},
	{"character_length(text)", "toInt32(lengthUTF8($1))", CHFN_UTF8},
	{"octet_length(text)", "toInt32(length($1))"},
	/* spaces only; 18.16 has no trimBoth() */
	{"btrim(text)", "replaceRegexpAll($1, '^ +| +$', '')"},
	{"ltrim(text)", "replaceRegexpOne($1, '^ +', '')"},
	{"rtrim(text)", "replaceRegexpOne($1, ' +$', '')"},
	{"strpos(text,text)", "toInt32(positionUTF8($1, $2))", CHFN_UTF8},
	{"position(text,text)", "toInt32(positionUTF8($1, $2))", CHFN_UTF8},
	{"starts_with(text,text)", "startsWith($1, $2)"},
	/* substr(s, start): 18.16 has only the three-argument form */
	{"substr(text,integer)", "substringUTF8($1, $2, 2147483647)", CHFN_UTF8, check_substr},
	{"substr(text,integer,integer)", "substringUTF8($1, $2, $3)", CHFN_UTF8, check_substr},
	{"substring(text,integer)", "substringUTF8($1, $2, 2147483647)", CHFN_UTF8, check_substr},
	{"substring(text,integer,integer)", "substringUTF8($1, $2, $3)", CHFN_UTF8, check_substr},

	/* double precision */
	{"abs(double precision)", "abs($1)"},
	{"floor(double precision)", "floor($1)"},
	{"trunc(double precision)", "trunc($1)"},
	{"ceil(double precision)", "ceil($1)"},
	{"ceiling(double precision)", "ceil($1)"},
	{"round(double precision)", NULL, 0, NULL, deparse_round},
	/* PostgreSQL's sign(NaN) is 0; 18.16 has no sign() */
	{"sign(double precision)", "toFloat64(($1 > 0) - ($1 < 0))", CHFN_NOT_NAN},
	/* exp: not sent (libm results differ by host: see deparse_sqrt) */

	/* integers */
	{"abs(smallint)", NULL, CHFN_RAISES, NULL, deparse_int_neg, NULL, "2a"},
	{"abs(integer)", NULL, CHFN_RAISES, NULL, deparse_int_neg, NULL, "4a"},
	{"abs(bigint)", NULL, CHFN_RAISES, NULL, deparse_int_neg, NULL, "8a"},
	{"mod(smallint,smallint)", NULL, 0, check_int_div, deparse_int_div, NULL, "2%"},
	{"mod(integer,integer)", NULL, 0, check_int_div, deparse_int_div, NULL, "4%"},
	{"mod(bigint,bigint)", NULL, 0, check_int_div, deparse_int_div, NULL, "8%"},

	/* more strings (characters: UTF-8 databases) */
	{"split_part(text,text,integer)",
	"if(isNull($1), NULL, splitByString($2, assumeNotNull($1))[$3])", 0, check_split_part},
	{"replace(text,text,text)", "replaceAll($1, $2, $3)", 0, check_replace},
	{"left(text,integer)", NULL, CHFN_UTF8, check_const_n, deparse_left_right, NULL, "l"},
	{"right(text,integer)", NULL, CHFN_UTF8, check_const_n, deparse_left_right, NULL, "r"},
	{"reverse(text)", "reverseUTF8($1)", CHFN_UTF8},
	{"md5(text)", "lower(hex(MD5($1)))"},
	{"btrim(text,text)", NULL, 0, check_trim_chars, deparse_trim_chars, NULL, "b"},
	{"ltrim(text,text)", NULL, 0, check_trim_chars, deparse_trim_chars, NULL, "l"},
	{"rtrim(text,text)", NULL, 0, check_trim_chars, deparse_trim_chars, NULL, "r"},
	{"concat_ws(text,\"any\")", NULL, CHFN_OWN_ARGS, check_concat_ws, deparse_concat_ws},

	/* date parts of dates, and of timestamptz in UTC (field_map) */
	{"extract(text,date)", NULL, CHFN_NOT_NAN, check_extract, deparse_extract, NULL, "date"},
	{"extract(text,timestamp with time zone)", NULL, CHFN_NOT_NAN | CHFN_UTC,
	check_extract, deparse_extract, NULL, "ts"},
	{"date_part(text,timestamp with time zone)", NULL, CHFN_NOT_NAN | CHFN_UTC,
	check_extract, deparse_extract, NULL, "ts"},

	/* date parts of timestamp columns, in the column's zone (groupby) */
	{"extract(text,timestamp without time zone)", NULL, CHFN_OWN_ARGS,
	check_extract_local_ts, deparse_extract_local_ts},
	{"date_part(text,timestamp without time zone)", NULL, CHFN_OWN_ARGS,
	check_extract_local_ts, deparse_extract_local_ts},

	/* dates: date_trunc of timestamp and (UTC) timestamptz columns, grouping keys only */
	{"date_trunc(text,timestamp without time zone)", NULL, CHFN_OWN_ARGS, chfdw_check_date_trunc,
	chfdw_deparse_date_trunc},
	{"date_trunc(text,timestamp with time zone)", NULL, CHFN_UTC | CHFN_OWN_ARGS,
	chfdw_check_date_trunc, chfdw_deparse_date_trunc},
	/* (tsdate) date(ts), ts::date, of such columns: grouping keys only (pushdown_dates.c) */
	{"date(timestamp without time zone)", NULL, CHFN_OWN_ARGS, chfdw_check_ts_date,
	chfdw_deparse_ts_date},
	{"date(timestamp with time zone)", NULL, CHFN_UTC | CHFN_OWN_ARGS, chfdw_check_ts_date,
	chfdw_deparse_ts_date},

	/* fnmore: to_char of a few patterns (char_patterns) */
	{"to_char(timestamp with time zone,text)", NULL, CHFN_UTC | CHFN_OWN_ARGS, check_to_char,
	deparse_to_char},

	/* tochar: to_char of timestamp (and date::timestamp) columns (pushdown_dates.c) */
	{"to_char(timestamp without time zone,text)", NULL, CHFN_OWN_ARGS, check_tochar_row,
	deparse_tochar_row},

	/* fnmore: regexp_replace of fixed-length patterns (fixed_regex) */
	{"regexp_replace(text,text,text)", NULL, CHFN_UTF8, check_regexp_replace,
	deparse_regexp_replace},
	{"regexp_replace(text,text,text,text)", NULL, CHFN_UTF8, check_regexp_replace,
	deparse_regexp_replace},

	/* fnmore: square root, raising PostgreSQL's error (deparse_sqrt) */
	{"sqrt(double precision)", NULL, CHFN_RAISES, NULL, deparse_sqrt},
	{"dsqrt(double precision)", NULL, CHFN_RAISES, NULL, deparse_sqrt},

	/* strfn: padding and repetition on servers that have them (caps.string_pad) */
	{"lpad(text,integer,text)", NULL, CHFN_UTF8, check_pad, deparse_pad, cap_string_pad, "l"},
	{"lpad(text,integer)", NULL, CHFN_UTF8, check_pad, deparse_pad, cap_string_pad, "l"},
	{"rpad(text,integer,text)", NULL, CHFN_UTF8, check_pad, deparse_pad, cap_string_pad, "r"},
	{"rpad(text,integer)", NULL, CHFN_UTF8, check_pad, deparse_pad, cap_string_pad, "r"},
	{"repeat(text,integer)", NULL, 0, check_repeat, deparse_repeat, cap_string_pad},
	{"initcap(text)", "initcap($1)", CHFN_C_CTYPE, NULL, NULL, cap_initcap},

	/* jsonb: jsonb_typeof of a read_as 'json' column's path (jsonb.c) */
	{"jsonb_typeof(jsonb)", NULL, CHFN_OWN_ARGS, chfdw_jsonb_check, chfdw_jsonb_deparse,
	NULL, "typeof"},
	/* tochar: jsonb_array_length of a path, raising 22023 as PostgreSQL (jsonb.c) */
	{"jsonb_array_length(jsonb)", NULL, CHFN_OWN_ARGS | CHFN_RAISES, chfdw_jsonb_check,
	chfdw_jsonb_deparse, NULL, "alen"},
};

static const ChFnRow op_rows[] = {
	/* text || text: NULL in, NULL out in both */
	{"||(text,text)", "concat($1, $2)"},

	/*
	 * Integer / and %: see deparse_int_div; + - *: deparse_int_arith.
	 */
	{"/(smallint,smallint)", NULL, 0, check_int_div, deparse_int_div, NULL, "2/"},
	{"/(integer,integer)", NULL, 0, check_int_div, deparse_int_div, NULL, "4/"},
	{"/(bigint,bigint)", NULL, 0, check_int_div, deparse_int_div, NULL, "8/"},
	{"/(smallint,integer)", NULL, 0, check_int_div, deparse_int_div, NULL, "4/"},
	{"/(integer,smallint)", NULL, 0, check_int_div, deparse_int_div, NULL, "4/"},
	{"/(smallint,bigint)", NULL, 0, check_int_div, deparse_int_div, NULL, "8/"},
	{"/(bigint,smallint)", NULL, 0, check_int_div, deparse_int_div, NULL, "8/"},
	{"/(integer,bigint)", NULL, 0, check_int_div, deparse_int_div, NULL, "8/"},
	{"/(bigint,integer)", NULL, 0, check_int_div, deparse_int_div, NULL, "8/"},
	{"%(smallint,smallint)", NULL, 0, check_int_div, deparse_int_div, NULL, "2%"},
	{"%(integer,integer)", NULL, 0, check_int_div, deparse_int_div, NULL, "4%"},
	{"%(bigint,bigint)", NULL, 0, check_int_div, deparse_int_div, NULL, "8%"},
	{"+(smallint,smallint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "2+"},
	{"+(integer,integer)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "4+"},
	{"+(bigint,bigint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "8+"},
	{"+(smallint,integer)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "4+"},
	{"+(integer,smallint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "4+"},
	{"+(smallint,bigint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "8+"},
	{"+(bigint,smallint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "8+"},
	{"+(integer,bigint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "8+"},
	{"+(bigint,integer)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "8+"},
	{"-(smallint,smallint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "2-"},
	{"-(integer,integer)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "4-"},
	{"-(bigint,bigint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "8-"},
	{"-(smallint,integer)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "4-"},
	{"-(integer,smallint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "4-"},
	{"-(smallint,bigint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "8-"},
	{"-(bigint,smallint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "8-"},
	{"-(integer,bigint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "8-"},
	{"-(bigint,integer)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "8-"},
	{"*(smallint,smallint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "2*"},
	{"*(integer,integer)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "4*"},
	{"*(bigint,bigint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "8*"},
	{"*(smallint,integer)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "4*"},
	{"*(integer,smallint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "4*"},
	{"*(smallint,bigint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "8*"},
	{"*(bigint,smallint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "8*"},
	{"*(integer,bigint)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "8*"},
	{"*(bigint,integer)", NULL, CHFN_RAISES, NULL, deparse_int_arith, NULL, "8*"},
	{"-(NONE,smallint)", NULL, CHFN_RAISES, NULL, deparse_int_neg, NULL, "2n"},
	{"-(NONE,integer)", NULL, CHFN_RAISES, NULL, deparse_int_neg, NULL, "4n"},
	{"-(NONE,bigint)", NULL, CHFN_RAISES, NULL, deparse_int_neg, NULL, "8n"},
	/* double precision (and real widened to it) */
	{"+(double precision,double precision)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "+"},
	{"+(real,double precision)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "+"},
	{"+(double precision,real)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "+"},
	{"-(double precision,double precision)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "-"},
	{"-(real,double precision)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "-"},
	{"-(double precision,real)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "-"},
	{"*(double precision,double precision)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "*"},
	{"*(real,double precision)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "*"},
	{"*(double precision,real)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "*"},
	{"/(double precision,double precision)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "/"},
	{"/(real,double precision)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "/"},
	{"/(double precision,real)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "/"},
	{"-(NONE,double precision)", "negate($1)"},
	/* real op real, rounded to Float32 as float4pl & co. (deparse_float_arith) */
	{"+(real,real)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "+r"},
	{"-(real,real)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "-r"},
	{"*(real,real)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "*r"},
	{"/(real,real)", NULL, CHFN_RAISES, NULL, deparse_float_arith, NULL, "/r"},
	{"-(NONE,real)", "negate($1)"},
	/* days between dates (toInt32: a Date's or Date32's day number) */
	{"-(date,date)", "(toInt32($1) - toInt32($2))"},

	/* fnmore: |/ x, sqrt(x) (deparse_sqrt) */
	{"|/(NONE,double precision)", NULL, CHFN_RAISES, NULL, deparse_sqrt},

	/*
	 * jsonb: operators on read_as 'json' columns (jsonb.c). ? ?| ?& @> are
	 * values; -> ->> #> #>> only where chfdw_jsonb_compare_shippable or
	 * chfdw_jsonb_nulltest_shippable take them (their check refuses them).
	 */
	{"?(jsonb,text)", NULL, CHFN_OWN_ARGS, chfdw_jsonb_check, chfdw_jsonb_deparse, NULL, "?"},
	{"?|(jsonb,text[])", NULL, CHFN_OWN_ARGS, chfdw_jsonb_check, chfdw_jsonb_deparse, NULL, "?|"},
	{"?&(jsonb,text[])", NULL, CHFN_OWN_ARGS, chfdw_jsonb_check, chfdw_jsonb_deparse, NULL, "?&"},
	{"@>(jsonb,jsonb)", NULL, CHFN_OWN_ARGS, chfdw_jsonb_check, chfdw_jsonb_deparse, NULL, "@>"},
	{"->(jsonb,text)", NULL, CHFN_OWN_ARGS, chfdw_jsonb_check, chfdw_jsonb_deparse, NULL, "->"},
	{"->(jsonb,integer)", NULL, CHFN_OWN_ARGS, chfdw_jsonb_check, chfdw_jsonb_deparse, NULL, "->i"},
	{"#>(jsonb,text[])", NULL, CHFN_OWN_ARGS, chfdw_jsonb_check, chfdw_jsonb_deparse, NULL, "#>"},
	{"->>(jsonb,text)", NULL, CHFN_OWN_ARGS, chfdw_jsonb_check, chfdw_jsonb_deparse, NULL, "->>"},
	{"->>(jsonb,integer)", NULL, CHFN_OWN_ARGS, chfdw_jsonb_check, chfdw_jsonb_deparse, NULL, "->>i"},
	{"#>>(jsonb,text[])", NULL, CHFN_OWN_ARGS, chfdw_jsonb_check, chfdw_jsonb_deparse, NULL, "#>>"},
};

/* ---- lookup: OIDs resolved once per backend ---- */

typedef struct RowOid
{
	Oid			oid;
	const ChFnRow *row;
} RowOid;

static RowOid *fn_oids;
static RowOid *op_oids;
static int	n_fn_oids;
static int	n_op_oids;

static int
rowoid_cmp(const void *a, const void *b)
{
	Oid			x = ((const RowOid *) a)->oid;
	Oid			y = ((const RowOid *) b)->oid;

	return x < y ? -1 : x > y ? 1 : 0;
}

static RowOid *
resolve(const ChFnRow *rows, int n, bool op)
{
	RowOid	   *out = MemoryContextAlloc(TopMemoryContext, sizeof(RowOid) * n);
	int			i;

	for (i = 0; i < n; i++)
	{
		Datum		d;

		d = op ? DirectFunctionCall1(to_regoperator, CStringGetTextDatum(rows[i].sig)) :
			DirectFunctionCall1(to_regprocedure, CStringGetTextDatum(rows[i].sig));
		/* a typo in the table: every query would notice */
		if (!OidIsValid(DatumGetObjectId(d)))
			elog(ERROR, "clickhouse_fdw: unknown %s \"%s\" in the pushdown table",
				 op ? "operator" : "function", rows[i].sig);
		out[i].oid = DatumGetObjectId(d);
		out[i].row = &rows[i];
	}
	qsort(out, n, sizeof(RowOid), rowoid_cmp);
	return out;
}

static void
resolve_all(void)
{
	if (fn_oids)
		return;
	op_oids = resolve(op_rows, lengthof(op_rows), true);
	n_op_oids = lengthof(op_rows);
	fn_oids = resolve(fn_rows, lengthof(fn_rows), false);
	n_fn_oids = lengthof(fn_rows);
}

static const ChFnRow *
find(RowOid *tab, int n, Oid oid)
{
	RowOid		key;
	RowOid	   *hit;

	key.oid = oid;
	hit = bsearch(&key, tab, n, sizeof(RowOid), rowoid_cmp);
	return hit ? hit->row : NULL;
}

/* The row of a built-in function (NULL: not sent). */
const ChFnRow *
chfdw_fn_row(Oid funcid)
{
	/* the extension's ClickHouse functions (chfuncs.c) */
	if (funcid >= FirstGenbkiObjectId)
		return chfdw_chfunc_row(funcid);
	resolve_all();
	if (chfdw_casts_fn_row(funcid))
		return chfdw_casts_fn_row(funcid);	/* (casts) */
	return find(fn_oids, n_fn_oids, funcid);
}

/* The row of a built-in value operator (NULL: not sent). */
const ChFnRow *
chfdw_op_row(Oid opno)
{
	if (opno >= FirstGenbkiObjectId)
		return NULL;
	resolve_all();
	if (chfdw_casts_op_row(opno))
		return chfdw_casts_op_row(opno);	/* (casts) */
	return find(op_oids, n_op_oids, opno);
}

/*
 * Can this call be sent in this context: its guards hold, its arguments
 * are shippable values (never a NULL constant: PostgreSQL folds those),
 * its check passes?
 */
bool
chfdw_fn_row_ok(ShipCtx *cx, const ChFnRow *row, List *args, Oid inputcollid)
{
	ListCell   *lc;

	if ((row->guards & CHFN_UTF8) && GetDatabaseEncoding() != PG_UTF8)
		return false;
	if ((row->guards & CHFN_C_CTYPE) &&
		!(OidIsValid(inputcollid) && lc_ctype_is_c(inputcollid)))
		return false;
	if ((row->guards & CHFN_UTC) && !chfdw_session_zone())
		return false;
	if ((row->guards & CHFN_RAISES) && !cx->may_raise)
		return false;
	if (!(row->guards & CHFN_OWN_ARGS))
		foreach(lc, args)
			if (!chfdw_value_shippable(cx, lfirst(lc)) || null_const(lfirst(lc)))
				return false;
	if (row->check && !row->check(cx, args, row))
		return false;
	/* a capability, last: the server is asked (connecting at plan time, as chfuncs.c) */
	if (row->cap)
	{
		const ch_caps *caps = chfdw_ship_caps(cx);

		if (!caps || !row->cap(caps))
			return false;
	}
	return true;
}

/* A call's ClickHouse SQL (the row accepted it). */
void
chfdw_fn_deparse(StringInfo buf, ShipCtx *cx, const ChFnRow *row, List *args)
{
	const char *p;

	if (!row->tmpl)
	{
		row->deparse(buf, cx, args, row);
		return;
	}
	for (p = row->tmpl; *p; p++)
	{
		if (*p == '$' && p[1] >= '1' && p[1] <= '9')
		{
			int			i = p[1] - '1';

			if (i >= list_length(args))
				elog(ERROR, "pushdown template \"%s\" wants argument %d", row->tmpl, i + 1);
			arg(buf, cx, args, i);
			p++;
		}
		else
			appendStringInfoChar(buf, *p);
	}
}
