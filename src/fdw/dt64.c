/*-------------------------------------------------------------------------
 * dt64.c
 *	  (dt64) A DateTime64(7..9) column inside an expression ClickHouse
 *	  computes, as the microseconds PostgreSQL reads.
 *
 * PostgreSQL reads a DateTime64(p > 6) rounded half to even to the
 * microsecond (convert.c, datetime64_to_timestamptz, as PostgreSQL's own
 * timestamp input rounds: src/backend/utils/adt/datetime.c,
 * ParseFractionalSecond, rint(frac * 1000000)), so ticks 2000-01-01
 * 00:00:00.0000001 and .0000004 are one value there and two in ClickHouse,
 * and 2000-12-31 23:59:59.9999996 is 2001-01-01 00:00:00 there. Wherever
 * such a column is used inside an expression ClickHouse computes (a
 * grouping, DISTINCT or window key, ORDER BY, an aggregate's argument, a
 * comparison with another column, a date function) it is written as that
 * rounded value, a DateTime64(6) in the column's zone, so that whatever is
 * sent for a DateTime64(6) gives PostgreSQL's answer for it unchanged:
 *
 *   T = reinterpretAsInt64(col)                   the ticks, any sign
 *   r = positiveModulo(T, d)                      d = 10^(p - 6), 0 <= r < d
 *   q = intDiv(T - r, d)                          floor(T / d), exact
 *   R = q + (r * 2 + bitAnd(q, 1) > d)            half to even (d is even)
 *   toTimeZone(reinterpret(R, 'DateTime64(6)'), timezoneOf(col))
 *
 * Measured on the 26.5 engine: toUnixTimestamp64Micro() and
 * toDateTime64(col, 6) truncate toward zero (1969-12-31 23:59:59.9999996 is
 * 0 and 1970-01-01 00:00:00); toUnixTimestamp64Nano() of a DateTime64(7)
 * after 2262-04-11 raises DECIMAL_OVERFLOW; fromUnixTimestamp64Micro(),
 * addMicroseconds() and + toIntervalMicrosecond() clamp 2300-01-01 (the
 * carry of a DateTime64(7) 2299-12-31 23:59:59.9999999) to 2299-12-31
 * 23:00:00, while reinterpret() keeps the Int64 exactly (the Native output
 * PostgreSQL reads is the Int64: 2300-01-01 00:00:00, as reading the column
 * gives), and so do comparisons, grouping and sorting. timezoneOf() of a
 * Nullable column is its zone; reinterpretAsInt64() keeps NULL.
 *
 * Date functions (the column markers of deparse.c, bound when the scan
 * starts: remote.c, chfdw_bind_date_columns) take the same value; past the
 * last value a DateTime64 holds (2299-12-31 23:59:59.999999 UTC: only a
 * DateTime64(7) or (8) carries there) ClickHouse's date functions would
 * answer 2299, so such a value raises 22008 there instead (the error of
 * the carries the parts raised before, CHFDW_RAISE_TS_ROUND).
 *
 * Comparisons with constants and run-time values keep their tick ranges
 * on the column itself (pushdown_dates5.c: the primary key's index).
 *
 * src/fdw/dt64.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "utils/timestamp.h"

#include "chfdw.h"
#include "shippable.h"
#include "ch_type.h"

/* the last microsecond DateTime64 holds: 2299-12-31 23:59:59.999999 UTC */
#define DT64_LAST_US	"10413791999999999"

/* the rounded microseconds R of ref, a DateTime64(p), p 7..9 (above) */
static void
append_micros(StringInfo buf, const char *ref, int p)
{
	int			d = p == 7 ? 10 : p == 8 ? 100 : 1000;

	appendStringInfo(buf,
					 "(intDiv(reinterpretAsInt64(%1$s) - positiveModulo(reinterpretAsInt64(%1$s), %2$d), %2$d) + "
					 "(positiveModulo(reinterpretAsInt64(%1$s), %2$d) * 2 + "
					 "bitAnd(intDiv(reinterpretAsInt64(%1$s) - positiveModulo(reinterpretAsInt64(%1$s), %2$d), %2$d), 1) > %2$d))",
					 ref, d);
}

/*
 * ref (a DateTime64(p), p 7..9) as the DateTime64(6) PostgreSQL reads;
 * guard_end: a value past DateTime64's last one raises (date functions)
 */
void
chfdw_dt64_round(StringInfo buf, const char *ref, int p, bool guard_end)
{
	StringInfoData v;

	initStringInfo(&v);
	appendStringInfoString(&v, "toTimeZone(reinterpret(");
	append_micros(&v, ref, p);
	appendStringInfo(&v, ", 'DateTime64(6)'), timezoneOf(%s))", ref);
	if (!guard_end || p == 9)
	{
		/* a DateTime64(9) ends at 2262-04-11 23:47:16.854775807 */
		appendStringInfoString(buf, v.data);
		return;
	}
	/* as remote.c's append_range_guard: the marker's text raises for that row */
	appendStringInfoString(buf, "if(toInt8(multiIf(ifNull(");
	append_micros(buf, ref, p);
	appendStringInfo(buf, " > " DT64_LAST_US ", 0), '%s', '0')) = 0, %s, %s)",
					 chfdw_raise_marker(CHFDW_RAISE_TS_ROUND), v.data, v.data);
}

/* column v as the SQL names it: the join's alias or its name */
void
chfdw_dt64_raw_column(StringInfo buf, ShipCtx *cx, Var *v)
{
	if (cx->qualify)
		chfdw_var_alias(buf, v);
	else
		chfdw_quote_identifier(buf, chfdw_column_name(cx->relid, v->varattno));
}

/*
 * chfdw_deparse_value's column (shippable.c): a timestamptz column over a
 * DateTime64(7..9) (the planner's system.columns lookup) as its rounded
 * value; false for every other column.
 */
bool
chfdw_dt64_deparse_var(StringInfo buf, ShipCtx *cx, Var *v)
{
	StringInfoData ref;
	int			p = chfdw_dates5_dt64_precision(cx, v);

	if (p == 0)
		return false;
	initStringInfo(&ref);
	chfdw_dt64_raw_column(&ref, cx, v);
	/* the null tests of shippable.c's null-safe forms: the column's own */
	if ((buf->len >= 7 && strcmp(buf->data + buf->len - 7, "isNull(") == 0) ||
		(buf->len >= 10 && strcmp(buf->data + buf->len - 10, "isNotNull(") == 0))
		appendStringInfoString(buf, ref.data);
	else
		chfdw_dt64_round(buf, ref.data, p, false);
	pfree(ref.data);
	return true;
}

/*
 * chfdw_bind_date_columns's marker (remote.c) of a column whose catalog
 * type *t is a DateTime64(7..9): [*ident, *end) becomes the rounded value
 * (raising past the last one) and *t a DateTime64(6) of the same zone, so
 * that the marker is bound as for a DateTime64(6). False otherwise.
 */
bool
chfdw_dt64_bind(const ch_type **t, const char **ident, const char **end)
{
	ch_type    *t6;
	StringInfoData s;

	if (!*t || (*t)->kind != CH_T_DATETIME64 || (*t)->scale <= 6 || (*t)->scale > 9)
		return false;
	initStringInfo(&s);
	chfdw_dt64_round(&s, pnstrdup(*ident, *end - *ident), (*t)->scale, true);
	t6 = palloc(sizeof(ch_type));
	*t6 = **t;
	t6->scale = 6;
	*t = t6;
	*ident = s.data;
	*end = s.data + s.len;
	return true;
}

/*
 * saop_shippable's constants (shippable.c): col IN (timestamptz constants)
 * of such a column, any finite constants (not only DateTime's whole
 * seconds): chfdw_dates5_in_list writes the tick ranges of each.
 */
bool
chfdw_dt64_in_list_ok(ShipCtx *cx, Node *l, Oid elemtype, Datum *elems, bool *nulls, int n)
{
	int			i;

	l = chfdw_strip_relabel(l);
	if (elemtype != TIMESTAMPTZOID || !l || !IsA(l, Var) || n <= 0 ||
		chfdw_dates5_dt64_precision(cx, (Var *) l) == 0)
		return false;
	for (i = 0; i < n; i++)
		if (nulls[i] || TIMESTAMP_NOT_FINITE(DatumGetTimestampTz(elems[i])))
			return false;
	return true;
}
