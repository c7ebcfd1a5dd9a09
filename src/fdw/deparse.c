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
#include "catalog/pg_type.h"
#include "nodes/bitmapset.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "chfdw.h"

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
composite_column(Form_pg_attribute attr)
{
	Oid			t = attr->atttypid;
	Oid			elem = get_element_type(t);

	if (OidIsValid(elem))
		t = elem;
	return get_typtype(t) == TYPTYPE_COMPOSITE;
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
	const char *database;
	const char *table;

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
		switch (composite_column(attr) ? 0 : chfdw_column_read_as(RelationGetRelid(rel), i))
		{
			case 's':
				/* types without a binary mapping (JSON, Variant, ...) as text */
				appendStringInfoString(buf, "toString(");
				chfdw_quote_identifier(buf, chfdw_column_name(RelationGetRelid(rel), i));
				appendStringInfoChar(buf, ')');
				break;
			case 'j':
				appendStringInfoString(buf, "toJSONString(");
				chfdw_quote_identifier(buf, chfdw_column_name(RelationGetRelid(rel), i));
				appendStringInfoChar(buf, ')');
				break;
			default:
				chfdw_quote_identifier(buf, chfdw_column_name(RelationGetRelid(rel), i));
				break;
		}
		*retrieved_attrs = lappend_int(*retrieved_attrs, i);
	}
	if (first)
		appendStringInfoString(buf, "1");

	chfdw_get_table_names(rel, &database, &table);
	appendStringInfoString(buf, " FROM ");
	chfdw_quote_identifier(buf, database);
	appendStringInfoChar(buf, '.');
	chfdw_quote_identifier(buf, table);
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
