/*-------------------------------------------------------------------------
 * parallel.c
 *	  Parallel foreign scans: a scan of a MergeTree table split into ranges
 *	  of its first primary-key column, each read by whichever participant
 *	  (the leader or a worker) claims it next.
 *
 * Where the option parallel_workers (table, else server; 0, off, by default)
 * asks for workers, GetForeignPaths adds a partial path for a plain scan of
 * the table (its WHERE sent; no ORDER BY, LIMIT, aggregate or join sent,
 * which are other paths) when the table has a usable split column: the first
 * column of its primary key (system.tables.primary_key), of an integer, Date
 * or DateTime type, not Nullable.
 *
 * When the Gather starts, the leader asks ClickHouse once for quantiles of
 * that column over the whole table and writes up to PAR_MAX_RANGES - 1
 * ascending, distinct bounds b1 < b2 < ... into dynamic shared memory; the
 * ranges are (-inf, b1), [b1, b2), ..., [bn, +inf). Every value falls in
 * exactly one of them whatever the bounds are, so rows are neither missed
 * nor read twice even if parts merge or move between the participants'
 * queries (ranges of values, never of parts). A participant claims the next
 * range with an atomic counter and runs the planned SQL with
 * "AND (key >= bi AND key < bi+1)" added to its WHERE; when that result
 * ends, it claims the next, until none is left. FINAL tables split the same
 * way: the versions of a row share its sorting key, so its first column.
 *
 * Without a parallel context (the Gather ran without workers) the leader
 * reads the whole table in one query. Rescans reset the counter
 * (ReInitializeDSMForeignScan); the bounds stay.
 *
 * src/fdw/parallel.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/parallel.h"
#include "access/table.h"
#include "commands/explain.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "port/atomics.h"
#include "storage/proc.h"
#include "utils/memutils.h"

#include "chfdw.h"

#define PAR_MAX_RANGES 64
#define PAR_RANGES_PER_PARTICIPANT 4
#define PAR_BOUND_LEN 24		/* an int64 or uint64 in decimal, a sign, NUL */
#define PAR_EXPR_LEN 256		/* the split expression: toUInt32(`name`) */

/* What the participants share (in the DSM segment, set up by the leader). */
typedef struct ChFdwParallelShared
{
	pg_atomic_uint32 next;		/* the next range to claim */
	int			nranges;		/* 1..PAR_MAX_RANGES (1: the whole table) */
	char		expr[PAR_EXPR_LEN]; /* the split expression */
	char		bounds[PAR_MAX_RANGES - 1][PAR_BOUND_LEN];	/* nranges - 1 of them */
} ChFdwParallelShared;

/* A participant's side of a parallel scan. */
struct ChFdwParallelScan
{
	ChFdwConn  *conn;
	const char *database;
	const char *table;
	const char *sql;			/* as planned, ending in " FORMAT Native" */
	bool		has_where;		/* the planned SQL has a WHERE */
	ChFdwParallelShared *shared;	/* NULL: no parallel context */
	bool		solo_claimed;	/* without one: the whole table was claimed */
	int			nranges;		/* for EXPLAIN: the ranges (0: no parallel
								 * context), copied as the shared memory goes
								 * when the Gather ends */
	int			claimed;		/* ranges this participant read */
};

/* The split column of a table: the expression ranges are taken of. */
typedef struct SplitKey
{
	bool		usable;
	bool		is_unsigned;
	char		expr[PAR_EXPR_LEN];
} SplitKey;

/* ---- the split column, from ClickHouse's catalog (cached per transaction) ---- */

typedef struct KeyCacheEntry
{
	ChFdwConn  *conn;
	char	   *database;
	char	   *table;
	SplitKey	key;
} KeyCacheEntry;

static MemoryContext key_cxt = NULL;
static LocalTransactionId key_lxid = InvalidLocalTransactionId;
static List *key_entries = NIL;

typedef struct KeyArg
{
	char	   *name;
	char	   *type;
} KeyArg;

static char *
string_cell(const ch_column *c, uint64 row)
{
	uint32		len;
	const uint8 *p;

	if (c->type->kind != CH_T_STRING)
		elog(ERROR, "expected a String column from ClickHouse, got %s", c->type->name);
	p = ch_col_str(c, row, &len);
	return pnstrdup((const char *) p, len);
}

static void
key_block(const ch_block *b, void *arg)
{
	KeyArg	   *a = (KeyArg *) arg;

	if (b->ncols != 2)
		elog(ERROR, "unexpected column count %llu from system.columns",
			 (unsigned long long) b->ncols);
	if (b->nrows > 0 && !a->name)
	{
		a->name = string_cell(&b->cols[0], 0);
		a->type = string_cell(&b->cols[1], 0);
	}
}

/*
 * The split expression for a column of ClickHouse type type: the column
 * itself for integers, its number for Date (days) and DateTime (seconds;
 * monotonic, so ClickHouse still uses its primary index). Nullable,
 * LowCardinality and every other type: none.
 */
static void
key_from_type(SplitKey *k, const char *name, const char *type)
{
	static const char *const ints[] = {"Int8", "Int16", "Int32", "Int64",
	"UInt8", "UInt16", "UInt32", "UInt64"};
	StringInfoData q;
	const char *fn = NULL;
	int			i;

	k->usable = false;
	for (i = 0; i < lengthof(ints); i++)
		if (strcmp(type, ints[i]) == 0)
		{
			k->usable = true;
			k->is_unsigned = type[0] == 'U';
		}
	if (!k->usable && strcmp(type, "Date") == 0)
		fn = "toUInt16";
	else if (!k->usable && (strcmp(type, "DateTime") == 0 || strncmp(type, "DateTime('", 10) == 0))
		fn = "toUInt32";
	if (fn)
	{
		k->usable = true;
		k->is_unsigned = true;
	}
	if (!k->usable)
		return;
	initStringInfo(&q);
	if (fn)
		appendStringInfo(&q, "%s(", fn);
	chfdw_quote_identifier(&q, name);
	if (fn)
		appendStringInfoChar(&q, ')');
	if (q.len >= PAR_EXPR_LEN)
		k->usable = false;
	else
		strlcpy(k->expr, q.data, PAR_EXPR_LEN);
	pfree(q.data);
}

/*
 * The split column of database.table: the first element of a MergeTree
 * table's primary key when that is a plain column (one small catalog query,
 * once per transaction and table).
 */
static SplitKey
split_key(ChFdwConn *conn, const char *database, const char *table)
{
	ListCell   *lc;
	KeyCacheEntry *e;
	MemoryContext old;
	StringInfoData sql;
	KeyArg		a = {NULL, NULL};

	if (!key_cxt)
		key_cxt = AllocSetContextCreate(TopMemoryContext, "clickhouse_fdw split keys",
										ALLOCSET_SMALL_SIZES);
	if (key_lxid != MyProc->lxid)
	{
		MemoryContextReset(key_cxt);
		key_entries = NIL;
		key_lxid = MyProc->lxid;
	}
	foreach(lc, key_entries)
	{
		e = (KeyCacheEntry *) lfirst(lc);
		if (e->conn == conn && strcmp(e->database, database) == 0 &&
			strcmp(e->table, table) == 0)
			return e->key;
	}

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT name, type FROM system.columns WHERE database = ");
	chfdw_quote_literal(&sql, database);
	appendStringInfoString(&sql, " AND table = ");
	chfdw_quote_literal(&sql, table);
	appendStringInfoString(&sql, " AND name = (SELECT splitByString(', ', primary_key)[1] FROM system.tables WHERE database = ");
	chfdw_quote_literal(&sql, database);
	appendStringInfoString(&sql, " AND name = ");
	chfdw_quote_literal(&sql, table);
	appendStringInfoString(&sql, " AND engine LIKE '%MergeTree' LIMIT 1) FORMAT Native");
	chfdw_run_query(conn, sql.data, database, key_block, &a);

	old = MemoryContextSwitchTo(key_cxt);
	e = palloc0(sizeof(KeyCacheEntry));
	e->conn = conn;
	e->database = pstrdup(database);
	e->table = pstrdup(table);
	if (a.name)
		key_from_type(&e->key, a.name, a.type);
	key_entries = lappend(key_entries, e);
	MemoryContextSwitchTo(old);
	return e->key;
}

/* For split_key_try: a plan-time question through chfdw_try_remote. */
typedef struct SplitAsk
{
	UserMapping *user;
	const char *database;
	const char *table;
	SplitKey	key;
} SplitAsk;

static void
split_ask(void *arg)
{
	SplitAsk   *a = (SplitAsk *) arg;

	a->key = split_key(chfdw_get_connection(a->user), a->database, a->table);
}

/*
 * The split column at plan time: none (a serial plan) when the server
 * cannot be asked (down, the user mapping refused), as the other plan-time
 * questions (remote.c's chfdw_try_remote); the scan then reports the error.
 */
static SplitKey
split_key_try(UserMapping *user, const char *database, const char *table)
{
	SplitAsk	a;

	a.user = user;
	a.database = database;
	a.table = table;
	memset(&a.key, 0, sizeof(a.key));
	if (IsInParallelMode() || !chfdw_try_remote(split_ask, &a))
		a.key.usable = false;
	return a.key;
}

/* ---- planning ---- */

/*
 * The share of a scan's rows one participant handles: as PostgreSQL's own
 * parallel scans count it (costsize.c, get_parallel_divisor), the leader
 * taking less as it also collects the workers' rows.
 */
static double
parallel_divisor(int workers)
{
	double		d = workers;

	if (parallel_leader_participation)
	{
		double		leader = 1.0 - 0.3 * workers;

		if (leader > 0)
			d += leader;
	}
	return d;
}

bool
chfdwIsForeignScanParallelSafe(PlannerInfo *root, RelOptInfo *rel, RangeTblEntry *rte)
{
	/* only where asked for: a worker opens its own connection */
	return chfdw_parallel_workers(rte->relid) > 0;
}

/*
 * The partial path of a plain scan of baserel (see the file header), its
 * cost the serial one's with the rows' share divided among the
 * participants. Connects (once per transaction) to find the split column;
 * no partial path when the server cannot be asked.
 */
void
chfdw_add_partial_path(PlannerInfo *root, RelOptInfo *baserel, Oid relid,
					   Cost startup, Cost total)
{
	int			workers;
	double		divisor;
	ForeignPath *path;
	ForeignTable *ft;
	Relation	rel;
	const char *database;
	const char *table;
	SplitKey	key;

	if (!baserel->consider_parallel || !bms_is_empty(baserel->lateral_relids))
		return;
	workers = Min(chfdw_parallel_workers(relid), max_parallel_workers_per_gather);
	if (workers <= 0)
		return;
	ft = GetForeignTable(relid);
	rel = table_open(relid, NoLock);
	chfdw_get_table_names(rel, &database, &table);
	key = split_key_try(GetUserMapping(OidIsValid(baserel->userid) ?
									   baserel->userid : GetUserId(),
									   ft->serverid),
						database, table);
	table_close(rel, NoLock);
	if (!key.usable)
		return;
	divisor = parallel_divisor(workers);
	path = create_foreignscan_path(root, baserel, NULL,
								   clamp_row_est(baserel->rows / divisor),
								   startup, startup + (total - startup) / divisor,
								   NIL, NULL, NULL, NIL);
	path->path.parallel_aware = true;
	path->path.parallel_safe = true;
	path->path.parallel_workers = workers;
	add_partial_path(baserel, (Path *) path);
}

/* ---- execution ---- */

/*
 * A participant's parallel state for the planned SQL (BeginForeignScan of a
 * parallel-aware plan); has_where: the SQL has a WHERE of its own.
 */
ChFdwParallelScan *
chfdw_parallel_begin(ChFdwConn *conn, const char *database, const char *table,
					 const char *sql, bool has_where)
{
	ChFdwParallelScan *ps = palloc0(sizeof(ChFdwParallelScan));

	ps->conn = conn;
	ps->database = database;
	ps->table = table;
	ps->sql = sql;
	ps->has_where = has_where;
	return ps;
}

Size
chfdwEstimateDSMForeignScan(ForeignScanState *node, ParallelContext *pcxt)
{
	return sizeof(ChFdwParallelShared);
}

typedef struct BoundsArg
{
	double	   *q;
	int			n;
	int			max;
} BoundsArg;

static void
bounds_block(const ch_block *b, void *arg)
{
	BoundsArg  *a = (BoundsArg *) arg;
	uint64		r;

	if (b->ncols != 1 || b->cols[0].type->kind != CH_T_FLOAT64)
		elog(ERROR, "unexpected quantiles from ClickHouse");
	for (r = 0; r < b->nrows && a->n < a->max; r++)
	{
		double		v;

		memcpy(&v, ch_col_fixed(&b->cols[0], r), sizeof(v));
		a->q[a->n++] = v;
	}
}

/* a quantile (a double) as an integer bound of the key's type, clamped */
static int128
bound_of(double v, bool is_unsigned)
{
	v = floor(v);
	if (is_unsigned)
	{
		if (v <= 0)
			return 0;
		if (v >= 18446744073709551615.0)
			return (int128) PG_UINT64_MAX;
		return (int128) (uint64) v;
	}
	if (v <= -9223372036854775808.0)
		return (int128) PG_INT64_MIN;
	if (v >= 9223372036854775807.0)
		return (int128) PG_INT64_MAX;
	return (int128) (int64) v;
}

static int
cmp_int128(const void *a, const void *b)
{
	int128		x = *(const int128 *) a;
	int128		y = *(const int128 *) b;

	return x < y ? -1 : x > y ? 1 : 0;
}

/*
 * The leader, as the Gather starts: the split column, the quantiles of its
 * values (PAR_RANGES_PER_PARTICIPANT ranges per participant, so that one
 * slow range does not hold the others up), the bounds into shared memory.
 */
void
chfdwInitializeDSMForeignScan(ForeignScanState *node, ParallelContext *pcxt, void *coordinate)
{
	ChFdwParallelShared *sh = (ChFdwParallelShared *) coordinate;
	ChFdwParallelScan *ps = chfdw_scan_parallel(node);
	SplitKey	key;
	int			want,
				n,
				i,
				nb = 0;
	double	   *q;
	int128	   *b;
	BoundsArg	a;
	StringInfoData sql;

	memset(sh, 0, sizeof(*sh));
	pg_atomic_init_u32(&sh->next, 0);
	sh->nranges = 1;
	if (!ps)
		return;
	ps->shared = sh;
	key = split_key(ps->conn, ps->database, ps->table);
	want = Min(PAR_MAX_RANGES, PAR_RANGES_PER_PARTICIPANT * (pcxt->nworkers + 1));
	if (!key.usable || want < 2)
		return;

	/* quantiles 1/want .. (want-1)/want of the split column, as Float64 (bounds need not be exact) */
	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT arrayJoin(quantiles(");
	for (i = 1; i < want; i++)
		appendStringInfo(&sql, "%s%.6f", i > 1 ? ", " : "", (double) i / want);
	appendStringInfo(&sql, ")(toFloat64(%s))) FROM ", key.expr);
	chfdw_quote_identifier(&sql, ps->database);
	appendStringInfoChar(&sql, '.');
	chfdw_quote_identifier(&sql, ps->table);
	appendStringInfoString(&sql, " FORMAT Native");
	q = palloc(sizeof(double) * want);
	a.q = q;
	a.n = 0;
	a.max = want - 1;
	chfdw_run_query(ps->conn, sql.data, ps->database, bounds_block, &a);

	/* ascending, distinct integer bounds (an empty table gives NaNs: none) */
	b = palloc(sizeof(int128) * Max(a.n, 1));
	for (i = 0; i < a.n; i++)
		if (!isnan(q[i]))
			b[nb++] = bound_of(q[i], key.is_unsigned);
	if (nb > 1)
		qsort(b, nb, sizeof(int128), cmp_int128);
	n = 0;
	for (i = 0; i < nb; i++)
		if (n == 0 || b[i] != b[n - 1])
			b[n++] = b[i];
	for (i = 0; i < n; i++)
	{
		if (b[i] < 0)
			snprintf(sh->bounds[i], PAR_BOUND_LEN, INT64_FORMAT, (int64) b[i]);
		else
			snprintf(sh->bounds[i], PAR_BOUND_LEN, UINT64_FORMAT, (uint64) b[i]);
	}
	strlcpy(sh->expr, key.expr, PAR_EXPR_LEN);
	sh->nranges = n + 1;
}

void
chfdwReInitializeDSMForeignScan(ForeignScanState *node, ParallelContext *pcxt,
								void *coordinate)
{
	ChFdwParallelShared *sh = (ChFdwParallelShared *) coordinate;

	pg_atomic_write_u32(&sh->next, 0);
}

void
chfdwInitializeWorkerForeignScan(ForeignScanState *node, shm_toc *toc, void *coordinate)
{
	ChFdwParallelScan *ps = chfdw_scan_parallel(node);

	if (ps)
		ps->shared = (ChFdwParallelShared *) coordinate;
}

/* A rescan of the participant's own scan: without shared state, read it all again. */
void
chfdw_parallel_rescan(ChFdwParallelScan *ps)
{
	ps->solo_claimed = false;
	ps->claimed = 0;
}

/*
 * The SQL of the next range this participant reads (allocated in cxt), or
 * NULL when every range has been claimed.
 */
char *
chfdw_parallel_next_sql(ChFdwParallelScan *ps, MemoryContext cxt)
{
	ChFdwParallelShared *sh = ps->shared;
	const char *tail = " FORMAT Native";
	size_t		len = strlen(ps->sql);
	size_t		tlen = strlen(tail);
	uint32		r;
	StringInfoData buf;
	MemoryContext old;

	if (!sh)
	{
		if (ps->solo_claimed)
			return NULL;
		ps->solo_claimed = true;
		return MemoryContextStrdup(cxt, ps->sql);
	}
	ps->nranges = sh->nranges;
	r = pg_atomic_fetch_add_u32(&sh->next, 1);
	if (r >= (uint32) sh->nranges)
		return NULL;
	ps->claimed++;
	if (sh->nranges == 1)
		return MemoryContextStrdup(cxt, ps->sql);
	if (len <= tlen || strcmp(ps->sql + len - tlen, tail) != 0)
		elog(ERROR, "unexpected remote SQL for a parallel scan: %s", ps->sql);

	old = MemoryContextSwitchTo(cxt);
	initStringInfo(&buf);
	appendBinaryStringInfo(&buf, ps->sql, (int) (len - tlen));
	appendStringInfoString(&buf, ps->has_where ? " AND (" : " WHERE (");
	if (r > 0)
		appendStringInfo(&buf, "%s >= %s", sh->expr, sh->bounds[r - 1]);
	if (r > 0 && r < (uint32) sh->nranges - 1)
		appendStringInfoString(&buf, " AND ");
	if (r < (uint32) sh->nranges - 1)
		appendStringInfo(&buf, "%s < %s", sh->expr, sh->bounds[r]);
	appendStringInfo(&buf, ")%s", tail);
	MemoryContextSwitchTo(old);
	return buf.data;
}

/* For EXPLAIN ANALYZE: the ranges of the scan, and how many this participant read. */
void
chfdw_parallel_explain(ChFdwParallelScan *ps, ExplainState *es)
{
	if (ps->nranges == 0)
		return;
	ExplainPropertyInteger("Ranges", NULL, ps->nranges, es);
	ExplainPropertyInteger("Ranges Read by the Leader", NULL, ps->claimed, es);
}
