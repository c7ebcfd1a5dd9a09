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
 * raises") and the server capability it needs (a ch_caps field; no row
 * needs one yet: every form here is read alike by ClickHouse 18.16 and the
 * 26.5 engine, see the README's "What is sent").
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

/* A field of extract()/date_part() and its ClickHouse function. */
typedef struct FieldMap
{
	const char *field;
	const char *extract;		/* extract(field from x) */
	bool		for_date;		/* PostgreSQL accepts it for date */
	bool		for_ts;			/* sent for timestamptz */
} FieldMap;

/*
 * Fields ClickHouse computes as PostgreSQL over every value its columns
 * hold (checked on both engines at 1900, 1950, 1970, 2200 and 2299 for
 * DateTime64 and Date32). Not sent: doy (26.5 says 364 for 2299-12-31 in
 * Date32 and DateTime64), dow/isodow of timestamptz (toDayOfWeek's zone
 * argument moved between versions, and the toDate()/toDateTime() a
 * portable form needs clamps DateTime64 values outside 1970..2149),
 * second and epoch (DateTime64 fractions). date_trunc and timestamptz::date
 * are not sent either: toStartOf*() and toDate() return Date, which clamps
 * DateTime64 values before 1970 or after 2149 (26.5: date_trunc('month') of
 * 1950-06-15 gave 1970-01-01).
 */
static const FieldMap field_map[] = {
	{"year", "toYear", true, true},
	{"quarter", "toQuarter", true, true},
	{"month", "toMonth", true, true},
	{"week", "toISOWeek", true, true},
	{"day", "toDayOfMonth", true, true},
	{"hour", "toHour", false, true},
	{"minute", "toMinute", false, true},
	{"isodow", "toDayOfWeek", true, false},
	{"dow", "toDayOfWeek", true, false},	/* % 7: Sunday is 0 */
	{"isoyear", "toISOYear", true, true},
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

	(void) cx;
	if (!fm || (!ts && !fm->for_date) || (ts && !fm->for_ts))
		return false;
	return !ts || chfdw_session_zone() != NULL;
}

static void
deparse_extract(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row)
{
	const FieldMap *fm = find_field(linitial(args));
	bool		dow = strcmp(fm->field, "dow") == 0;

	if (dow)
		appendStringInfoString(buf, "modulo(");
	appendStringInfo(buf, "%s(", fm->extract);
	arg(buf, cx, args, 1);
	if (strcmp(row->arg, "ts") == 0)
		chfdw_deparse_zone(buf, cx);
	appendStringInfoChar(buf, ')');
	if (dow)
		appendStringInfoString(buf, ", 7)");
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

	/* strings: ASCII case mapping under the C ctype, characters in UTF-8 */
	{"concat(\"any\")", NULL, CHFN_OWN_ARGS, check_concat, deparse_concat},
	{"lower(text)", "lower($1)", CHFN_C_CTYPE},
	{"upper(text)", "upper($1)", CHFN_C_CTYPE},
	{"length(text)", "lengthUTF8($1)", CHFN_UTF8},
	{"char_length(text)", "lengthUTF8($1)", CHFN_UTF8},
	{"character_length(text)", "lengthUTF8($1)", CHFN_UTF8},
	{"octet_length(text)", "length($1)"},
	/* spaces only; 18.16 has no trimBoth() */
	{"btrim(text)", "replaceRegexpAll($1, '^ +| +$', '')"},
	{"ltrim(text)", "replaceRegexpOne($1, '^ +', '')"},
	{"rtrim(text)", "replaceRegexpOne($1, ' +$', '')"},
	{"strpos(text,text)", "positionUTF8($1, $2)", CHFN_UTF8},
	{"position(text,text)", "positionUTF8($1, $2)", CHFN_UTF8},
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

	/* date parts of dates, and of timestamptz in UTC (field_map) */
	{"extract(text,date)", NULL, CHFN_NOT_NAN, check_extract, deparse_extract, NULL, "date"},
	{"extract(text,timestamp with time zone)", NULL, CHFN_NOT_NAN | CHFN_UTC,
	check_extract, deparse_extract, NULL, "ts"},
	{"date_part(text,timestamp with time zone)", NULL, CHFN_NOT_NAN | CHFN_UTC,
	check_extract, deparse_extract, NULL, "ts"},
};

static const ChFnRow op_rows[] = {
	/* text || text: NULL in, NULL out in both */
	{"||(text,text)", "concat($1, $2)"},

	/*
	 * Integer / and % by a constant other than 0 and -1: intDiv and modulo
	 * truncate toward zero, as PostgreSQL; such a division cannot overflow.
	 */
	{"/(smallint,smallint)", "intDiv($1, $2)", 0, check_const_divisor},
	{"/(integer,integer)", "intDiv($1, $2)", 0, check_const_divisor},
	{"/(bigint,bigint)", "intDiv($1, $2)", 0, check_const_divisor},
	{"/(smallint,integer)", "intDiv($1, $2)", 0, check_const_divisor},
	{"/(integer,smallint)", "intDiv($1, $2)", 0, check_const_divisor},
	{"/(smallint,bigint)", "intDiv($1, $2)", 0, check_const_divisor},
	{"/(bigint,smallint)", "intDiv($1, $2)", 0, check_const_divisor},
	{"/(integer,bigint)", "intDiv($1, $2)", 0, check_const_divisor},
	{"/(bigint,integer)", "intDiv($1, $2)", 0, check_const_divisor},
	{"%(smallint,smallint)", "modulo($1, $2)", 0, check_const_divisor},
	{"%(integer,integer)", "modulo($1, $2)", 0, check_const_divisor},
	{"%(bigint,bigint)", "modulo($1, $2)", 0, check_const_divisor},
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
	if (funcid >= FirstGenbkiObjectId)
		return NULL;
	resolve_all();
	return find(fn_oids, n_fn_oids, funcid);
}

/* The row of a built-in value operator (NULL: not sent). */
const ChFnRow *
chfdw_op_row(Oid opno)
{
	if (opno >= FirstGenbkiObjectId)
		return NULL;
	resolve_all();
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
	/* capabilities are not known at plan time: such rows wait for that */
	if (row->cap)
		return false;
	if (!(row->guards & CHFN_OWN_ARGS))
		foreach(lc, args)
			if (!chfdw_value_shippable(cx, lfirst(lc)) || null_const(lfirst(lc)))
				return false;
	return !row->check || row->check(cx, args, row);
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
