/*-------------------------------------------------------------------------
 * pushdown_epoch.c
 *	  (dates18) Date parts of timestamptz and date columns computed from
 *	  the epoch by integer arithmetic on servers whose date functions end
 *	  early (no Date32: ClickHouse 18.16).
 *
 * 18.16 computes toYear() .. toSecond() from a table of days that ends
 * inside 2106-02-06 (toYear of 2106-02-07 06:28:15 is 1970) and answers
 * 1970 for every Date from 2106-02-08 on, so the parts of the last days of
 * DateTime's range and of the Dates after them raised (22008) or stayed
 * local. Under session TimeZone UTC the wall time of a timestamptz over a
 * DateTime is its epoch seconds in UTC (toUInt32(col): 0 .. 2^32 - 1), and
 * a Date is its day number (toUInt16(col): 0 .. 65535, 1970-01-01 ..
 * 2149-06-06), so every part comes from that number by the proleptic
 * Gregorian calendar's arithmetic (H. Hinnant's civil_from_days), exact
 * over every value these types hold, with no table.
 *
 * The deparser cannot choose: which type the column has only the remote
 * catalog says, when the scan starts. So a part is written as a marker
 * that carries both the part it is and the SQL sent before (its fallback,
 * with its own column markers): "\x02" attnum "e" src spec ":" fallback
 * "\x02", the fallback's own "\x02" bytes written as "\x06" (no SQL we
 * write holds a control byte: literals and identifiers escape them). src
 * is 'g', a timestamptz column in a UTC session, 'd', a date column, or
 * (tskey) 'w', a timestamp column's wall time as a key (spec "K", whose
 * form is the column itself over a DateTime in UTC or a Date, see
 * chfdw_bind_epoch); spec a part ("Y" "M" "D" "H" "I" "S") or a field of extract() (year,
 * quarter, month, week, day, hour, minute, isoyear, decade, century,
 * millennium, dow, isodow). When the scan starts (chfdw_bind_date_columns
 * in remote.c) a server without Date32 gets the epoch form of a DateTime
 * (timestamptz) or a Date; every other server and type gets the fallback,
 * bound as before: the SQL the 26.5 engine receives and the SQL EXPLAIN
 * shows (chfdw_explain_sql) are unchanged.
 *
 * intDiv() and modulo() truncate toward zero, so every value they divide
 * is made non-negative first: epoch seconds of a DateTime are; a day
 * number (negative only for a Date32 before 1970: from -25567) enters the
 * calendar as days from 0000-03-01 (n + 719468), the days of the week with
 * 700000 (a multiple of 7) added, its seconds are whole days (n * 86400,
 * whose intDiv and modulo by 86400 are exact), and years are positive.
 * Every product stays far below 2^63 in Int64 (the column is widened with
 * toInt64 first).
 *
 * src/fdw/pushdown_epoch.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"

#include "chfdw.h"
#include "pushdown_map.h"
#include "pushdown_map_int.h"
#include "shippable.h"

/* the marker's fallback SQL with its own markers' \x02 written as \x06 */
char *
chfdw_epoch_marker(AttrNumber attnum, char src, const char *spec, const char *fallback)
{
	StringInfoData b;
	const char *p;

	initStringInfo(&b);
	appendStringInfo(&b, "\x02%de%c%s:", (int) attnum, src, spec);
	for (p = fallback; *p; p++)
	{
		if (*p == '\x06' || *p == '\x01' || *p == '\x03')
			elog(ERROR, "unexpected byte in a date part's SQL");
		appendStringInfoChar(&b, *p == '\x02' ? '\x06' : *p);
	}
	appendStringInfoChar(&b, '\x02');
	return b.data;
}

/*
 * (tsfast) A marker of two bodies, "\x02" attnum "ewA:" fast "\x07"
 * fallback "\x02": the fast SQL over a DateTime in UTC (or naming no
 * zone), the fallback over every other type (chfdw_bind_epoch). Either may
 * hold run-time values' markers ("\x01" n "\x01", bound after the date
 * columns, shippable.c), never "\x07".
 */
char *
chfdw_alt_marker(AttrNumber attnum, const char *fast, const char *fallback)
{
	StringInfoData b;
	const char *parts[2] = {fast, fallback};
	const char *p;
	int			i;

	initStringInfo(&b);
	appendStringInfo(&b, "\x02%dewA:", (int) attnum);
	for (i = 0; i < 2; i++)
	{
		for (p = parts[i]; *p; p++)
		{
			if (*p == '\x06' || *p == '\x07' || *p == '\x03')
				elog(ERROR, "unexpected byte in a timestamp comparison's SQL");
			appendStringInfoChar(&b, *p == '\x02' ? '\x06' : *p);
		}
		appendStringInfoChar(&b, i == 0 ? '\x07' : '\x02');
	}
	return b.data;
}

/*
 * the fallback of the marker body [body, end): of a two-body marker
 * (chfdw_alt_marker) its second body, or with fast its first
 */
static char *
alt_sql(const char *body, const char *end, bool fast)
{
	char	   *s = pnstrdup(body, end - body);
	char	   *sep = strchr(s, '\x07');
	char	   *p;

	if (sep)
	{
		if (fast)
			*sep = '\0';
		else
			s = sep + 1;
	}
	for (p = s; *p; p++)
		if (*p == '\x06')
			*p = '\x02';
	return s;
}

static char *
fallback_sql(const char *body, const char *end)
{
	return alt_sql(body, end, false);
}

/*
 * EXPLAIN's text of the marker at m (its ':' at colon, its end at end):
 * the fallback's, true; false when m is no marker of ours.
 */
bool
chfdw_explain_epoch(StringInfo buf, const char *m, const char *colon, const char *end)
{
	const char *p = m + 1;

	while (*p >= '0' && *p <= '9')
		p++;
	if (*p != 'e' || p > colon)
		return false;
	appendStringInfoString(buf, chfdw_explain_sql(fallback_sql(colon + 1, end)));
	return true;
}

/*
 * The civil date's part which ('Y', 'M', 'D') of the day number n (SQL,
 * Int64): civil_from_days. z = n + 719468 counts the days from
 * 0000-03-01 (positive for every day here), doe = z mod 146097 the day of
 * its 400-year era (bound by a lambda: chfdw_eo), yoe the year of the era
 * (from March), doy the day of that year (bound: chfdw_ed), mp its month
 * from March (0 .. 11). yoe and mp are written out where used: ClickHouse
 * computes an expression repeated inside one body once. Two lambdas: 18.16
 * took 0.64 s for the year of 10^7 DateTimes with one (but its text made
 * date_trunc('week') as a key pass max_query_size), 1.57 s with each value
 * bound by a lambda of its own (toYear: 0.13 s); two took 1.0 .. 2.3 s on
 * a loaded machine where toYear took 0.2 s and five 2.9 .. 3.9 s.
 */
static const char *
civil(const char *n, char which)
{
	const char *yoe = "intDiv(chfdw_eo - intDiv(chfdw_eo, 1460) + intDiv(chfdw_eo, 36524) - "
		"intDiv(chfdw_eo, 146096), 365)";
	const char *mp = "intDiv(5 * chfdw_ed + 2, 153)";
	const char *body;

	if (which == 'Y')
		body = psprintf("%s + (%s >= 10)", yoe, mp);
	else if (which == 'M')
		body = psprintf("if(%s < 10, %s + 3, %s - 9)", mp, mp, mp);
	else
		body = psprintf("chfdw_ed - intDiv(153 * %s + 2, 5) + 1", mp);
	return psprintf("toInt64(arrayMap(chfdw_eo -> arrayMap(chfdw_ed -> %s, "
					"[chfdw_eo - (365 * %s + intDiv(%s, 4) - intDiv(%s, 100))])[1], "
					"[modulo(%s + 719468, 146097)])[1]%s)", body, yoe, yoe, yoe, n,
					which == 'Y' ? psprintf(" + intDiv(%s + 719468, 146097) * 400", n) : "");
}

/*
 * The ISO year or week of day n: those of the week's Thursday t (day
 * n - (isodow - 1) + 3), the week counted from the ISO year's 1 January
 * (days_from_civil of a positive year).
 */
static const char *
iso(const char *n, bool week)
{
	const char *t = psprintf("(%s - modulo(%s + 700003, 7) + 3)", n, n);

	if (!week)
		return civil(t, 'Y');
	return psprintf("toInt64(arrayMap(chfdw_et -> arrayMap(chfdw_ei -> "
					"intDiv(chfdw_et - (365 * (chfdw_ei - 1) + intDiv(chfdw_ei - 1, 4) - "
					"intDiv(chfdw_ei - 1, 100) + intDiv(chfdw_ei - 1, 400) - 719162), 7) + 1, "
					"[%s])[1], [%s])[1])", civil("chfdw_et", 'Y'), t);
}

/* the epoch form of spec over s, the epoch seconds (Int64 SQL), or NULL */
static const char *
epoch_form(const char *s, const char *spec)
{
	const char *n = psprintf("intDiv(%s, 86400)", s);

	if (strcmp(spec, "Y") == 0 || strcmp(spec, "year") == 0)
		return civil(n, 'Y');
	if (strcmp(spec, "M") == 0 || strcmp(spec, "month") == 0)
		return civil(n, 'M');
	if (strcmp(spec, "D") == 0 || strcmp(spec, "day") == 0)
		return civil(n, 'D');
	if (strcmp(spec, "H") == 0 || strcmp(spec, "hour") == 0)
		return psprintf("toInt64(intDiv(modulo(%s, 86400), 3600))", s);
	if (strcmp(spec, "I") == 0 || strcmp(spec, "minute") == 0)
		return psprintf("toInt64(modulo(intDiv(%s, 60), 60))", s);
	if (strcmp(spec, "S") == 0)
		return psprintf("toInt64(modulo(%s, 60))", s);
	if (strcmp(spec, "quarter") == 0)
		return psprintf("toInt64(intDiv(%s - 1, 3) + 1)", civil(n, 'M'));
	if (strcmp(spec, "decade") == 0)
		return psprintf("toInt64(intDiv(%s, 10))", civil(n, 'Y'));
	if (strcmp(spec, "century") == 0)
		return psprintf("toInt64(intDiv(%s + 99, 100))", civil(n, 'Y'));
	if (strcmp(spec, "millennium") == 0)
		return psprintf("toInt64(intDiv(%s + 999, 1000))", civil(n, 'Y'));
	/* 1970-01-01 was a Thursday: dow 4, isodow 4 */
	if (strcmp(spec, "dow") == 0)
		return psprintf("toInt64(modulo(%s + 700004, 7))", n);
	if (strcmp(spec, "isodow") == 0)
		return psprintf("toInt64(modulo(%s + 700003, 7) + 1)", n);
	if (strcmp(spec, "isoyear") == 0)
		return iso(n, false);
	if (strcmp(spec, "week") == 0)
		return iso(n, true);
	return NULL;
}

/*
 * The marker of spec (spec_len bytes at spec: src and spec) whose
 * fallback is [body, end), resolved for the column's remote type t on
 * conn: the epoch form where it applies, else the fallback bound as
 * before (chfdw_bind_date_columns).
 */
void
chfdw_bind_epoch(StringInfo buf, const char *spec, int spec_len, const char *body,
				 const char *end, const ch_type *t, Oid relid, AttrNumber attnum,
				 ChFdwConn *conn, List *catalog_columns)
{
	char		src = spec[0];
	char	   *part = pnstrdup(spec + 1, spec_len - 1);
	const char *form = NULL;

	/*
	 * A server without Date32: a DateTime under a timestamptz column, a
	 * Date under either. On every server a Date or Date32 under a
	 * timestamptz column: its parts are those of its midnight in UTC, and
	 * the fallback's toHour(), toMinute(), toSecond() refuse a Date there
	 * (26.5: ILLEGAL_TYPE_OF_ARGUMENT).
	 */
	if (t && src != 'w' && ((!chfdw_caps(conn)->date32 &&
			   (t->kind == CH_T_DATE || (t->kind == CH_T_DATETIME && src == 'g'))) ||
			  (src == 'g' && (t->kind == CH_T_DATE || t->kind == CH_T_DATE32))))
	{
		StringInfoData col;
		const char *s;

		initStringInfo(&col);
		chfdw_quote_identifier(&col, chfdw_column_name(relid, attnum));
		if (t->kind == CH_T_DATE)
			s = psprintf("(toInt64(toUInt16(%s)) * 86400)", col.data);
		else if (t->kind == CH_T_DATE32)
			s = psprintf("(toInt64(toInt32(%s)) * 86400)", col.data);
		else
			s = psprintf("toInt64(toUInt32(%s))", col.data);
		form = epoch_form(s, part);
	}
	/*
	 * (tskey) a timestamp column's wall time as a key (pushdown_dates.c):
	 * over a DateTime in UTC, or naming no zone, and over a Date, the
	 * column itself; over a DateTime in another zone its text there,
	 * toString(col, 'zone') ('YYYY-MM-DD hh:mm:ss', the width fixed by
	 * DateTime's years 1970 .. 2106), with the guards of the zoned column
	 * (chfdw_bind_date_columns: 18.16's table of days), one fifth of the
	 * cost of the parts' text (5,000,000 rows: 0.14 s against 0.69 s).
	 * Inside concat(..., ''): ClickHouse takes toString() for injective
	 * and groups by its argument instead (GROUP BY of injective functions,
	 * optimize_injective_functions_in_group_by on 26.5, always on 18.16),
	 * which put the two instants of a repeated wall time in two groups of
	 * the same text on both engines (tskey's DST rows); concat() is not
	 * taken for injective.
	 */
	if (src == 'w' && (part[0] == 'K' || part[0] == 'M') && t)
	{
		bool		utc = !t->tz || strcmp(t->tz, "UTC") == 0;
		StringInfoData col;

		initStringInfo(&col);
		chfdw_quote_identifier(&col, chfdw_column_name(relid, attnum));
		/* (a DateTime64 in UTC of at most 6 digits: its value, as a key only) */
		if (t->kind == CH_T_DATE || (t->kind == CH_T_DATETIME && utc) ||
			(t->kind == CH_T_DATETIME64 && part[0] == 'K' && t->scale <= 6 && utc))
			form = col.data;
		else if (t->kind == CH_T_DATETIME)
			form = psprintf("concat(toString(%s), '')",
							chfdw_bind_date_columns(psprintf("\x02%dz:%s\x02", (int) attnum, col.data),
													relid, conn, catalog_columns));
	}
	/* (tsfast) a two-body marker: its fast body over a DateTime in UTC */
	if (src == 'w' && part[0] == 'A' && t && t->kind == CH_T_DATETIME &&
		(!t->tz || strcmp(t->tz, "UTC") == 0))
		form = alt_sql(body, end, true);
	if (form)
		appendStringInfoString(buf, form);
	else
		appendStringInfoString(buf, chfdw_bind_date_columns(fallback_sql(body, end), relid, conn,
															 catalog_columns));
}

/*
 * extract()/date_part() of a field field_map sends for a plain
 * timestamptz column (UTC session) or a plain date column of the scanned
 * table: the SQL old() writes, as a marker's fallback. False (nothing
 * written) for other fields and values.
 */
static bool in_extract = false;

bool
chfdw_epoch_extract(StringInfo buf, ShipCtx *cx, List *args, const ChFnRow *row,
					void (*old) (StringInfo, ShipCtx *, List *, const ChFnRow *))
{
	static const char *const ts_fields[] = {
		"year", "quarter", "month", "week", "day", "hour", "minute", "isoyear", "decade",
		"century", "millennium",
	};
	static const char *const date_fields[] = {
		"year", "quarter", "month", "week", "day", "isodow", "dow", "isoyear", "decade",
		"century", "millennium",
	};
	const char *f = chfdw_const_text(linitial(args));
	Node	   *n = chfdw_strip_relabel(lsecond(args));
	bool		ts = strcmp(row->arg, "ts") == 0;
	const char *field = NULL;
	Var		   *v;
	StringInfoData fb;
	int			i;

	if (in_extract || !f || cx->qualify || !OidIsValid(cx->relid) || !n || !IsA(n, Var) ||
		!chfdw_is_our_var(cx, n))
		return false;
	v = (Var *) n;
	if (v->varattno <= 0 || v->vartype != (ts ? TIMESTAMPTZOID : DATEOID) ||
		chfdw_column_read_as(cx->relid, v->varattno) != 0)
		return false;
	for (i = 0; i < (int) lengthof(ts_fields); i++)
	{
		const char *name = ts ? ts_fields[i] : date_fields[i];

		if (pg_strcasecmp(f, name) == 0)
			field = name;
	}
	if (!field)
		return false;
	initStringInfo(&fb);
	in_extract = true;
	PG_TRY();
	{
		old(&fb, cx, args, row);
	}
	PG_FINALLY();
	{
		in_extract = false;
	}
	PG_END_TRY();
	appendStringInfoString(buf, chfdw_epoch_marker(v->varattno, ts ? 'g' : 'd', field, fb.data));
	return true;
}
