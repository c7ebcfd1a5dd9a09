/*-------------------------------------------------------------------------
 * remote.c
 *	  Small synchronous queries for metadata (system.columns, ...), read with
 *	  the same Native reader as scans: there is one reader, not a second
 *	  text parser.
 *
 * src/fdw/remote.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "access/xact.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "storage/proc.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/resowner.h"
#include "utils/syscache.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "chfdw.h"
#include "shippable.h"

/*
 * Run sql (a SELECT ... FORMAT Native) and call on_block for each non-empty
 * block, in order, pulled with the one result pump (connection.c). Errors
 * are raised.
 */
void
chfdw_run_query(ChFdwConn *conn, const char *sql, const char *database,
				chfdw_block_fn on_block, void *arg)
{
	chfdw_read_query(conn, chfdw_begin_query(conn, sql, database, 0, NULL, NULL), sql,
					 on_block, arg);
}

static char *
col_text(const ch_column *c, uint64 row)
{
	uint32		len;
	const uint8 *p;

	if (ch_type_unwrap(c->type)->kind != CH_T_STRING || c->type->kind != CH_T_STRING)
		elog(ERROR, "expected a String column from ClickHouse, got %s", c->type->name);
	p = ch_col_str(c, row, &len);
	return pnstrdup((const char *) p, len);
}

typedef struct ColumnsArg
{
	List	   *cols;
	MemoryContext cxt;
} ColumnsArg;

static void
columns_block(const ch_block *b, void *arg)
{
	ColumnsArg *a = (ColumnsArg *) arg;
	MemoryContext old = MemoryContextSwitchTo(a->cxt);
	uint64		r;

	if (b->ncols != 3)
		elog(ERROR, "unexpected column count %llu from system.columns",
			 (unsigned long long) b->ncols);
	for (r = 0; r < b->nrows; r++)
	{
		ChFdwRemoteColumn *c = palloc(sizeof(ChFdwRemoteColumn));

		c->name = col_text(&b->cols[0], r);
		c->type_name = col_text(&b->cols[1], r);
		c->default_kind = col_text(&b->cols[2], r);
		a->cols = lappend(a->cols, c);
	}
	MemoryContextSwitchTo(old);
}

/*
 * The columns of a ClickHouse table from system.columns, in table order.
 * An unknown table is an error (undefined_table) unless missing_ok.
 */
List *
chfdw_remote_columns(ChFdwConn *conn, const char *database, const char *table,
					 bool missing_ok)
{
	StringInfoData sql;
	ColumnsArg	a;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT name, type, default_kind FROM system.columns WHERE database = ");
	chfdw_quote_literal(&sql, database);
	appendStringInfoString(&sql, " AND table = ");
	chfdw_quote_literal(&sql, table);
	appendStringInfoString(&sql, " FORMAT Native");
	a.cols = NIL;
	a.cxt = CurrentMemoryContext;
	chfdw_run_query(conn, sql.data, database, columns_block, &a);
	if (a.cols == NIL && !missing_ok)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("ClickHouse table \"%s.%s\" does not exist or has no columns",
						database, table)));
	return a.cols;
}

/* chfdw_remote_columns_xact's cache: valid for one local transaction */
typedef struct CatalogEntry
{
	ChFdwConn  *conn;			/* the connection (server and user) */
	char	   *database;
	char	   *table;
	List	   *columns;		/* ChFdwRemoteColumn */
} CatalogEntry;

static MemoryContext catalog_cxt = NULL;
static LocalTransactionId catalog_lxid = InvalidLocalTransactionId;
static List *catalog_entries = NIL;

/*
 * chfdw_remote_columns (missing_ok), looked up once per transaction for a
 * connection and table: a query that needs the remote types (date columns
 * in shipped SQL, zones on 18.16) pays one metadata query per transaction,
 * not per scan or rescan. The list lives until the next transaction asks.
 */
List *
chfdw_remote_columns_xact(ChFdwConn *conn, const char *database, const char *table)
{
	ListCell   *lc;
	CatalogEntry *e;
	MemoryContext old;
	List	   *cols;

	if (!catalog_cxt)
		catalog_cxt = AllocSetContextCreate(TopMemoryContext, "clickhouse_fdw catalog",
											ALLOCSET_SMALL_SIZES);
	if (catalog_lxid != MyProc->lxid)
	{
		MemoryContextReset(catalog_cxt);
		catalog_entries = NIL;
		catalog_lxid = MyProc->lxid;
	}
	foreach(lc, catalog_entries)
	{
		e = (CatalogEntry *) lfirst(lc);
		if (e->conn == conn && strcmp(e->database, database) == 0 &&
			strcmp(e->table, table) == 0)
			return e->columns;
	}
	old = MemoryContextSwitchTo(catalog_cxt);
	cols = chfdw_remote_columns(conn, database, table, true);
	e = palloc(sizeof(CatalogEntry));
	e->conn = conn;
	e->database = pstrdup(database);
	e->table = pstrdup(table);
	e->columns = cols;
	catalog_entries = lappend(catalog_entries, e);
	MemoryContextSwitchTo(old);
	return cols;
}

typedef struct SizeArg
{
	bool		found;
	bool		merge_tree;
	double		rows;
} SizeArg;

static void
size_block(const ch_block *b, void *arg)
{
	SizeArg    *a = (SizeArg *) arg;
	char	   *engine;
	size_t		n;

	if (b->nrows == 0 || b->ncols != 2)
		return;
	engine = col_text(&b->cols[0], 0);
	n = strlen(engine);
	a->found = true;
	a->merge_tree = n >= 9 && strcmp(engine + n - 9, "MergeTree") == 0;
	{
		/* the server's text, parsed strictly: anything else is "unknown" */
		const char *t = col_text(&b->cols[1], 0);
		uint64		v;

		a->rows = ch_parse_uint(t, strlen(t), UINT64_MAX, &v) ? (double) v : -1;
	}
}

static void
count_block(const ch_block *b, void *arg)
{
	double	   *count = (double *) arg;

	if (b->nrows == 1 && b->ncols == 1 && b->cols[0].type->kind == CH_T_UINT64)
		*count = (double) ch_le64(b->cols[0].data);
}

/* count() of a table (MergeTree answers it from part metadata). */
double
chfdw_remote_count(ChFdwConn *conn, const char *database, const char *table)
{
	StringInfoData sql;
	double		count = -1;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT count() FROM ");
	chfdw_quote_identifier(&sql, database);
	appendStringInfoChar(&sql, '.');
	chfdw_quote_identifier(&sql, table);
	appendStringInfoString(&sql, " FORMAT Native");
	chfdw_run_query(conn, sql.data, database, count_block, &count);
	if (count < 0)
		ereport(ERROR,
				(errcode(ERRCODE_FDW_ERROR),
				 errmsg("unexpected answer to \"%s\"", sql.data)));
	pfree(sql.data);
	return count;
}

/*
 * The rows of a table: for the MergeTree family from the metadata of its
 * active parts (system.parts: no table data is read), for other engines
 * (Memory, Log, views, ...) their count(). -1 for an unknown table.
 */
double
chfdw_remote_table_rows(ChFdwConn *conn, const char *database, const char *table)
{
	StringInfoData sql;
	SizeArg		a = {false, false, 0};

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT engine, toString(ifNull((SELECT sum(rows) FROM system.parts"
						   " WHERE active AND database = ");
	chfdw_quote_literal(&sql, database);
	appendStringInfoString(&sql, " AND table = ");
	chfdw_quote_literal(&sql, table);
	appendStringInfoString(&sql, "), 0)) FROM system.tables WHERE database = ");
	chfdw_quote_literal(&sql, database);
	appendStringInfoString(&sql, " AND name = ");
	chfdw_quote_literal(&sql, table);
	appendStringInfoString(&sql, " FORMAT Native");
	chfdw_run_query(conn, sql.data, "system", size_block, &a);
	pfree(sql.data);
	if (!a.found)
		return -1;
	if (!a.merge_tree)
		return chfdw_remote_count(conn, database, table);
	return a.rows >= 0 ? a.rows : -1;
}

/*
 * The time zone of a DateTime/DateTime64 column (or of the DateTime inside
 * its arrays) as the catalog declares it: 18.16's HTTP answers drop it from
 * the block's type name. NULL when the column has none.
 */
const char *
chfdw_catalog_zone(List *catalog_columns, const char *remote_name)
{
	ListCell   *lc;

	foreach(lc, catalog_columns)
	{
		ChFdwRemoteColumn *c = (ChFdwRemoteColumn *) lfirst(lc);
		ch_arena	ar;
		ch_type    *t;
		ch_error	err;
		const char *zone = NULL;

		if (strcmp(c->name, remote_name) != 0)
			continue;
		ch_arena_init(&ar, NULL);
		ch_error_clear(&err);
		if (ch_type_parse(c->type_name, strlen(c->type_name), &ar, &t, &err) == CH_OK)
		{
			const ch_type *leaf = ch_type_unwrap(t);

			while (leaf->kind == CH_T_ARRAY)
				leaf = ch_type_unwrap(leaf->children[0]);
			if ((leaf->kind == CH_T_DATETIME || leaf->kind == CH_T_DATETIME64) && leaf->tz)
				zone = pstrdup(leaf->tz);
		}
		ch_arena_free(&ar);
		return zone;
	}
	return NULL;
}

/* The catalog's type of a column, parsed into ar; NULL when unknown. */
static const ch_type *
catalog_type(List *catalog_columns, const char *remote_name, ch_arena *ar)
{
	ListCell   *lc;

	foreach(lc, catalog_columns)
	{
		ChFdwRemoteColumn *c = (ChFdwRemoteColumn *) lfirst(lc);
		ch_type    *t;
		ch_error	err;

		if (strcmp(c->name, remote_name) != 0)
			continue;
		ch_error_clear(&err);
		if (ch_type_parse(c->type_name, strlen(c->type_name), ar, &t, &err) == CH_OK)
			return t;
		return NULL;
	}
	return NULL;
}

/*
 * (dates) value (NULL: the column) where cond, a format of the column
 * ("%s" or "%1$s"), is false or NULL, an error where it is true. ClickHouse raises it by
 * converting the FDW's marker string to a number for that row only
 * (CANNOT_PARSE_TEXT quoting it), which error.c reports as kind's
 * PostgreSQL-style error (chfdw_raise_marker), on 18.16 and current
 * servers alike; throwIf() gave ClickHouse's own text and SQLSTATE P0001.
 */
static void
append_range_guard(StringInfo buf, const char *ident, int len, const char *cond,
				   ChFdwRaise kind, const char *value)
{
	char	   *col = pnstrdup(ident, len);
	const char *v = value ? value : col;

	appendStringInfoString(buf, "if(toInt8(multiIf(ifNull(");
	appendStringInfo(buf, cond, col);
	appendStringInfo(buf, ", 0), '%s', '0')) = 0, %s, %s)", chfdw_raise_marker(kind), v, v);
}

/*
 * (dates) The first instant from which 18.16's date parts of a DateTime in
 * zone are right, 0 when they are right from the epoch on: its table of
 * days begins with 1970-01-01 in the zone, so in a zone west of UTC the
 * instants of local 1969 are wrong (toHour(toDateTime(0),
 * 'America/New_York') is 11 there, toYear 1970), and in a zone whose
 * offset is no whole number of hours so are the minutes of its first local
 * day (toMinute(toDateTime(0), 'Asia/Kolkata') is 198). The zone's offset
 * at the epoch is PostgreSQL's.
 */
static int64
first_right_instant(const char *zone)
{
	Timestamp	epoch = SetEpochTimestamp();
	int64		offset;

	offset = (DatumGetTimestamp(DirectFunctionCall2(timestamptz_zone, CStringGetTextDatum(zone),
													TimestampTzGetDatum(epoch))) - epoch) /
		USECS_PER_SEC;
	if (offset < 0)
		return -offset;
	if (offset % SECS_PER_HOUR != 0)
		return SECS_PER_DAY - offset % SECS_PER_DAY;
	return 0;
}

static void
not_a_datetime(Oid relid, long attnum)
{
	ereport(ERROR,
			(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
			 errmsg("column \"%s\" is not a Date, DateTime or DateTime64 in ClickHouse",
					chfdw_column_name(relid, (AttrNumber) attnum)),
			 errdetail("Date parts of a timestamp column are computed by ClickHouse in the DateTime's zone."),
			 errhint("Declare the column with the type IMPORT FOREIGN SCHEMA gives it.")));
}

/*
 * (dates) A fraction marker (chfdw_deparse_fraction_column): the
 * microseconds below the second of the value PostgreSQL reads. A
 * DateTime64(7..9) comes here as its rounded DateTime64(6) (dt64.c's
 * chfdw_dt64_bind).
 */
static void
append_fraction(StringInfo buf, const char *ident, int len, const ch_type *t, Oid relid,
				long attnum)
{
	char	   *col = pnstrdup(ident, len);

	if (!t || (t->kind != CH_T_DATETIME && t->kind != CH_T_DATETIME64 &&
			   t->kind != CH_T_DATE && t->kind != CH_T_DATE32))
		not_a_datetime(relid, attnum);
	Assert(t->kind != CH_T_DATETIME64 || t->scale <= 6);
	if (t->kind != CH_T_DATETIME64)
		appendStringInfoString(buf, "toInt64(0)");
	else
		appendStringInfo(buf, "toInt64(modulo(modulo(toUnixTimestamp64Micro(%s), 1000000) + 1000000, 1000000))",
						 col);
}

/*
 * The SQL with its date column markers (chfdw_deparse_date_column)
 * resolved by the columns' types in catalog_columns (system.columns of the
 * table of relid): a Date or Date32 stays the column; a DateTime becomes
 * toDate(col, 'zone') and a DateTime64 toDate32(col, 'zone') (toDate when
 * the server has no Date32), with the column's zone or UTC: the date that
 * reading the column as date yields (README, Types).
 */
char *
chfdw_bind_date_columns(const char *sql, Oid relid, ChFdwConn *conn, List *catalog_columns)
{
	StringInfoData buf;
	const char *p = sql;

	initStringInfo(&buf);
	while (*p)
	{
		const char *m = strchr(p, '\x02');
		const char *ident;
		const char *end;
		char	   *colon;
		long		attnum;
		ch_arena	ar;
		const ch_type *t;
		bool		zoned;
		bool		guard_only;
		bool		fraction;
		const char *epoch = NULL;	/* (dates18) src and spec */
		int			epoch_len = 0;

		if (!m)
		{
			appendStringInfoString(&buf, p);
			break;
		}
		appendBinaryStringInfo(&buf, p, m - p);
		attnum = strtol(m + 1, &colon, 10);
		/*
		 * "z": a timestamp column and its zone, "g": a timestamptz column
		 * with the guard alone (chfdw_deparse_zoned_column)
		 */
		zoned = *colon == 'z' || *colon == 'g';
		guard_only = *colon == 'g';
		fraction = *colon == 'u';
		if (zoned || fraction)
			colon++;
		else if (*colon == 'e' && strchr(colon, ':'))
		{
			/* (dates18) "e" src spec: a date part (chfdw_epoch_marker) */
			epoch = colon + 1;
			colon = strchr(colon, ':');
			epoch_len = colon - epoch;
		}
		if (*colon != ':' || attnum <= 0 || !(end = strchr(colon + 1, '\x02')))
			elog(ERROR, "malformed date column marker in remote SQL");
		ident = colon + 1;
		ch_arena_init(&ar, NULL);
		t = catalog_type(catalog_columns, chfdw_column_name(relid, (AttrNumber) attnum), &ar);
		t = t ? ch_type_unwrap(t) : NULL;
		p = end + 1;
		if (!epoch)				/* (dt64) a DateTime64(7..9) as its rounded DateTime64(6) */
			(void) chfdw_dt64_bind(&t, &ident, &end);
		if (epoch)
			chfdw_bind_epoch(&buf, epoch, epoch_len, ident, end, t, relid, (AttrNumber) attnum,
							 conn, catalog_columns);
		else if (fraction)
			append_fraction(&buf, ident, end - ident, t, relid, attnum);
		else if (guard_only && !(t && t->kind == CH_T_DATETIME))
			appendBinaryStringInfo(&buf, ident, end - ident);
		else if (zoned && t && (t->kind == CH_T_DATE || t->kind == CH_T_DATE32))
		{
			/*
			 * A Date read as timestamp is its midnight: its parts are those
			 * of that midnight in UTC, as a DateTime64 (1900..2299) where
			 * the server has Date32, else a DateTime, raising from
			 * 2106-02-05 (day 49708) on, where it would wrap or 18.16's
			 * table of days ends.
			 */
			if (chfdw_caps(conn)->date32)
			{
				appendStringInfoString(&buf, "toDateTime64(");
				appendBinaryStringInfo(&buf, ident, end - ident);
				appendStringInfoString(&buf, ", 0, 'UTC')");
			}
			else
			{
				append_range_guard(&buf, ident, end - ident, "toUInt16(%s) >= 49708",
								   CHFDW_RAISE_TS_PARTS,
								   psprintf("toDateTime(%s, 'UTC')", pnstrdup(ident, end - ident)));
			}
			if (!guard_only)
				appendStringInfoString(&buf, ", 'UTC'");
		}
		else if (zoned)
		{
			if (!t || (t->kind != CH_T_DATETIME && t->kind != CH_T_DATETIME64))
			{
				ch_arena_free(&ar);
				ereport(ERROR,
						(errcode(ERRCODE_FDW_INVALID_DATA_TYPE),
						 errmsg("column \"%s\" is not a Date, DateTime or DateTime64 in ClickHouse",
								chfdw_column_name(relid, (AttrNumber) attnum)),
						 errdetail("Date parts of a timestamp column are computed by ClickHouse in the DateTime's zone."),
						 errhint("Declare the column with the type IMPORT FOREIGN SCHEMA gives it.")));
			}
			/*
			 * Servers before Date32 (18.16) compute date parts from a table
			 * of days that ends inside 2106-02-06 (UTC; earlier in zones
			 * west of it): toYear() of 2106-02-07 06:28:15 is 1970 there.
			 * The last two days of DateTime's range raise instead (22008,
			 * append_range_guard), so no wrong part is returned.
			 */
			if (t->kind == CH_T_DATETIME && !chfdw_caps(conn)->date32 &&
				!guard_only && first_right_instant(t->tz ? t->tz : "UTC") > 0)
			{
				/* (dates) and where its table of days begins */
				StringInfoData inner;

				initStringInfo(&inner);
				append_range_guard(&inner, ident, end - ident, "toUInt32(%s) >= 4294771200",
								   CHFDW_RAISE_TS_PARTS, NULL);
				append_range_guard(&buf, ident, end - ident,
								   psprintf("toUInt32(%%s) < " INT64_FORMAT,
											first_right_instant(t->tz ? t->tz : "UTC")),
								   CHFDW_RAISE_TS_FIRST_DAY, inner.data);
			}
			else if (t->kind == CH_T_DATETIME && !chfdw_caps(conn)->date32)
				append_range_guard(&buf, ident, end - ident, "toUInt32(%s) >= 4294771200",
								   CHFDW_RAISE_TS_PARTS, NULL);
			else if (t->kind == CH_T_DATETIME64 && t->tz && strcmp(t->tz, "UTC") != 0 &&
					 !guard_only)
			{
				/*
				 * DateTime64 spans 1900-01-01 .. 2299-12-31 in UTC, and the
				 * date parts only those wall times: in another zone the
				 * first and last day's may fall outside (26.5 says quarter
				 * 4 of 2299 for 2300-01-01 05:29 in Asia/Kolkata). Those
				 * days raise.
				 */
				append_range_guard(&buf, ident, end - ident,
								   "%1$s < toDateTime64('1900-01-02 00:00:00', 0, 'UTC') OR "
								   "%1$s >= toDateTime64('2299-12-31 00:00:00', 0, 'UTC')",
								   CHFDW_RAISE_TS_ZONE_ENDS, NULL);
			}
			else
				appendBinaryStringInfo(&buf, ident, end - ident);
			if (!guard_only)
			{
				appendStringInfoString(&buf, ", ");
				chfdw_quote_literal(&buf, t->tz ? t->tz : "UTC");
			}
		}
		else if (t && (t->kind == CH_T_DATETIME || t->kind == CH_T_DATETIME64))
		{
			bool		date32 = t->kind == CH_T_DATETIME64 &&
				chfdw_caps(conn)->date32;

			appendStringInfoString(&buf, date32 ? "toDate32(" : "toDate(");
			appendBinaryStringInfo(&buf, ident, end - ident);
			appendStringInfoString(&buf, ", ");
			chfdw_quote_literal(&buf, t->tz ? t->tz : "UTC");
			appendStringInfoChar(&buf, ')');
		}
		else
			appendBinaryStringInfo(&buf, ident, end - ident);
		ch_arena_free(&ar);
	}
	return buf.data;
}

static void
flag_block(const ch_block *b, void *arg)
{
	int		   *flag = (int *) arg;

	if (b->nrows >= 1 && b->ncols == 1)
		*flag = strcmp(col_text(&b->cols[0], 0), "1") == 0 ? 1 : 0;
}

/*
 * Whether ClickHouse drops a block sent again with the same
 * insert_deduplication_token into this table: the Replicated*MergeTree
 * engines, and a MergeTree whose non_replicated_deduplication_window is
 * above 0 (its own setting, else the server's default from
 * system.merge_tree_settings). Only such a table may get a block whose
 * answer was lost a second time. False for an unknown table.
 */
bool
chfdw_table_deduplicates(ChFdwConn *conn, const char *database, const char *table)
{
	StringInfoData sql;
	int			flag = 0;

	initStringInfo(&sql);
	appendStringInfoString(&sql,
						   "SELECT toString(ifNull(toUInt8(engine LIKE 'Replicated%MergeTree' OR "
						   "(engine LIKE '%MergeTree' AND if(match(create_table_query, "
						   "'non_replicated_deduplication_window'), "
						   "toUInt64OrZero(extract(create_table_query, "
						   "'non_replicated_deduplication_window\\\\s*=\\\\s*(\\\\d+)')), "
						   "(SELECT toUInt64OrZero(any(value)) FROM system.merge_tree_settings "
						   "WHERE name = 'non_replicated_deduplication_window')) > 0)), 0)) "
						   "FROM system.tables WHERE database = ");
	chfdw_quote_literal(&sql, database);
	appendStringInfoString(&sql, " AND name = ");
	chfdw_quote_literal(&sql, table);
	appendStringInfoString(&sql, " FORMAT Native");
	chfdw_run_query(conn, sql.data, NULL, flag_block, &flag);
	pfree(sql.data);
	return flag == 1;
}

/*
 * ---- do a column's remote and declared types compute alike? ----
 *
 * A column declared with another type than ClickHouse's is read exactly
 * (the converters check every value), but what is sent about it is computed
 * with ClickHouse's type: a Float64 declared numeric is grouped, compared,
 * sorted and summed as a float there (-0 and 0 are two groups; NaN compares
 * unordered; sums round), and an integer or Decimal declared double precision
 * is computed exactly where PostgreSQL rounds. So a numeric, integer or float
 * column is used in a sent expression only where the ClickHouse column is of
 * the same family: Int/UInt/Decimal for integer and numeric columns, Float for
 * float columns (chfdw_is_our_var, shippable.c). A numeric(p, s) column
 * whose ClickHouse values have more fractional digits than s is read
 * through numeric_in with its typmod, which rounds them (1.54 and 1.50 of a
 * Decimal(18, 2) are both 1.5 in a numeric(10, 1)): it does not agree either,
 * or ClickHouse would compare, group and join the unrounded values.
 *
 * The remote types come from system.columns once per table per session (the
 * planner asks only for such columns in expressions), and again after the
 * foreign table's or its server's definition changes (relcache and syscache
 * invalidation). A table system.columns does not describe (a view of another
 * kind, a table function) counts as agreeing: its columns are as declared.
 * So does a table whose server cannot be asked now (EXPLAIN with the server
 * down plans as before; the scan itself then fails): the lookup runs in a
 * subtransaction whose error is dropped, except a cancel, and is tried again
 * in the next transaction.
 */
typedef struct TypeAgreement
{
	Oid			relid;			/* hash key */
	int			natts;
	char	   *agrees;			/* per attnum - 1: 1 agrees, 0 does not */
	char	   *json_exact;		/* per attnum - 1: a read_as 'json' column
								 * whose type ClickHouse's JSON functions
								 * read as jsonb does (jsonb.c) */
	char	   *str_kind;		/* (casts) per attnum - 1: 's' a String, 'f' a
								 * FixedString (Nullable, LowCardinality),
								 * 0 another type or unknown */
	int32	   *num_type;		/* (numagg) per attnum - 1: a numeric
								 * column's ClickHouse type under Nullable,
								 * kind | precision << 8 | scale << 16 (see
								 * chfdw_column_numeric_type); 0 unknown */
	char	   *lowcard;		/* (lcfix) per attnum - 1: 1 a LowCardinality
								 * column (lowcard.c), 0 another type or
								 * unknown */
	bool		known;			/* false: the lookup failed (every column
								 * agrees) in transaction lxid; tried again
								 * in the next one */
	LocalTransactionId lxid;
} TypeAgreement;

static HTAB *agreement_hash = NULL;

static void
agreement_inval_rel(Datum arg, Oid relid)
{
	HASH_SEQ_STATUS seq;
	TypeAgreement *e;

	if (!agreement_hash)
		return;
	if (OidIsValid(relid))
	{
		e = hash_search(agreement_hash, &relid, HASH_FIND, NULL);
		if (e && e->agrees)
			pfree(e->agrees);
		if (e && e->json_exact)
			pfree(e->json_exact);
		if (e && e->str_kind)
			pfree(e->str_kind);
		if (e && e->num_type)	/* (numagg) */
			pfree(e->num_type);
		if (e && e->lowcard)	/* (lcfix) */
			pfree(e->lowcard);
		hash_search(agreement_hash, &relid, HASH_REMOVE, NULL);
		return;
	}
	hash_seq_init(&seq, agreement_hash);
	while ((e = hash_seq_search(&seq)) != NULL)
	{
		if (e->agrees)
			pfree(e->agrees);
		if (e->json_exact)
			pfree(e->json_exact);
		if (e->str_kind)
			pfree(e->str_kind);
		if (e->num_type)		/* (numagg) */
			pfree(e->num_type);
		if (e->lowcard)			/* (lcfix) */
			pfree(e->lowcard);
		hash_search(agreement_hash, &e->relid, HASH_REMOVE, NULL);
	}
}

static void
agreement_inval_syscache(Datum arg, int cacheid, uint32 hashvalue)
{
	agreement_inval_rel(arg, InvalidOid);
}

/* the family of a ClickHouse type: 'i' exact number, 'f' float, 0 other (or unknown) */
static char
remote_family(const ch_type *t)
{
	ch_type_kind k;

	if (!t)
		return 0;
	k = ch_type_unwrap(t)->kind;
	if (ch_type_kind_is_int(k) || k == CH_T_DECIMAL)
		return 'i';
	return ch_type_kind_is_float(k) ? 'f' : 0;
}

/* The fractional digits of an Int/UInt/Decimal type's values (0 for integers). */
static int
remote_scale(const ch_type *t)
{
	t = ch_type_unwrap(t);
	return t->kind == CH_T_DECIMAL ? t->scale : 0;
}

/*
 * The scale of a numeric(p, s) typmod: PostgreSQL 15 packs a scale of -1000
 * to 1000 in its low 11 bits, sign-extended (make_numeric_typmod in
 * src/backend/utils/adt/numeric.c).
 */
static int
numeric_typmod_scale(int32 typmod)
{
	return ((((typmod - VARHDRSZ) & 0x7ff) ^ 1024) - 1024);
}

/*
 * chfdw_try_remote
 *		Run fn(arg), which asks ClickHouse something at plan time, in a
 *		subtransaction: false if it raised (the server down, the database
 *		missing: the error is dropped), except a cancel or a termination,
 *		which go on. The caller keeps out of parallel mode if it may be
 *		there (no subtransactions in it).
 */
bool
chfdw_try_remote(void (*fn) (void *arg), void *arg)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	volatile bool ok = false;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		fn(arg);
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
		ok = true;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED ||
			edata->sqlerrcode == ERRCODE_ADMIN_SHUTDOWN ||
			edata->elevel >= FATAL)
			ReThrowError(edata);
		FreeErrorData(edata);
	}
	PG_END_TRY();
	return ok;
}

typedef struct ColumnsAsk
{
	UserMapping *user;
	const char *database;
	const char *table;
	List	   *cols;
} ColumnsAsk;

static void
ask_columns(void *arg)
{
	ColumnsAsk *a = (ColumnsAsk *) arg;

	a->cols = chfdw_remote_columns(chfdw_get_connection(a->user), a->database, a->table, true);
}

/*
 * system.columns of database.table (chfdw_try_remote): a failure (the
 * server down, the database missing) is dropped and *known set false.
 */
static List *
lookup_columns(UserMapping *user, const char *database, const char *table, bool *known)
{
	ColumnsAsk	a = {user, database, table, NIL};

	*known = chfdw_try_remote(ask_columns, &a);
	return *known ? a.cols : NIL;
}

static TypeAgreement *
agreement_entry(Oid relid, Oid userid)
{
	TypeAgreement *e;
	bool		found;
	Relation	rel;
	TupleDesc	desc;
	const char *database;
	const char *table;
	List	   *cols;
	bool		known;
	int			i;
	char	   *json_exact;
	char	   *str_kind;
	int32	   *num_type;
	char	   *lowcard;

	if (!agreement_hash)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(TypeAgreement);
		agreement_hash = hash_create("clickhouse_fdw type agreement", 16, &ctl,
									 HASH_ELEM | HASH_BLOBS);
		CacheRegisterRelcacheCallback(agreement_inval_rel, (Datum) 0);
		CacheRegisterSyscacheCallback(FOREIGNSERVEROID, agreement_inval_syscache, (Datum) 0);
		CacheRegisterSyscacheCallback(FOREIGNTABLEREL, agreement_inval_syscache, (Datum) 0);
	}
	e = hash_search(agreement_hash, &relid, HASH_FIND, NULL);
	if (e && (e->known || e->lxid == MyProc->lxid))
		return e;

	rel = table_open(relid, AccessShareLock);
	chfdw_get_table_names(rel, &database, &table);
	cols = lookup_columns(GetUserMapping(userid, GetForeignTable(relid)->serverid),
						  database, table, &known);
	desc = RelationGetDescr(rel);
	/* read_as 'json' columns whose type the jsonb operators are sent on (jsonb.c) */
	json_exact = palloc0(Max(desc->natts, 1));
	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		ch_arena	ar;

		if (att->attisdropped || chfdw_column_read_as(relid, att->attnum) != 'j')
			continue;
		ch_arena_init(&ar, NULL);
		json_exact[i] = chfdw_jsonb_type_exact(catalog_type(cols,
															chfdw_column_name(relid, att->attnum),
															&ar));
		ch_arena_free(&ar);
	}
	/*
	 * (casts) the string columns whose text casts are sent
	 * (pushdown_casts.c); (lcfix) the LowCardinality columns (lowcard.c)
	 */
	str_kind = palloc0(Max(desc->natts, 1));
	lowcard = palloc0(Max(desc->natts, 1));
	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		ch_arena	ar;
		const ch_type *t;

		if (att->attisdropped)
			continue;
		ch_arena_init(&ar, NULL);
		t = catalog_type(cols, chfdw_column_name(relid, att->attnum), &ar);
		if (t && ch_type_unwrap(t)->kind == CH_T_STRING)
			str_kind[i] = 's';
		else if (t && ch_type_unwrap(t)->kind == CH_T_FIXEDSTRING)
			str_kind[i] = 'f';
		lowcard[i] = t && t->kind == CH_T_LOWCARDINALITY;
		ch_arena_free(&ar);
	}
	/* (numagg) numeric columns' Decimal or integer types (agg_numeric.c) */
	num_type = palloc0(sizeof(int32) * Max(desc->natts, 1));
	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		ch_arena	ar;
		const ch_type *t;

		if (att->attisdropped || (att->atttypid != NUMERICOID && att->atttypid != TIMESTAMPTZOID &&
								  att->atttypid != TIMESTAMPOID))
			continue;
		ch_arena_init(&ar, NULL);
		t = catalog_type(cols, chfdw_column_name(relid, att->attnum), &ar);
		if (t && t->kind == CH_T_NULLABLE)
			t = t->children[0];
		/* (dates5) a timestamptz column's Date, Date32 or DateTime64 (and its precision) */
		if (t && att->atttypid == TIMESTAMPTZOID)
			num_type[i] = t->kind == CH_T_DATETIME64 || t->kind == CH_T_DATE ||
				t->kind == CH_T_DATE32 ? (int32) t->kind | (t->scale << 16) : 0;
		/*
		 * (tskey) a timestamp column's DateTime, DateTime64, Date or
		 * Date32; "precision" 1 when its zone is UTC or it names none
		 */
		else if (t && att->atttypid == TIMESTAMPOID)
			num_type[i] = t->kind == CH_T_DATETIME || t->kind == CH_T_DATETIME64 ||
				t->kind == CH_T_DATE || t->kind == CH_T_DATE32 ?
				(int32) t->kind | ((!t->tz || strcmp(t->tz, "UTC") == 0) ? 1 << 8 : 0) |
				(t->scale << 16) : 0;
		else if (t && att->atttypid == NUMERICOID &&
				 (t->kind == CH_T_DECIMAL || ch_type_kind_is_int(t->kind)))
			num_type[i] = (int32) t->kind | (t->kind == CH_T_DECIMAL ?
											 (t->precision << 8) | (t->scale << 16) : 0);
		ch_arena_free(&ar);
	}

	/*
	 * No ereport from here on: the entry is complete once entered. (Found
	 * again: an invalidation during the lookup may have removed it.)
	 */
	e = hash_search(agreement_hash, &relid, HASH_ENTER, &found);
	if (!found)
	{
		e->agrees = NULL;
		e->json_exact = NULL;
		e->str_kind = NULL;
		e->num_type = NULL;
		e->lowcard = NULL;
	}
	e->natts = desc->natts;
	e->known = known;
	e->lxid = MyProc->lxid;
	if (e->agrees)
		pfree(e->agrees);
	e->agrees = MemoryContextAlloc(TopMemoryContext, Max(desc->natts, 1));
	if (e->json_exact)
		pfree(e->json_exact);
	e->json_exact = MemoryContextAlloc(TopMemoryContext, Max(desc->natts, 1));
	memcpy(e->json_exact, json_exact, Max(desc->natts, 1));
	if (e->str_kind)
		pfree(e->str_kind);
	e->str_kind = MemoryContextAlloc(TopMemoryContext, Max(desc->natts, 1));
	memcpy(e->str_kind, str_kind, Max(desc->natts, 1));
	if (e->num_type)			/* (numagg) */
		pfree(e->num_type);
	e->num_type = MemoryContextAlloc(TopMemoryContext, sizeof(int32) * Max(desc->natts, 1));
	memcpy(e->num_type, num_type, sizeof(int32) * Max(desc->natts, 1));
	if (e->lowcard)				/* (lcfix) */
		pfree(e->lowcard);
	e->lowcard = MemoryContextAlloc(TopMemoryContext, Max(desc->natts, 1));
	memcpy(e->lowcard, lowcard, Max(desc->natts, 1));
	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		TypeClass	tc = chfdw_type_class(att->atttypid);
		char		want = tc == TC_FLOAT ? 'f' : (tc == TC_INT || tc == TC_NUMERIC) ? 'i' : 0;
		ch_arena	ar;
		const ch_type *t;

		e->agrees[i] = 1;
		if (!want || att->attisdropped)
			continue;
		/* the catalog's type text, parsed as every block header's is */
		ch_arena_init(&ar, NULL);
		t = catalog_type(cols, chfdw_column_name(relid, att->attnum), &ar);
		if (t && remote_family(t) != want)
			e->agrees[i] = 0;
		else if (t && att->atttypid == NUMERICOID && att->atttypmod >= 0 &&
				 remote_scale(t) > numeric_typmod_scale(att->atttypmod))
			e->agrees[i] = 0;	/* the read rounds to the declared scale */
		ch_arena_free(&ar);
	}
	table_close(rel, AccessShareLock);
	return e;
}

/*
 * chfdw_column_computes_as_declared
 *		May column attnum of foreign table relid be used in an expression sent
 *		to ClickHouse (see above)? userid: whose user mapping reaches the
 *		server, as for the scan.
 */
bool
chfdw_column_computes_as_declared(Oid relid, AttrNumber attnum, Oid atttype, Oid userid)
{
	TypeClass	tc = chfdw_type_class(atttype);
	TypeAgreement *e;

	if (tc != TC_FLOAT && tc != TC_INT && tc != TC_NUMERIC)
		return true;
	e = agreement_entry(relid, OidIsValid(userid) ? userid : GetUserId());
	return attnum < 1 || attnum > e->natts || e->agrees[attnum - 1];
}

/*
 * chfdw_column_json_exact
 *		Is column attnum of foreign table relid (read_as 'json') of a
 *		ClickHouse type whose toJSONString() text ClickHouse's JSON functions
 *		read as jsonb does (chfdw_jsonb_type_exact)? Unknown (the catalog
 *		not reachable): no.
 */
bool
chfdw_column_json_exact(Oid relid, AttrNumber attnum, Oid userid)
{
	TypeAgreement *e = agreement_entry(relid, OidIsValid(userid) ? userid : GetUserId());

	return attnum >= 1 && attnum <= e->natts && e->json_exact && e->json_exact[attnum - 1];
}

/*
 * chfdw_column_string_kind
 *		(casts) Is column attnum of foreign table relid a ClickHouse String
 *		('s') or FixedString ('f'), under Nullable and LowCardinality? 0:
 *		another type, or the catalog not reachable.
 */
char
chfdw_column_string_kind(Oid relid, AttrNumber attnum, Oid userid)
{
	TypeAgreement *e = agreement_entry(relid, OidIsValid(userid) ? userid : GetUserId());

	return (attnum >= 1 && attnum <= e->natts && e->str_kind) ? e->str_kind[attnum - 1] : 0;
}

/*
 * chfdw_column_low_cardinality
 *		(lcfix) Is column attnum of foreign table relid a ClickHouse
 *		LowCardinality column? false: another type, or the catalog not
 *		reachable.
 */
bool
chfdw_column_low_cardinality(Oid relid, AttrNumber attnum, Oid userid)
{
	TypeAgreement *e = agreement_entry(relid, OidIsValid(userid) ? userid : GetUserId());

	return attnum >= 1 && attnum <= e->natts && e->lowcard && e->lowcard[attnum - 1];
}

/*
 * chfdw_column_numeric_type
 *		(numagg) The ClickHouse type of numeric column attnum of foreign
 *		table relid, under Nullable: a Decimal (its kind, precision and
 *		scale) or an integer kind (precision and scale 0). false: another
 *		type, or the catalog not reachable (agg_numeric.c then keeps its
 *		aggregates local).
 */
bool
chfdw_column_numeric_type(Oid relid, AttrNumber attnum, Oid userid, int *kind,
						  int *precision, int *scale)
{
	TypeAgreement *e = agreement_entry(relid, OidIsValid(userid) ? userid : GetUserId());
	int32		v;

	if (attnum < 1 || attnum > e->natts || !e->num_type || !e->known)
		return false;
	v = e->num_type[attnum - 1];
	if (v == 0)
		return false;
	*kind = v & 0xff;
	*precision = (v >> 8) & 0xff;
	*scale = (v >> 16) & 0xff;
	return true;
}

/*
 * A key join's key condition in remote SQL (keyjoin.c): the equality
 * " = <marker of run-time value idx>)" written by shippable.c's
 * deparse_marker, as a plain operand's marker or (numparam) an integer
 * column's equality "Ze"; where it starts and (*len) its length, NULL if
 * it is not there exactly once.
 */
const char *
chfdw_find_key_marker(const char *sql, long idx, int *len)
{
	char		spelling[2][48];
	const char *found = NULL;
	int			i;

	snprintf(spelling[0], sizeof(spelling[0]), " = \x01%ldc\x01)", idx);
	snprintf(spelling[1], sizeof(spelling[1]), " = \x01%ldcZe\x01)", idx);
	for (i = 0; i < 2; i++)
	{
		const char *at = strstr(sql, spelling[i]);

		if (!at)
			continue;
		if (found || strstr(at + 1, spelling[i]))
			return NULL;
		found = at;
		*len = strlen(spelling[i]);
	}
	return found;
}

/*
 * (subq4) The run-time value marker at m ("\x01" n ["c" ["i"]] "\x01", written by
 * shippable.c's deparse_marker): its number, and whether it is a
 * comparison's operand; the byte after it.
 */
const char *
chfdw_parse_value_marker(const char *m, long *idx, bool *operand)
{
	char	   *end;

	*idx = strtol(m + 1, &end, 10);
	*operand = (*end == 'c');
	if (*operand)
		end++;
	/* (tsfast) "i": an Int64 operand, whose NULL is typed (shippable.c) */
	if (*operand && *end == 'i')
		end++;
	/* (dates5) "t" L|U p: a DateTime64(p) column's bound (pushdown_dates5.c) */
	else if (*operand && *end == 't' && (end[1] == 'L' || end[1] == 'U') && end[2] >= '7' && end[2] <= '9')
		end += 3;
	/* (numparam) "Z" op: a numeric value against an integer column (numconst.c) */
	else if (*operand && *end == 'Z' && end[1] && strchr("enlLgG", end[1]))
		end += 2;
	if (end == m + 1 || *end != '\x01' || *idx < 0)
		elog(ERROR, "malformed run-time value marker in remote SQL");
	return end + 1;
}
