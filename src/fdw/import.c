/*-------------------------------------------------------------------------
 * import.c
 *	  IMPORT FOREIGN SCHEMA: one CREATE FOREIGN TABLE per ClickHouse table,
 *	  view or materialized view of a ClickHouse database.
 *
 * Design:
 *	- One metadata query per import reads every column of every wanted
 *	  table (system.columns, filtered with system.tables when views are
 *	  excluded), through the same Native reader as scans; nothing parses
 *	  text output. Before it, a tiny query asks whether this server's
 *	  system.columns has a "position" column (modern servers; 18.16 has
 *	  none, and lists the columns of a table in table order). Only when
 *	  the metadata query finds nothing, a third one tells an unknown
 *	  database from an empty one.
 *	- Column types come from chfdw_natural_type on the type text of
 *	  system.columns (which, unlike 18.16's HTTP Native headers, keeps the
 *	  zone of DateTime('tz')), so that what IMPORT declares is what a scan
 *	  reads with its direct conversions. A type with no mapping becomes
 *	  text with a WARNING: one odd column never aborts the import.
 *	- Identifiers are quoted with quote_identifier, so the PostgreSQL name
 *	  is the ClickHouse name exactly (mixed case, spaces, quotes). A column
 *	  gets a column_name option only when its name does not fit in
 *	  NAMEDATALEN and PostgreSQL truncates it; every table gets the options
 *	  database and table.
 *	- The internal tables of materialized views (".inner.<view>" and
 *	  ".inner_id.<uuid>") are skipped unless named in LIMIT TO.
 *
 * src/fdw/import.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/defrem.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "chfdw.h"

/* Options of IMPORT FOREIGN SCHEMA, with their defaults. */
typedef struct ImportOptions
{
	bool		not_null;		/* import_not_null: non-Nullable → NOT NULL */
	bool		views;			/* import_views: views and materialized views */
	bool		fixed_bytea;	/* fixedstring_as_bytea: FixedString(N) as
								 * bytea, not text */
	bool		shard_tables;	/* import_shard_tables: tables a Distributed
								 * table of the database reads */
} ImportOptions;

/* One row of the metadata query. */
typedef struct ImportColumn
{
	char	   *table;			/* ClickHouse table name */
	char	   *name;			/* column name */
	char	   *type;			/* type text, as system.columns gives it */
	uint64		position;		/* 1-based position, or the arrival order */
} ImportColumn;

/* Rows collected by columns_block. */
typedef struct ImportRows
{
	ImportColumn *rows;
	int			nrows;
	int			maxrows;
	bool		with_position;	/* a fourth column gives the position */
	MemoryContext cxt;			/* where rows and strings go */
} ImportRows;

/* ---- options ---- */

static bool
import_bool(DefElem *def)
{
	const char *value = defGetString(def);
	bool		result;

	if (!parse_bool(value, &result))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_INVALID_ATTRIBUTE_VALUE),
				 errmsg("invalid value for option \"%s\": \"%s\"", def->defname, value),
				 errhint("The value must be a Boolean: true or false.")));
	return result;
}

/*
 * Check the OPTIONS of IMPORT FOREIGN SCHEMA and fill *o (defaults: both
 * true, fixedstring_as_bytea false). Unknown or repeated options are errors.
 */
static void
parse_import_options(List *options, ImportOptions *o)
{
	ListCell   *lc;

	o->not_null = true;
	o->views = true;
	o->fixed_bytea = false;
	o->shard_tables = true;
	foreach(lc, options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);
		ListCell   *lc2;

		foreach(lc2, options)
		{
			DefElem    *other = (DefElem *) lfirst(lc2);

			if (other == def)
				break;
			if (strcmp(other->defname, def->defname) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
						 errmsg("option \"%s\" given more than once", def->defname)));
		}
		if (strcmp(def->defname, "import_not_null") == 0)
			o->not_null = import_bool(def);
		else if (strcmp(def->defname, "import_views") == 0)
			o->views = import_bool(def);
		else if (strcmp(def->defname, "fixedstring_as_bytea") == 0)
			o->fixed_bytea = import_bool(def);
		else if (strcmp(def->defname, "import_shard_tables") == 0)
			o->shard_tables = import_bool(def);
		else
			ereport(ERROR,
					(errcode(ERRCODE_FDW_INVALID_OPTION_NAME),
					 errmsg("invalid option \"%s\" for IMPORT FOREIGN SCHEMA", def->defname),
					 errhint("Valid options are import_not_null, import_views, import_shard_tables and fixedstring_as_bytea.")));
	}
}

/* ---- reading the metadata ---- */

/* A String or LowCardinality(String) value as a palloc'd C string. */
static char *
text_value(const ch_column *c, uint64 row)
{
	const uint8 *p;
	uint32		len;
	char	   *s;

	if (c->type->kind == CH_T_LOWCARDINALITY &&
		c->children[0].type->kind == CH_T_STRING)
	{
		row = ch_col_lc_key(c, row);
		c = &c->children[0];
	}
	if (c->type->kind != CH_T_STRING)
		elog(ERROR, "expected a String column from ClickHouse, got %s", c->type->name);
	p = ch_col_str(c, row, &len);
	pg_verifymbstr((const char *) p, (int) len, false);
	s = palloc(len + 1);
	memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

static void
columns_block(const ch_block *b, void *arg)
{
	ImportRows *r = (ImportRows *) arg;
	MemoryContext old = MemoryContextSwitchTo(r->cxt);
	uint64		i;

	if (b->ncols != (r->with_position ? 4 : 3))
		elog(ERROR, "unexpected column count %llu from system.columns",
			 (unsigned long long) b->ncols);
	if (r->with_position && b->cols[3].type->kind != CH_T_UINT64)
		elog(ERROR, "unexpected type %s of system.columns.position", b->cols[3].type->name);
	for (i = 0; i < b->nrows; i++)
	{
		ImportColumn *c;

		if (r->nrows == r->maxrows)
		{
			r->maxrows = r->maxrows ? r->maxrows * 2 : 64;
			r->rows = r->rows ? repalloc_huge(r->rows, sizeof(ImportColumn) * r->maxrows)
				: palloc_extended(sizeof(ImportColumn) * r->maxrows, MCXT_ALLOC_HUGE);
		}
		c = &r->rows[r->nrows];
		c->table = text_value(&b->cols[0], i);
		c->name = text_value(&b->cols[1], i);
		c->type = text_value(&b->cols[2], i);
		c->position = r->with_position ? ch_le64(ch_col_fixed(&b->cols[3], i))
			: (uint64) r->nrows;
		r->nrows++;
	}
	MemoryContextSwitchTo(old);
}

static void
count_block(const ch_block *b, void *arg)
{
	*(uint64 *) arg += b->nrows;
}

/* Number of rows sql returns (run in the always present database system). */
static uint64
count_rows(ChFdwConn *conn, const char *sql)
{
	uint64		n = 0;

	chfdw_run_query(conn, sql, "system", count_block, &n);
	return n;
}

/* Does this server's system.columns have a "position" column? */
static bool
server_has_position(ChFdwConn *conn)
{
	return count_rows(conn, "SELECT name FROM system.columns"
					  " WHERE database = 'system' AND table = 'columns' AND name = 'position'"
					  " FORMAT Native") > 0;
}

static bool
database_exists(ChFdwConn *conn, const char *database)
{
	StringInfoData sql;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT name FROM system.databases WHERE name = ");
	chfdw_quote_literal(&sql, database);
	appendStringInfoString(&sql, " FORMAT Native");
	return count_rows(conn, sql.data) > 0;
}

/* 'a', 'b', ...: the names of a LIMIT TO / EXCEPT list as ClickHouse literals. */
static void
append_name_list(StringInfo buf, List *tables)
{
	ListCell   *lc;

	foreach(lc, tables)
	{
		RangeVar   *rv = (RangeVar *) lfirst(lc);

		if (lc != list_head(tables))
			appendStringInfoString(buf, ", ");
		chfdw_quote_literal(buf, rv->relname);
	}
}

/*
 * The metadata query: table, name, type (and position) of the columns of
 * the wanted tables of stmt->remote_schema.
 *
 * LIMIT TO and EXCEPT are applied remotely too, to read less (PostgreSQL
 * applies them again to the commands returned). A LIMIT TO name of
 * NAMEDATALEN - 1 bytes may be a truncated longer name, so then LIMIT TO
 * is left to PostgreSQL alone.
 */
static char *
metadata_sql(ImportForeignSchemaStmt *stmt, const ImportOptions *o, bool with_position)
{
	StringInfoData sql;

	initStringInfo(&sql);
	appendStringInfo(&sql, "SELECT table, name, type%s FROM system.columns WHERE database = ",
					 with_position ? ", position" : "");
	chfdw_quote_literal(&sql, stmt->remote_schema);
	if (stmt->list_type == FDW_IMPORT_SCHEMA_LIMIT_TO)
	{
		ListCell   *lc;
		bool		exact = true;

		foreach(lc, stmt->table_list)
			if (strlen(((RangeVar *) lfirst(lc))->relname) >= NAMEDATALEN - 1)
				exact = false;
		if (exact)
		{
			appendStringInfoString(&sql, " AND table IN (");
			append_name_list(&sql, stmt->table_list);
			appendStringInfoChar(&sql, ')');
		}
	}
	else if (stmt->list_type == FDW_IMPORT_SCHEMA_EXCEPT)
	{
		appendStringInfoString(&sql, " AND table NOT IN (");
		append_name_list(&sql, stmt->table_list);
		appendStringInfoChar(&sql, ')');
	}
	if (!o->shard_tables)
	{
		/*
		 * The tables a Distributed table of this database reads:
		 * Distributed(cluster, database, table[, sharding key]) in its
		 * engine_full, arguments quoted or not.
		 */
		appendStringInfoString(&sql, " AND table NOT IN (SELECT replaceRegexpAll(splitByChar(',', "
							   "substring(engine_full, position(engine_full, '(') + 1))[3], "
							   "'^[ ''`\"]+|[ ''`\")]+$', '') FROM system.tables WHERE database = ");
		chfdw_quote_literal(&sql, stmt->remote_schema);
		appendStringInfoString(&sql, " AND engine = 'Distributed' AND replaceRegexpAll(splitByChar(',', "
							   "substring(engine_full, position(engine_full, '(') + 1))[2], "
							   "'^[ ''`\"]+|[ ''`\"]+$', '') IN (");
		chfdw_quote_literal(&sql, stmt->remote_schema);
		appendStringInfoString(&sql, ", 'currentDatabase()'))");
	}
	if (!o->views)
	{
		appendStringInfoString(&sql, " AND table IN (SELECT name FROM system.tables WHERE database = ");
		chfdw_quote_literal(&sql, stmt->remote_schema);
		appendStringInfoString(&sql, " AND engine NOT IN ('View', 'MaterializedView', 'LiveView', 'WindowView'))");
	}
	if (with_position)
		appendStringInfoString(&sql, " ORDER BY table, position");
	appendStringInfoString(&sql, " FORMAT Native");
	return sql.data;
}

/* Tables by name (bytewise), then columns by position. */
static int
import_column_cmp(const void *a, const void *b)
{
	const ImportColumn *x = (const ImportColumn *) a;
	const ImportColumn *y = (const ImportColumn *) b;
	int			c = strcmp(x->table, y->table);

	if (c != 0)
		return c;
	return x->position < y->position ? -1 : x->position > y->position ? 1 : 0;
}

/* ---- building the commands ---- */

/* Is the column's value NULL-able (a Nullable under LowCardinality too)? */
static bool
type_is_nullable(const ch_type *t)
{
	for (;;)
	{
		if (t->kind == CH_T_NULLABLE)
			return true;
		if (t->kind != CH_T_LOWCARDINALITY)
			return false;
		t = t->children[0];
	}
}

/*
 * The PostgreSQL type (as SQL text) of a ClickHouse type: its natural type,
 * with the Decimal's precision and scale as typmod, also for the elements
 * of arrays. NULL when it has none.
 */
static char *
pg_type_text(const ch_type *t)
{
	const ch_type *leaf = ch_type_unwrap(t);
	int32		typmod;
	Oid			oid = chfdw_natural_type(t, &typmod);

	if (!OidIsValid(oid))
		return NULL;
	if (leaf->kind == CH_T_ARRAY)
	{
		const ch_type *elem = leaf;

		while (ch_type_unwrap(elem)->kind == CH_T_ARRAY)
			elem = ch_type_unwrap(elem)->children[0];
		(void) chfdw_natural_type(elem, &typmod);
	}
	return format_type_with_typemod(oid, typmod);
}

/*
 * The function of an AggregateFunction type: "sum" of "sum, UInt64", and
 * "sumMap" of "1, sumMap, Array(UInt8), Array(UInt64)": a versioned state
 * names its version number first (ClickHouse's
 * src/DataTypes/DataTypeAggregateFunction.cpp, create()).
 */
static char *
aggregate_name(const ch_type *t)
{
	const char *a = t->arg_text ? t->arg_text : "";
	size_t		n;

	while (*a == ' ')
		a++;
	if (*a >= '0' && *a <= '9')
	{
		const char *v = a + strspn(a, "0123456789");

		while (*v == ' ')
			v++;
		if (*v == ',')
		{
			a = v + 1;
			while (*a == ' ')
				a++;
		}
	}
	n = strcspn(a, "(, ");

	return n > 0 ? pnstrdup(a, n) : pstrdup("f");
}

/*
 * The state's function with its parameters, as the column option aggregate
 * gives it: "uniq" of "uniq, UInt64", "quantiles(0.5, 0.9)" of
 * "quantiles(0.5, 0.9), Float64" (a versioned state's number skipped). NULL
 * when the parameters are not all numbers (the option takes no other).
 */
static char *
aggregate_state_text(const ch_type *t)
{
	const char *a = t->arg_text ? t->arg_text : "";
	const char *v;
	size_t		n;

	while (*a == ' ')
		a++;
	v = a + strspn(a, "0123456789");
	if (v > a)
	{
		while (*v == ' ')
			v++;
		if (*v == ',')
			a = v + 1;
		while (*a == ' ')
			a++;
	}
	n = strcspn(a, "(,");
	if (a[n] == '(')
	{
		n++;
		n += strspn(a + n, "0123456789.,+-eE ");
		if (a[n] != ')')
			return NULL;
		n++;
	}
	return n > 0 ? pnstrdup(a, n) : NULL;
}

/* Rows of DESCRIBE: name and type, by column order. */
typedef struct DescribeRows
{
	List	   *names;
	List	   *types;
	MemoryContext cxt;
} DescribeRows;

static void
describe_block(const ch_block *b, void *arg)
{
	DescribeRows *r = (DescribeRows *) arg;
	MemoryContext old = MemoryContextSwitchTo(r->cxt);
	uint64		i;

	if (b->ncols < 2)
		elog(ERROR, "unexpected column count %llu from DESCRIBE", (unsigned long long) b->ncols);
	for (i = 0; i < b->nrows; i++)
	{
		r->names = lappend(r->names, text_value(&b->cols[0], i));
		r->types = lappend(r->types, text_value(&b->cols[1], i));
	}
	MemoryContextSwitchTo(old);
}

/*
 * The types of finalizeAggregation(col) of the AggregateFunction columns
 * cols[i] (agg[i] set) of one table, as ClickHouse gives them (DESCRIBE of
 * a SELECT: no row is read). types[i] is set for those columns.
 */
static void
finalized_types(ChFdwConn *conn, const char *database, const ImportColumn *cols, int n,
				const bool *agg, char **types)
{
	StringInfoData sql;
	DescribeRows r;
	ListCell   *ln,
			   *lt;
	int			i;
	bool		first = true;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "DESCRIBE TABLE (SELECT ");
	for (i = 0; i < n; i++)
	{
		if (!agg[i])
			continue;
		if (!first)
			appendStringInfoString(&sql, ", ");
		first = false;
		appendStringInfoString(&sql, "finalizeAggregation(");
		chfdw_quote_identifier(&sql, cols[i].name);
		appendStringInfoString(&sql, ") AS ");
		chfdw_quote_identifier(&sql, cols[i].name);
	}
	appendStringInfoString(&sql, " FROM ");
	chfdw_quote_identifier(&sql, database);
	appendStringInfoChar(&sql, '.');
	chfdw_quote_identifier(&sql, cols[0].table);
	appendStringInfoString(&sql, ") FORMAT Native");
	memset(&r, 0, sizeof(r));
	r.cxt = CurrentMemoryContext;
	chfdw_run_query(conn, sql.data, "system", describe_block, &r);
	forboth(ln, r.names, lt, r.types)
		for (i = 0; i < n; i++)
			if (agg[i] && !types[i] && strcmp(cols[i].name, (char *) lfirst(ln)) == 0)
				types[i] = (char *) lfirst(lt);
}

/* WARNING for a column imported as text because its type has no mapping. */
static void
warn_unmapped(const char *database, const char *table, const ImportColumn *c,
			  const ch_type *t)
{
	const ch_type *leaf = t ? ch_type_unwrap(t) : NULL;

	if (leaf && leaf->kind == CH_T_AGGREGATE_FUNCTION)
	{
		char	   *fn = aggregate_name(leaf);
		StringInfoData col;

		initStringInfo(&col);
		chfdw_quote_identifier(&col, c->name);
		ereport(WARNING,
				(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
				 errmsg("column \"%s\" of ClickHouse table \"%s.%s\" has type %s, which has no PostgreSQL mapping; it is imported as text",
						c->name, database, table, c->type),
				 errdetail("An aggregate function state is an opaque intermediate value: reading the column fails, the other columns can be read."),
				 errhint("Import instead a ClickHouse view that finalizes the state with the -Merge combinator (%sMerge(%s) with GROUP BY) or with finalizeAggregation(%s).",
						 fn, col.data, col.data)));
	}
	else
		ereport(WARNING,
				(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
				 errmsg("column \"%s\" of ClickHouse table \"%s.%s\" has type %s, which has no PostgreSQL mapping; it is imported as text",
						c->name, database, table, c->type),
				 errdetail("Reading the column fails; the other columns can be read."),
				 errhint("Import a ClickHouse view that converts the column with toString() instead.")));
}

/*
 * CREATE FOREIGN TABLE for the columns cols[0..n-1] of one table. ar holds
 * the parsed types (reset by the caller).
 */
static char *
create_table_sql(ImportForeignSchemaStmt *stmt, const char *server,
				 const ImportOptions *o, const ImportColumn *cols, int n, ch_arena *ar,
				 bool json_ok, ChFdwConn *conn)
{
	const char *read_as;
	const char *database = stmt->remote_schema;
	const char *table = cols[0].table;
	StringInfoData sql;
	int			i;
	bool	   *agg = palloc0(sizeof(bool) * n);
	char	  **final = palloc0(sizeof(char *) * n);
	bool		any_agg = false;

	/*
	 * AggregateFunction columns: their finalized type, with the option
	 * aggregate (read as finalizeAggregation(col), merged by merge_state()).
	 */
	for (i = 0; i < n; i++)
	{
		ch_type    *t;
		ch_error	err;

		ch_error_clear(&err);
		if (ch_type_parse(cols[i].type, strlen(cols[i].type), ar, &t, &err) == CH_OK &&
			ch_type_unwrap(t)->kind == CH_T_AGGREGATE_FUNCTION &&
			aggregate_state_text(ch_type_unwrap(t)) != NULL)
			agg[i] = any_agg = true;
	}
	if (any_agg)
		finalized_types(conn, database, cols, n, agg, final);

	initStringInfo(&sql);
	appendStringInfo(&sql, "CREATE FOREIGN TABLE %s.%s (\n",
					 quote_identifier(stmt->local_schema), quote_identifier(table));
	for (i = 0; i < n; i++)
	{
		const ImportColumn *c = &cols[i];
		ch_type    *t = NULL;
		ch_error	err;
		char	   *pgtype = NULL;

		const char *aggregate = NULL;

		ch_error_clear(&err);
		if (ch_type_parse(c->type, strlen(c->type), ar, &t, &err) == CH_OK)
			pgtype = pg_type_text(t);
		else
			t = NULL;
		read_as = NULL;
		if (agg[i] && final[i])
		{
			ch_type    *ft;

			ch_error_clear(&err);
			if (ch_type_parse(final[i], strlen(final[i]), ar, &ft, &err) == CH_OK &&
				(pgtype = pg_type_text(ft)) != NULL)
				aggregate = aggregate_state_text(ch_type_unwrap(t));
		}
		/*
		 * FixedString(N) (also Nullable, LowCardinality): text with its
		 * zero padding removed (read_as 'fixedstring' keeps ClickHouse from
		 * comparing the padded value), unless the import asks for bytea.
		 */
		if (pgtype && !o->fixed_bytea && ch_type_unwrap(t)->kind == CH_T_FIXEDSTRING)
		{
			pgtype = "text";
			read_as = "fixedstring";
		}
		if (!pgtype && t && ch_type_unwrap(t)->kind != CH_T_AGGREGATE_FUNCTION)
		{
			/* no binary mapping: ClickHouse sends it as text (read_as) */
			ch_type_kind k = ch_type_unwrap(t)->kind;

			if (k == CH_T_JSON)
			{
				pgtype = "jsonb";
				read_as = "string";
			}
			else if ((k == CH_T_MAP || k == CH_T_TUPLE || k == CH_T_ARRAY || k == CH_T_NESTED) &&
					 json_ok)
			{
				pgtype = "jsonb";
				read_as = "json";
			}
			else
			{
				pgtype = "text";
				read_as = "string";
			}
		}
		if (!pgtype)
		{
			warn_unmapped(database, table, c, t);
			pgtype = "text";
		}
		appendStringInfo(&sql, "%s  %s %s", i > 0 ? ",\n" : "",
						 quote_identifier(c->name), pgtype);
		/* the name PostgreSQL keeps is the ClickHouse name unless truncated */
		if (strlen(c->name) >= NAMEDATALEN || read_as || aggregate)
		{
			appendStringInfoString(&sql, " OPTIONS (");
			if (strlen(c->name) >= NAMEDATALEN)
				appendStringInfo(&sql, "column_name %s%s", quote_literal_cstr(c->name),
								 read_as || aggregate ? ", " : "");
			if (read_as)
				appendStringInfo(&sql, "read_as '%s'", read_as);
			if (aggregate)
				appendStringInfo(&sql, "aggregate %s", quote_literal_cstr(aggregate));
			appendStringInfoChar(&sql, ')');
		}
		if (o->not_null && t && !type_is_nullable(t) && !aggregate)
			appendStringInfoString(&sql, " NOT NULL");
	}
	appendStringInfo(&sql, "\n) SERVER %s\nOPTIONS (database %s, table %s);",
					 quote_identifier(server), quote_literal_cstr(database),
					 quote_literal_cstr(table));
	return sql.data;
}

static bool
is_inner_table(const char *name)
{
	return strncmp(name, ".inner.", 7) == 0 || strncmp(name, ".inner_id.", 10) == 0;
}

/*
 * chfdwImportForeignSchema
 *		The CREATE FOREIGN TABLE commands for the tables of ClickHouse
 *		database stmt->remote_schema, sorted by table name.
 *
 * The commands and everything else are allocated in the current memory
 * context. An unknown database is an error (fdw_schema_not_found).
 */
List *
chfdwImportForeignSchema(ImportForeignSchemaStmt *stmt, Oid serverOid)
{
	ForeignServer *server = GetForeignServer(serverOid);
	UserMapping *user = GetUserMapping(GetUserId(), serverOid);
	ImportOptions o;
	ImportRows	r;
	ChFdwConn  *conn;
	char	   *sql;
	List	   *commands = NIL;
	ch_arena	ar;
	int			i;
	bool		json_ok;

	parse_import_options(stmt->options, &o);
	conn = chfdw_get_connection(user);
	/* toJSONString() exists on modern servers (not on 18.16) */
	json_ok = chfdw_caps(conn)->json_output;

	memset(&r, 0, sizeof(r));
	r.cxt = CurrentMemoryContext;
	r.with_position = server_has_position(conn);
	sql = metadata_sql(stmt, &o, r.with_position);
	chfdw_run_query(conn, sql, "system", columns_block, &r);
	if (r.nrows == 0 && !database_exists(conn, stmt->remote_schema))
		ereport(ERROR,
				(errcode(ERRCODE_FDW_SCHEMA_NOT_FOUND),
				 errmsg("ClickHouse database \"%s\" does not exist", stmt->remote_schema)));
	if (r.nrows > 1)
		qsort(r.rows, r.nrows, sizeof(ImportColumn), import_column_cmp);

	ch_arena_init(&ar, chfdw_allocator(CurrentMemoryContext));
	for (i = 0; i < r.nrows;)
	{
		int			n = 1;

		while (i + n < r.nrows && strcmp(r.rows[i + n].table, r.rows[i].table) == 0)
			n++;
		if (stmt->list_type == FDW_IMPORT_SCHEMA_LIMIT_TO || !is_inner_table(r.rows[i].table))
			commands = lappend(commands,
							   create_table_sql(stmt, server->servername, &o, &r.rows[i], n, &ar,
											 json_ok, conn));
		ch_arena_reset(&ar);
		i += n;
	}
	ch_arena_free(&ar);
	return commands;
}
