/*-------------------------------------------------------------------------
 * pushdown_dates5.c
 *	  (dates5) Date parts of timestamptz columns declared over a ClickHouse
 *	  Date or Date32 in the fixed to_char patterns of pushdown_map.c.
 *
 * to_char(col, 'YYYY-MM-DD HH24:MI:SS') and the other fixed patterns
 * (deparse_to_char in pushdown_map.c) sent toYear(col, 'UTC') ..
 * toSecond(col, 'UTC') of the column itself, which the 26.5 engine refuses
 * for a Date or Date32 (ILLEGAL_TYPE_OF_ARGUMENT: toHour() and the other
 * time-of-day functions take a DateTime or DateTime64 only), and which
 * 18.16 answers from its table of days (1970 for every Date from
 * 2106-02-08 on). A plain timestamptz column of the scanned table now gets
 * each part as the date parts of dates/dates18 do (wall_time() in
 * pushdown_dates.c): a marker (chfdw_epoch_marker) whose fallback is the
 * part of the zoned column (chfdw_deparse_zoned_column: a Date or Date32
 * becomes its midnight in UTC, a DateTime64(7..9) whose rounding carries
 * into the next second raises 22008), resolved when the scan starts
 * (chfdw_bind_epoch): from the day number for a Date or Date32 on every
 * server, from the epoch seconds for a DateTime on a server without Date32,
 * else the fallback.
 *
 * And comparisons of DateTime64(7..9) columns with timestamptz values
 * (below); elsewhere inside expressions ClickHouse computes such a column
 * is its rounded value (dt64.c).
 *
 * src/fdw/pushdown_dates5.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "datatype/timestamp.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/fmgroids.h"
#include "utils/timestamp.h"

#include "chfdw.h"
#include "pushdown_map.h"
#include "pushdown_map_int.h"
#include "shippable.h"

/*
 * n as a plain timestamptz column of the scanned table, read as itself
 * (the columns chfdw_epoch_extract takes), else NULL
 */
Var *
chfdw_dates5_plain_tstz(ShipCtx *cx, Node *n)
{
	Var		   *v;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, Var) || cx->qualify || !OidIsValid(cx->relid) || !chfdw_is_our_var(cx, n))
		return NULL;
	v = (Var *) n;
	if (v->varattno <= 0 || v->varlevelsup != 0 || v->vartype != TIMESTAMPTZOID ||
		chfdw_column_read_as(cx->relid, v->varattno) != 0)
		return NULL;
	return v;
}

/*
 * In a join's condition (cx->qualify: no column markers there) a
 * timestamptz column over a Date or Date32 (the planner's system.columns
 * lookup, remote.c) keeps its date parts and to_char local: the raw column
 * is all the SQL there can name, and toHour() and the others refuse it
 * (26.5) or answer 1970 from 2106-02-08 on (18.16).
 */
bool
chfdw_dates5_qualified_date(ShipCtx *cx, Node *n)
{
	Var		   *v;
	Oid			relid;
	int			kind;
	int			precision;
	int			scale;

	n = chfdw_strip_relabel(n);
	if (!cx->qualify || !n || !IsA(n, Var) || !chfdw_is_our_var(cx, n))
		return false;
	v = (Var *) n;
	if (v->varattno <= 0 || v->vartype != TIMESTAMPTZOID)
		return false;
	relid = chfdw_var_relid(cx, v);
	return OidIsValid(relid) &&
		chfdw_column_numeric_type(relid, v->varattno,
								  cx->baserel && OidIsValid(cx->baserel->userid) ?
								  cx->baserel->userid : GetUserId(), &kind, &precision, &scale) &&
		(kind == CH_T_DATE || kind == CH_T_DATE32);
}

/*
 * A plain date column of the scanned table as the midnight PostgreSQL
 * casts it to: d::timestamp (date_part(text, date) is date_part(text,
 * $2::timestamp), any zone) or, under the session zone rule
 * (chfdw_session_zone: UTC), d::timestamptz (date_trunc(text, d) is
 * date_trunc(text, d::timestamptz)); its Var, else NULL. Its parts are
 * those of the day (the 'd' markers to_char of a date sends: from the day
 * number on 18.16), the time of day 0.
 */
Var *
chfdw_dates5_date_cast(ShipCtx *cx, Node *n)
{
	FuncExpr   *f;
	Var		   *v;

	n = chfdw_strip_relabel(n);
	if (!n || !IsA(n, FuncExpr) || list_length(((FuncExpr *) n)->args) != 1)
		return NULL;
	f = (FuncExpr *) n;
	if (f->funcid != F_TIMESTAMP_DATE &&
		!(f->funcid == F_TIMESTAMPTZ_DATE && chfdw_session_zone()))
		return NULL;
	n = chfdw_strip_relabel(linitial(f->args));
	if (!n || !IsA(n, Var) || cx->qualify || !OidIsValid(cx->relid))
		return NULL;
	v = (Var *) n;
	if (v->vartype != DATEOID || v->varlevelsup != 0 || v->varattno <= 0 ||
		!bms_is_member(v->varno, cx->visible) ||
		chfdw_column_read_as(cx->relid, v->varattno) != 0)
		return NULL;
	return v;
}

/* the part spec ('Y' .. 'S', fn its ClickHouse function) of column v */
const char *
chfdw_dates5_column_part(ShipCtx *cx, Var *v, char spec, const char *fn, const char *zone)
{
	StringInfoData c;
	char		s[2] = {spec, '\0'};

	(void) cx;
	initStringInfo(&c);
	chfdw_deparse_zoned_column(&c, cx->relid, v->varattno, false);
	return chfdw_epoch_marker(v->varattno, 'g', s,
							  psprintf("toInt64(%s(%s%s))", fn, c.data, zone));
}

/*
 * ---- A DateTime64(7..9) column compared with a timestamptz value ----
 *
 * PostgreSQL reads a DateTime64(p > 6) rounded half to even to the
 * microsecond (convert.c), and compares that; ClickHouse compares the
 * ticks. `col = '2000-01-01 00:00:00'` was false in ClickHouse for the
 * tick 2000-01-01 00:00:00.0000004, which PostgreSQL reads as
 * 2000-01-01 00:00:00. And a DateTime64(9) ends at 2262-04-11
 * 23:47:16.854775807 UTC (Int64 nanoseconds; ClickHouse's docs, DateTime64:
 * "the maximum supported value is 2262-04-11 23:47:16 in UTC" for precision
 * 9, 1900-01-01 .. 2299-12-31 23:59:59.99999999 for the others; measured
 * on the 26.5 engine: toDateTime64('2262-04-11 23:47:17', 9, 'UTC') raises
 * DECIMAL_OVERFLOW, and so did comparing such a column with a value written
 * as DateTime64(6) between 2262-04-11 23:47:16.854776 and 2299-12-31,
 * which ClickHouse widens to the column's scale).
 *
 * So such a comparison is written against the ticks that round to the
 * value v (microseconds): from L = v - 500 ns (plus one tick when v is odd:
 * the tie goes to the even neighbour) to U = v + 500 ns (minus one tick
 * when v is odd). round(col) < v is col < L, >= v col >= L, <= v col <= U,
 * > v col > U, = v both, <> v either. A bound is a DateTime64(p) literal,
 * or past the column's range a Float64 one second beyond it (ClickHouse
 * compares DateTime64 with a Float64 by seconds, as shippable.c's
 * deparse_datum writes values outside DateTime64's range). A constant's
 * bounds are written now; a run-time value's marker (shippable.c,
 * deparse_marker) gets "t" L|U p after its "c", and the bound is written
 * when the scan starts (chfdw_dates5_bind_value).
 */

#define UNIX_TO_PG_DAYS (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE)

/* ClickHouse's range of a DateTime64(p), p 7..9, in ns from 1970 (UTC) */
#define DT64_MIN_NS		((int128) INT64CONST(-2208988800) * 1000000000)

static int128
dt64_max_ns(int p)
{
	if (p == 9)
		return (int128) PG_INT64_MAX;
	return (int128) INT64CONST(10413791999) * 1000000000 + 1000000000 - (p == 7 ? 100 : 10);
}

/* the bound ('L' or 'U') of the ticks of a DateTime64(p) that PostgreSQL reads as us */
static void
write_bound(StringInfo buf, int64 us, char bound, int p)
{
	int128		tick = p == 7 ? 100 : p == 8 ? 10 : 1;
	bool		odd = (us & 1) != 0;
	int128		w;
	int64		secs;
	int64		ns;
	struct pg_tm tm;
	fsec_t		fsec;
	int64		div = p == 7 ? 100 : p == 8 ? 10 : 1;

	w = (int128) us * 1000 + (bound == 'L' ? -500 : 500);
	if (odd)
		w += bound == 'L' ? tick : -tick;
	if (w < DT64_MIN_NS)
	{
		appendStringInfoString(buf, "-2208988801.");
		return;
	}
	if (w > dt64_max_ns(p))
	{
		appendStringInfoString(buf, p == 9 ? "9223372037." : "10413792001.");
		return;
	}
	secs = (int64) (w / 1000000000);
	ns = (int64) (w % 1000000000);
	if (ns < 0)
	{
		secs--;
		ns += 1000000000;
	}
	if (timestamp2tm((secs - (int64) UNIX_TO_PG_DAYS * SECS_PER_DAY) * USECS_PER_SEC,
					 NULL, &tm, &fsec, NULL, NULL) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("timestamp out of range")));
	appendStringInfo(buf, "toDateTime64('%04d-%02d-%02d %02d:%02d:%02d.%0*lld', %d, 'UTC')",
					 tm.tm_year, tm.tm_mon, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
					 p, (long long) (ns / div), p);
}

/* microseconds from 1970 of a finite timestamptz */
static int64
unix_us(TimestampTz t)
{
	return t + (int64) UNIX_TO_PG_DAYS * SECS_PER_DAY * USECS_PER_SEC;
}

/* the precision 7..9 of column v's DateTime64, else 0 */
int
chfdw_dates5_dt64_precision(ShipCtx *cx, Var *v)
{
	Oid			relid;
	Oid			userid;
	int			kind;
	int			precision;
	int			scale;

	if (!chfdw_is_our_var(cx, (Node *) v) || v->varattno <= 0 || v->varlevelsup != 0 ||
		v->vartype != TIMESTAMPTZOID)
		return 0;
	relid = chfdw_var_relid(cx, v);
	if (!OidIsValid(relid) || chfdw_column_read_as(relid, v->varattno) != 0)
		return 0;
	userid = cx->baserel && OidIsValid(cx->baserel->userid) ? cx->baserel->userid : GetUserId();
	/* (numagg)'s lookup holds a timestamptz column's DateTime64 too (remote.c) */
	if (!chfdw_column_numeric_type(relid, v->varattno, userid, &kind, &precision, &scale) ||
		kind != CH_T_DATETIME64 || scale < 7 || scale > 9)
		return 0;
	return scale;
}

/*
 * Whether n reads a timestamptz column over a DateTime64(7..9) that the
 * SQL would name as its ticks: PostgreSQL reads them rounded half to even
 * to the microsecond, so two ticks of one microsecond are one value there
 * and two in ClickHouse (.0000001 and .0000004: two groups sent, one
 * local). Such keys stayed local; since dt64 every such column inside an
 * expression ClickHouse computes is written as the rounded value
 * (chfdw_dt64_deparse_var, dt64.c), whatever names it: no column is left
 * that would group its ticks, and the keys are sent (the callers, GROUP
 * BY, DISTINCT, count(DISTINCT), window PARTITION BY and ORDER BY, keep
 * the call for a column a later form would write as ticks).
 */
bool
chfdw_dates5_fine_ticks(ShipCtx *cx, Node *n)
{
	(void) cx;
	(void) n;
	return false;
}

/* one bound of the value: a constant's now, a marker's "t" bound p */
static void
value_bound(StringInfo buf, Const *c, const char *marker, char bound, int p)
{
	if (c)
		write_bound(buf, unix_us(DatumGetTimestampTz(c->constvalue)), bound, p);
	else
		appendStringInfo(buf, "%.*sct%c%d\x01", (int) (strlen(marker) - 1), marker, bound, p);
}

bool
chfdw_dates5_compare(StringInfo buf, ShipCtx *cx, OpExpr *op, const char *name)
{
	Node	   *l = chfdw_strip_relabel(linitial(op->args));
	Node	   *r = chfdw_strip_relabel(lsecond(op->args));
	Node	   *val;
	Var		   *col;
	Const	   *c = NULL;
	char		o;
	int			p;
	StringInfoData cs;
	StringInfoData vs;
	const char *marker = NULL;
	const char *q;

	if (!cx->dp || list_length(op->args) != 2 || exprType(l) != TIMESTAMPTZOID ||
		exprType(r) != TIMESTAMPTZOID)
		return false;
	o = strcmp(name, "=") == 0 ? '=' : strcmp(name, "<>") == 0 ? '!' :
		strcmp(name, "<") == 0 ? '<' : strcmp(name, "<=") == 0 ? 'l' :
		strcmp(name, ">") == 0 ? '>' : strcmp(name, ">=") == 0 ? 'g' : 0;
	if (!o)
		return false;
	if (IsA(l, Var) && (p = chfdw_dates5_dt64_precision(cx, (Var *) l)) != 0)
	{
		col = (Var *) l;
		val = r;
	}
	else if (IsA(r, Var) && (p = chfdw_dates5_dt64_precision(cx, (Var *) r)) != 0)
	{
		col = (Var *) r;
		val = l;
		/* value op col is col op' value */
		o = o == '<' ? '>' : o == '>' ? '<' : o == 'l' ? 'g' : o == 'g' ? 'l' : o;
	}
	else
		return false;
	if (IsA(val, Var) && chfdw_dates5_dt64_precision(cx, (Var *) val) != 0)
		return false;			/* two columns: their rounded values (dt64.c) */
	if (IsA(val, Const))
	{
		c = (Const *) val;
		if (c->constisnull || TIMESTAMP_NOT_FINITE(DatumGetTimestampTz(c->constvalue)))
			return false;
	}
	else
	{
		/* a run-time value: its marker "\x01" n "\x01" (shippable.c) */
		initStringInfo(&vs);
		chfdw_deparse_value(&vs, cx, val);
		for (q = vs.data + 1; *q >= '0' && *q <= '9'; q++)
			;
		if (vs.data[0] != '\x01' || q == vs.data + 1 || q[0] != '\x01' || q[1] != '\0')
		{
			/* no run-time value: the comparison as shippable.c writes it */
			initStringInfo(&cs);
			chfdw_deparse_value(&cs, cx, (Node *) col);
			appendStringInfo(buf, "(%s %s %s)", val == l ? vs.data : cs.data,
							 strcmp(name, "<>") == 0 ? "!=" : name, val == l ? cs.data : vs.data);
			return true;
		}
		marker = vs.data;
	}
	initStringInfo(&cs);
	chfdw_dt64_raw_column(&cs, cx, col);	/* (dt64) the ticks: the index */
	appendStringInfoChar(buf, '(');
	if (o == '<' || o == 'g' || o == '=' || o == '!')
	{
		appendStringInfo(buf, "%s %s ", cs.data, o == '<' || o == '!' ? "<" : ">=");
		value_bound(buf, c, marker, 'L', p);
	}
	if (o == '=' || o == '!')
		appendStringInfoString(buf, o == '=' ? " AND " : " OR ");
	if (o == 'l' || o == '>' || o == '=' || o == '!')
	{
		appendStringInfo(buf, "%s %s ", cs.data, o == 'l' || o == '=' ? "<=" : ">");
		value_bound(buf, c, marker, 'U', p);
	}
	appendStringInfoChar(buf, ')');
	return true;
}

/* a marker's bound ("t" L|U p after its "c"), written for the value v; false: none */
bool
chfdw_dates5_bind_value(StringInfo buf, const char *marker, Oid type, Datum v)
{
	const char *q = marker + 1;

	while (*q >= '0' && *q <= '9')
		q++;
	if (q[0] != 'c' || q[1] != 't' || type != TIMESTAMPTZOID)
		return false;
	if (TIMESTAMP_NOT_FINITE(DatumGetTimestampTz(v)))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("infinite timestamp cannot be sent to ClickHouse")));
	write_bound(buf, unix_us(DatumGetTimestampTz(v)), q[2], q[3] - '0');
	return true;
}

/*
 * col IN (constants) of such a column: an OR of the ranges that round to
 * each (NOT IN: an AND of their complements). An array with a NULL stays
 * as before.
 */
bool
chfdw_dates5_in_list(StringInfo buf, ShipCtx *cx, ScalarArrayOpExpr *sa, Datum *elems,
					 bool *nulls, int cnt)
{
	Node	   *l = chfdw_strip_relabel(linitial(sa->args));
	StringInfoData cs;
	int			p;
	int			i;

	if (!l || !IsA(l, Var) || exprType(l) != TIMESTAMPTZOID || cnt == 0 ||
		(p = chfdw_dates5_dt64_precision(cx, (Var *) l)) == 0)
		return false;
	for (i = 0; i < cnt; i++)
		if (nulls[i] || TIMESTAMP_NOT_FINITE(DatumGetTimestampTz(elems[i])))
			return false;
	initStringInfo(&cs);
	chfdw_dt64_raw_column(&cs, cx, (Var *) l);	/* (dt64) the ticks */
	appendStringInfoChar(buf, '(');
	for (i = 0; i < cnt; i++)
	{
		int64		us = unix_us(DatumGetTimestampTz(elems[i]));

		if (i > 0)
			appendStringInfoString(buf, sa->useOr ? " OR " : " AND ");
		appendStringInfo(buf, "(%s %s ", cs.data, sa->useOr ? ">=" : "<");
		write_bound(buf, us, 'L', p);
		appendStringInfo(buf, " %s %s %s ", sa->useOr ? "AND" : "OR", cs.data, sa->useOr ? "<=" : ">");
		write_bound(buf, us, 'U', p);
		appendStringInfoChar(buf, ')');
	}
	appendStringInfoChar(buf, ')');
	return true;
}
