/*-------------------------------------------------------------------------
 * deparse.c
 *	  Building the ClickHouse SQL sent for a scan.
 *
 * Identifiers are always quoted with back-quotes, with backslash and
 * back-quote escaped (ClickHouse treats the backslash as an escape inside
 * quoted identifiers), so no table or column name can break out. Control
 * bytes in identifiers and literals are written as \xHH, so the SQL text
 * never holds one (run-time value markers are \x01, date column markers
 * \x02).
 *
 * src/fdw/deparse.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_type.h"
#include "nodes/bitmapset.h"
#include "optimizer/optimizer.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/tlist.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "chfdw.h"
#include "shippable.h"

/*
 * s between quote characters, for ClickHouse: the quote and backslashes
 * escaped with a backslash (ClickHouse treats a backslash inside quotes as
 * an escape), control bytes as \xHH (the SQL's run-time value markers are
 * \x01, so no literal or identifier can hold one).
 */
static void
append_quoted(StringInfo buf, const char *s, char quote)
{
	const char *p;

	appendStringInfoChar(buf, quote);
	for (p = s; *p; p++)
	{
		if ((unsigned char) *p < 0x20 || *p == 0x7f)
			appendStringInfo(buf, "\\x%02x", (unsigned char) *p);
		else
		{
			if (*p == quote || *p == '\\')
				appendStringInfoChar(buf, '\\');
			appendStringInfoChar(buf, *p);
		}
	}
	appendStringInfoChar(buf, quote);
}

void
chfdw_quote_identifier(StringInfo buf, const char *ident)
{
	append_quoted(buf, ident, '`');
}

/* A ClickHouse string literal. */
void
chfdw_quote_literal(StringInfo buf, const char *s)
{
	append_quoted(buf, s, '\'');
}

/*
 * A column declared as a composite type (or an array of one) reads a Tuple
 * element by element (convert.c): it is always sent as itself, since the
 * text of toString() is SQL-quoted tuple syntax, not PostgreSQL's record
 * text.
 */
static bool
composite_type(Oid t)
{
	Oid			elem = get_element_type(t);

	if (OidIsValid(elem))
		t = elem;
	return get_typtype(t) == TYPTYPE_COMPOSITE;
}

/*
 * A column as the SELECT list reads it: types without a binary mapping
 * (JSON, Variant, ...) as text (read_as), composite types as themselves.
 */
void
chfdw_deparse_column(StringInfo buf, Oid relid, AttrNumber attnum)
{
	switch (composite_type(get_atttype(relid, attnum)) ? 0 :
			chfdw_column_read_as(relid, attnum))
	{
		case 's':
			appendStringInfoString(buf, "toString(");
			chfdw_quote_identifier(buf, chfdw_column_name(relid, attnum));
			appendStringInfoChar(buf, ')');
			break;
		case 'a':
			/* an AggregateFunction column (option aggregate, chfuncs.c) */
			appendStringInfoString(buf, "finalizeAggregation(");
			chfdw_quote_identifier(buf, chfdw_column_name(relid, attnum));
			appendStringInfoChar(buf, ')');
			break;
		case 'j':
			appendStringInfoString(buf, "toJSONString(");
			chfdw_quote_identifier(buf, chfdw_column_name(relid, attnum));
			appendStringInfoChar(buf, ')');
			break;
		default:
			chfdw_quote_identifier(buf, chfdw_column_name(relid, attnum));
			break;
	}
}

/*
 * The name a column of a join's table has above that table's sub-SELECT:
 * r<range table index>_<attribute number>, one per relation and column of
 * the query, so that no two tables' columns (a self-join's either) meet.
 */
void
chfdw_var_alias(StringInfo buf, Var *v)
{
	appendStringInfo(buf, "`r%u_%d`", (unsigned) v->varno, (int) v->varattno);
}

/* "<letter><digits>_<digits>[n]": r1_2, k3_1, k3_1n */
static bool
numbered_name(const char *s, char letter)
{
	const char *p = s + 1;

	if (s[0] != letter || !isdigit((unsigned char) *p))
		return false;
	while (isdigit((unsigned char) *p))
		p++;
	if (*p++ != '_' || !isdigit((unsigned char) *p))
		return false;
	while (isdigit((unsigned char) *p))
		p++;
	return *p == '\0' || (letter == 'k' && strcmp(p, "n") == 0);
}

/*
 * Does a column of foreign table relid have a name the sent SQL gives its
 * own outputs: a join side's r<i>_<n> (chfdw_var_alias) and k<i>_<n>[n]
 * (its keys), a UNION ALL member's u_<n>, `one` (either, of no column), a
 * correlated subquery's __sq<n>_...? ClickHouse resolves a name to an alias
 * of the same SELECT before a column (`SELECT id AS r1_1, r1_1 AS r1_3 FROM
 * t WHERE r1_1 > 150` compared id, on 18.16 and 26.5), so joins, UNION ALLs
 * and correlated subqueries of such a table stay local (test join_pushdown).
 * The window query's w_<n> is chosen per query instead (window.c).
 */
bool
chfdw_alias_like_columns(Oid relid)
{
	Relation	r = table_open(relid, NoLock);
	TupleDesc	desc = RelationGetDescr(r);
	bool		found = false;

	for (int i = 0; i < desc->natts && !found; i++)
	{
		const char *n;

		if (TupleDescAttr(desc, i)->attisdropped)
			continue;
		n = chfdw_column_name(relid, i + 1);
		found = strcmp(n, "one") == 0 || strncmp(n, "__sq", 4) == 0 ||
			numbered_name(n, 'r') || numbered_name(n, 'k') ||
			(strncmp(n, "u_", 2) == 0 && n[2] != '\0' && strspn(n + 2, "0123456789") == strlen(n + 2));
	}
	table_close(r, NoLock);
	return found;
}

/*
 * SELECT <the columns in attrs_used> FROM `db`.`table` FORMAT Native.
 * retrieved_attrs receives the attribute numbers in SELECT-list order.
 * With no column needed (count(*)), one constant column is selected so the
 * rows still come back.
 */
void
chfdw_deparse_select(StringInfo buf, PlannerInfo *root, RelOptInfo *baserel,
					 Relation rel, Bitmapset *attrs_used, List **retrieved_attrs)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	bool		whole_row;
	bool		first = true;
	int			i;
	(void) root;
	(void) baserel;
	*retrieved_attrs = NIL;
	whole_row = bms_is_member(0 - FirstLowInvalidHeapAttributeNumber, attrs_used);

	appendStringInfoString(buf, "SELECT ");
	for (i = 1; i <= tupdesc->natts; i++)
	{
		Form_pg_attribute attr = TupleDescAttr(tupdesc, i - 1);

		if (attr->attisdropped)
			continue;
		if (!whole_row &&
			!bms_is_member(i - FirstLowInvalidHeapAttributeNumber, attrs_used))
			continue;
		if (!first)
			appendStringInfoString(buf, ", ");
		first = false;
		chfdw_deparse_column(buf, RelationGetRelid(rel), i);
		*retrieved_attrs = lappend_int(*retrieved_attrs, i);
	}
	if (first)
		appendStringInfoString(buf, "1");

	appendStringInfoString(buf, " FROM ");
	chfdw_deparse_table(buf, rel);
}

/*
 * "`db`.`table`" of a foreign table, with " FINAL" when its option final
 * is on (ClickHouse merges the parts' versions of a Replacing/Collapsing/
 * Aggregating MergeTree as it reads, so the rows are the merged state).
 */
void
chfdw_deparse_table(StringInfo buf, Relation rel)
{
	const char *database;
	const char *table;

	chfdw_get_table_names(rel, &database, &table);
	chfdw_quote_identifier(buf, database);
	appendStringInfoChar(buf, '.');
	chfdw_quote_identifier(buf, table);
	if (chfdw_read_final(RelationGetRelid(rel)))
		appendStringInfoString(buf, " FINAL");
}

/* ---- joins ---- */

/*
 * A join is sent in the form ClickHouse 18.16 and modern servers both run
 * with PostgreSQL's answer (the 18.16 traps: the wire doc's section 7):
 *
 *	SELECT <columns> FROM (<outer side>) AS `s1`
 *	  ALL <INNER|LEFT|RIGHT|FULL> JOIN (<inner side>) AS `s2` USING (`k3_1`, `k3_1n`)
 *	  [WHERE <conditions above the join>] SETTINGS join_use_nulls = 1
 *
 * - One JOIN per SELECT: each side is a sub-SELECT (a table's, or a join's
 *	 own, nested), its columns named by chfdw_var_alias.
 * - USING, never ON: each side's sub-SELECT computes the join keys under
 *	 the same names (18.16 reads right-hand key columns back wrong after
 *	 JOIN ... ON, and takes only a = b [AND c = d] there); the columns read
 *	 are separate copies, never the keys.
 * - NULL keys never match, and no key is Nullable (18.16 crashes on some
 *	 joins of Nullable keys): a key is ifNull(x, 0) (text: '') and a flag,
 *	 isNull(x) on the outer side and isNull(x) * 2 on the inner side, so a
 *	 NULL matches nothing, not even another NULL.
 * - Keys of both sides have one type: Int64 for integers, String for text.
 * - join_use_nulls = 1: the missing side of an outer join is NULL, not the
 *	 type's default.
 * - SEMI and ANTI joins: "WHERE (keys) [NOT] IN (SELECT keys FROM (<inner
 *	 side>))": each outer row once (or not at all), whatever the inner
 *	 duplicates; the keys are never NULL, so NOT IN is exact.
 */

static void deparse_join_body(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *rel,
							  List *more_conds);

/* The Vars of rel's output, each once, in output order. */
static List *
rel_vars(RelOptInfo *rel)
{
	return add_to_flat_tlist(NIL, pull_var_clause((Node *) rel->reltarget->exprs,
												  PVC_RECURSE_PLACEHOLDERS));
}

/*
 * One join key of a sub-SELECT: value and NULL flag, as the comment above.
 * (probes) nullable (a FULL JOIN's side, deparse_side): the flag of
 * tuple(col).1, as 18.16's isNull() of a LowCardinality column is
 * LowCardinality(UInt8), which join_use_nulls refuses to make Nullable.
 */
static void
deparse_key(StringInfo buf, RelOptInfo *rel, Var *v, int id, int n, bool inner, bool nullable)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) rel->fdw_private;
	StringInfoData col;
	/* (numeric keys of one scale: their text, plan.c's join_key) */
	bool		text = chfdw_type_class(v->vartype) == TC_TEXT ||
		chfdw_type_class(v->vartype) == TC_NUMERIC;

	initStringInfo(&col);
	if (fp->is_join)
		chfdw_var_alias(&col, v);
	else
		chfdw_quote_identifier(&col, chfdw_column_name(fp->relid, v->varattno));
	if (text)
		appendStringInfo(buf, ", CAST(ifNull(toString(%s), '') AS String)", col.data);
	else
		appendStringInfo(buf, ", CAST(ifNull(%s, 0) AS Int64)", col.data);
	appendStringInfo(buf, nullable ? " AS `k%d_%d`, toUInt8(isNull(tuple(%s).1)%s) AS `k%d_%dn`" :
					 " AS `k%d_%d`, toUInt8(isNull(%s)%s) AS `k%d_%dn`",
					 id, n, col.data, inner ? " * 2" : "", id, n);
	pfree(col.data);
}

/*
 * "(SELECT <rel's columns>, <keys> FROM ... [WHERE ...]) AS `sN`": one side
 * of a join. side_conds: bare ON clauses on this side alone (LEFT JOIN b ON
 * ... AND b.x > 0), evaluated before the join.
 *
 * nullable SIDE_FULL (a side of a FULL JOIN): every column is made Nullable
 * before the join (text: CAST to Nullable(String), which
 * LowCardinality(String) takes too; the others toNullable(tuple(col).1)).
 * (probes) SIDE_OUTER (the side join_use_nulls makes Nullable in a LEFT or
 * RIGHT JOIN): every column as tuple(col).1, of its own type. ClickHouse 18.16 shows
 * the rows a FULL JOIN adds for the other side's unmatched rows with NULL
 * in a non-Nullable column, but its aggregates read the column's memory
 * there: count(x) counted them, sum(x) added garbage, min() of a String
 * crashed the server (SELECT count(fz1.g), sum(fz1.g) ... FULL JOIN; test
 * join_pushdown). (probes) The tuple: 18.16's toNullable() of a
 * LowCardinality column is LowCardinality(Nullable(T)), which the join's
 * join_use_nulls then wraps in Nullable and refuses ("Nested type
 * LowCardinality(Nullable(Int32)) cannot be inside Nullable type", for
 * LowCardinality(Nullable(T)) columns too; LowCardinality(String) on the
 * side join_use_nulls makes Nullable of a LEFT or RIGHT JOIN too, and its
 * key's NULL flag, isNull() being LowCardinality(UInt8) there); tuple(col).1
 * is the column's values without LowCardinality there (the 26.5 engine
 * keeps it, and joins it), and the column itself for other types. Test
 * probes.
 */
#define SIDE_PLAIN 0
#define SIDE_FULL 1
#define SIDE_OUTER 2
static void
deparse_side(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *rel, List *keys, int id,
			 bool inner, List *side_conds, int nullable)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) rel->fdw_private;
	List	   *vars = rel_vars(rel);
	ListCell   *lc;
	bool		first = true;
	int			n = 0;

	appendStringInfoString(buf, "(SELECT ");
	foreach(lc, vars)
	{
		Var		   *v = (Var *) ((TargetEntry *) lfirst(lc))->expr;

		bool		text = chfdw_type_class(v->vartype) == TC_TEXT;

		if (!first)
			appendStringInfoString(buf, ", ");
		first = false;
		if (nullable)
			appendStringInfoString(buf, nullable == SIDE_OUTER ? "tuple(" :
								   text ? "CAST(" : "toNullable(tuple(");
		if (!fp->is_join)
			chfdw_deparse_column(buf, fp->relid, v->varattno);
		else if (nullable)
			chfdw_var_alias(buf, v);
		if (nullable)
			appendStringInfoString(buf, nullable == SIDE_OUTER ? ").1" :
								   text ? " AS Nullable(String))" : ").1)");
		if (!fp->is_join || nullable)
			appendStringInfoString(buf, " AS ");
		chfdw_var_alias(buf, v);
	}
	if (first)
		appendStringInfoString(buf, "1 AS `one`");
	foreach(lc, keys)
		deparse_key(buf, rel, (Var *) lfirst(lc), id, ++n, inner, nullable != SIDE_PLAIN);
	appendStringInfoString(buf, " FROM ");
	if (fp->is_join)
		deparse_join_body(dp, buf, rel, side_conds);	/* after the sub-join */
	else
	{
		Relation	r = table_open(fp->relid, NoLock);
		List	   *conds = list_concat(extract_actual_clauses(fp->remote_conds, false),
										side_conds);

		chfdw_deparse_table(buf, r);
		table_close(r, NoLock);
		chfdw_deparse_where(dp, buf, rel, fp->relid, conds);
	}
	appendStringInfo(buf, ") AS `s%d`", ++dp->nalias);
}

/* "`k<id>_1`, `k<id>_1n`, ..." */
static void
deparse_key_names(StringInfo buf, int id, int nkeys)
{
	int			i;

	for (i = 1; i <= nkeys; i++)
		appendStringInfo(buf, "%s`k%d_%d`, `k%d_%dn`", i > 1 ? ", " : "", id, i, id, i);
}

/*
 * What follows FROM for a join relation (see the comment above), with
 * more_conds (bare, over its columns) added to its WHERE.
 */
static void
deparse_join_body(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *rel, List *more_conds)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) rel->fdw_private;
	int			id = ++dp->nalias;
	int			nkeys = list_length(fp->outer_keys);
	List	   *where = list_concat(extract_actual_clauses(fp->remote_conds, false),
									more_conds);

	/* (probes) the sides join_use_nulls makes Nullable: see deparse_side */
	deparse_side(dp, buf, fp->outerrel, fp->outer_keys, id, false, fp->outer_side_conds,
				 fp->jointype == JOIN_FULL ? SIDE_FULL :
				 fp->jointype == JOIN_RIGHT ? SIDE_OUTER : SIDE_PLAIN);
	if (fp->jointype == JOIN_SEMI || fp->jointype == JOIN_ANTI)
	{
		appendStringInfoString(buf, " WHERE (");
		deparse_key_names(buf, id, nkeys);
		appendStringInfoString(buf, fp->jointype == JOIN_SEMI ? ") IN (SELECT " : ") NOT IN (SELECT ");
		deparse_key_names(buf, id, nkeys);
		appendStringInfoString(buf, " FROM ");
		deparse_side(dp, buf, fp->innerrel, fp->inner_keys, id, true, fp->inner_side_conds,
					 SIDE_PLAIN);
		appendStringInfoChar(buf, ')');
		chfdw_deparse_rel_conds(dp, buf, rel, "AND", where);
		return;
	}
	switch (fp->jointype)
	{
		case JOIN_INNER:
			appendStringInfoString(buf, " ALL INNER JOIN ");
			break;
		case JOIN_LEFT:
			appendStringInfoString(buf, " ALL LEFT JOIN ");
			break;
		case JOIN_RIGHT:
			appendStringInfoString(buf, " ALL RIGHT JOIN ");
			break;
		case JOIN_FULL:
			appendStringInfoString(buf, " ALL FULL JOIN ");
			break;
		default:
			elog(ERROR, "unexpected join type %d", (int) fp->jointype);
	}
	deparse_side(dp, buf, fp->innerrel, fp->inner_keys, id, true, fp->inner_side_conds,
				 fp->jointype == JOIN_FULL ? SIDE_FULL :
				 fp->jointype == JOIN_LEFT ? SIDE_OUTER : SIDE_PLAIN);
	appendStringInfoString(buf, " USING (");
	deparse_key_names(buf, id, nkeys);
	appendStringInfoChar(buf, ')');
	chfdw_deparse_rel_conds(dp, buf, rel, "WHERE", where);
}

/* What follows FROM in a grouped query over a join (its WHERE included). */
void
chfdw_deparse_join_from(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *joinrel)
{
	deparse_join_body(dp, buf, joinrel, NIL);
}

/*
 * The front door: the SELECT ClickHouse runs for a relation, a foreign
 * table (rel_rel open; the columns of attrs_used, or the entries of
 * scan_tlist when it has one: columns and ClickHouse's own functions;
 * remote_exprs, bare, in its WHERE) or a join of foreign tables (the columns of scan_tlist, a
 * list of TargetEntries of Vars), sorted by pathkeys, stopping at limit
 * (-1: none). retrieved_attrs: the attribute numbers (a join: positions in
 * scan_tlist) in SELECT-list order.
 */
void
chfdw_deparse_rel_select(ChFdwDeparse *dp, StringInfo buf, RelOptInfo *rel,
						 Relation rel_rel, Bitmapset *attrs_used, List *scan_tlist,
						 List *remote_exprs, List *pathkeys, int64 limit,
						 List **retrieved_attrs)
{
	ChFdwRelInfo *fp = (ChFdwRelInfo *) rel->fdw_private;

	if (!fp->is_join && scan_tlist != NIL)
	{
		/* a table's columns and ClickHouse's own functions (chfdw_chfunc_scan_tlist) */
		ListCell   *lc;

		*retrieved_attrs = NIL;
		appendStringInfoString(buf, "SELECT ");
		foreach(lc, scan_tlist)
		{
			Expr	   *e = ((TargetEntry *) lfirst(lc))->expr;

			if (foreach_current_index(lc) > 0)
				appendStringInfoString(buf, ", ");
			if (IsA(e, Var))
				chfdw_deparse_column(buf, fp->relid, ((Var *) e)->varattno);
			else
				chfdw_deparse_value_expr(dp, buf, rel, fp->relid, e);
			*retrieved_attrs = lappend_int(*retrieved_attrs, foreach_current_index(lc) + 1);
		}
		appendStringInfoString(buf, " FROM ");
		chfdw_deparse_table(buf, rel_rel);
		chfdw_deparse_where(dp, buf, rel, fp->relid, remote_exprs);
		if (pathkeys)
			chfdw_deparse_order_by(dp, buf, rel, fp->relid, pathkeys, NIL);
	}
	else if (!fp->is_join)
	{
		chfdw_deparse_select(buf, dp->root, rel, rel_rel, attrs_used, retrieved_attrs);
		chfdw_deparse_where(dp, buf, rel, fp->relid, remote_exprs);
		if (pathkeys)
			chfdw_deparse_order_by(dp, buf, rel, fp->relid, pathkeys, NIL);
	}
	else
	{
		ListCell   *lc;
		int			i = 0;

		*retrieved_attrs = NIL;
		appendStringInfoString(buf, "SELECT ");
		foreach(lc, scan_tlist)
		{
			Expr	   *e = ((TargetEntry *) lfirst(lc))->expr;

			if (i > 0)
				appendStringInfoString(buf, ", ");
			if (IsA(e, Var))
				chfdw_var_alias(buf, (Var *) e);
			else				/* ClickHouse's own functions (chfdw_chfunc_join_tlist) */
				chfdw_chfunc_deparse_join_value(dp, buf, rel, e);
			*retrieved_attrs = lappend_int(*retrieved_attrs, ++i);
		}
		if (i == 0)
			appendStringInfoString(buf, "1");
		appendStringInfoString(buf, " FROM ");
		deparse_join_body(dp, buf, rel, NIL);
		if (pathkeys)
			chfdw_deparse_order_by(dp, buf, rel, InvalidOid, pathkeys, rel->reltarget->exprs);
	}
	if (limit >= 0)
		appendStringInfo(buf, " LIMIT " INT64_FORMAT, limit);
	if (fp->is_join)
		appendStringInfoString(buf, " SETTINGS join_use_nulls = 1");
	appendStringInfoString(buf, " FORMAT Native");
}

/*
 * A column declared date inside shipped SQL (a condition, a grouping key,
 * an aggregate's argument, ORDER BY): "\x02" attnum ":" `name` "\x02". Over a
 * ClickHouse Date it stays the column; over a DateTime it must become that
 * DateTime's date in its zone, as the value is read (convert.c), or a
 * comparison with a Date would compare instants. Which one it is only the
 * remote catalog says: the marker is resolved when the query starts
 * (chfdw_bind_date_columns); EXPLAIN shows the column.
 */
void
chfdw_deparse_date_column(StringInfo buf, Oid relid, AttrNumber attnum)
{
	appendStringInfo(buf, "\x02%d:", (int) attnum);
	chfdw_quote_identifier(buf, chfdw_column_name(relid, attnum));
	appendStringInfoChar(buf, '\x02');
}

/*
 * A column declared timestamp as the arguments of a ClickHouse date
 * function computing in the column's zone: "\x02" attnum "z:" `name` "\x02",
 * resolved when the query starts (chfdw_bind_date_columns) to
 * "`name`, 'zone'" (the zone of the column's DateTime/DateTime64 type, UTC
 * when it names none: the zone its wall time is read in, convert.c).
 * Without with_zone ("g", a timestamptz column, whose date parts are
 * computed in the session's zone): the column alone. Either way a
 * DateTime on a server with 18.16's table of days raises over the last
 * days of its range (chfdw_bind_date_columns).
 */
void
chfdw_deparse_zoned_column(StringInfo buf, Oid relid, AttrNumber attnum, bool with_zone)
{
	appendStringInfo(buf, with_zone ? "\x02%dz:" : "\x02%dg:", (int) attnum);
	chfdw_quote_identifier(buf, chfdw_column_name(relid, attnum));
	appendStringInfoChar(buf, '\x02');
}

/*
 * (dates) The fraction of a second of a timestamp or timestamptz column,
 * as the microseconds PostgreSQL reads (Int64, 0..999999): "\x02" attnum
 * "u:" `name` "\x02", resolved when the query starts
 * (chfdw_bind_date_columns) by the column's type: 0 for a DateTime or a
 * Date, the DateTime64's ticks below the second otherwise (rounded half to
 * even below the microsecond, as convert.c reads them).
 */
void
chfdw_deparse_fraction_column(StringInfo buf, Oid relid, AttrNumber attnum)
{
	appendStringInfo(buf, "\x02%du:", (int) attnum);
	chfdw_quote_identifier(buf, chfdw_column_name(relid, attnum));
	appendStringInfoChar(buf, '\x02');
}
