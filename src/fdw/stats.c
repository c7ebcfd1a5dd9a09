/*-------------------------------------------------------------------------
 * stats.c
 *	  The statistics view clickhouse_fdw_stats: per foreign server and host,
 *	  what the FDW sent to and received from ClickHouse and how long it
 *	  waited.
 *
 * Where the counters live: when the library is in shared_preload_libraries,
 * in shared memory (a fixed array of CHFDW_STATS_SLOTS entries, found under
 * one LWLock, counted with atomics), so the view shows every backend's
 * work since the server started or the last reset; otherwise in this
 * backend's memory, and the view shows this backend's work (column scope).
 * A connection caches its entry (ChFdwConn.stats), so counting is a few
 * atomic adds, no lookup. No password or user name is kept.
 *
 * src/fdw/stats.c
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"

#include "chfdw.h"

#define CHFDW_STATS_SLOTS 256		/* server x host pairs kept */
#define CHFDW_STATS_SQLSTATES 16	/* distinct SQLSTATEs counted per entry */

struct ChFdwStatsEntry
{
	Oid			serverid;		/* InvalidOid: free slot */
	char		server[NAMEDATALEN];
	char		host[CHFDW_STATS_HOST_LEN];
	pg_atomic_uint64 counters[CHFDW_STAT_NKINDS];
	pg_atomic_uint32 sqlstates[CHFDW_STATS_SQLSTATES];	/* 0: free */
	pg_atomic_uint64 errors_by_state[CHFDW_STATS_SQLSTATES];
	pg_atomic_uint64 errors_other;	/* SQLSTATEs beyond the slots */
};

typedef struct ChFdwStatsShared
{
	LWLock	   *lock;
	TimestampTz reset_at;
	ChFdwStatsEntry entries[CHFDW_STATS_SLOTS];
} ChFdwStatsShared;

static ChFdwStatsShared *stats = NULL;
static bool stats_shared = false;
static ChFdwStatsEntry *last_entry = NULL;	/* the one errors are charged to */
static shmem_request_hook_type prev_shmem_request_hook = NULL;
static shmem_startup_hook_type prev_shmem_startup_hook = NULL;

static void
init_entries(ChFdwStatsShared *s)
{
	memset(s->entries, 0, sizeof(s->entries));
	for (int i = 0; i < CHFDW_STATS_SLOTS; i++)
	{
		for (int k = 0; k < CHFDW_STAT_NKINDS; k++)
			pg_atomic_init_u64(&s->entries[i].counters[k], 0);
		for (int k = 0; k < CHFDW_STATS_SQLSTATES; k++)
		{
			pg_atomic_init_u32(&s->entries[i].sqlstates[k], 0);
			pg_atomic_init_u64(&s->entries[i].errors_by_state[k], 0);
		}
		pg_atomic_init_u64(&s->entries[i].errors_other, 0);
	}
	s->reset_at = GetCurrentTimestamp();
}

static void
stats_shmem_request(void)
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(MAXALIGN(sizeof(ChFdwStatsShared)));
	RequestNamedLWLockTranche("clickhouse_fdw", 1);
}

static void
stats_shmem_startup(void)
{
	bool		found;

	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	stats = ShmemInitStruct("clickhouse_fdw stats", sizeof(ChFdwStatsShared), &found);
	if (!found)
	{
		stats->lock = &(GetNamedLWLockTranche("clickhouse_fdw"))->lock;
		init_entries(stats);
	}
	LWLockRelease(AddinShmemInitLock);
	stats_shared = true;
}

/* From _PG_init: shared counters when preloaded, else per backend. */
void
chfdw_stats_init(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = stats_shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = stats_shmem_startup;
}

static ChFdwStatsShared *
get_stats(void)
{
	if (!stats)
	{
		stats = MemoryContextAllocZero(TopMemoryContext, sizeof(ChFdwStatsShared));
		init_entries(stats);
	}
	return stats;
}

/*
 * The entry of server x host, created on first use. NULL when every slot is
 * taken (then nothing is counted for it; the view says how many are kept).
 */
ChFdwStatsEntry *
chfdw_stats_entry(Oid serverid, const char *server, const char *host)
{
	ChFdwStatsShared *s = get_stats();
	ChFdwStatsEntry *found = NULL;

	if (stats_shared)
		LWLockAcquire(s->lock, LW_EXCLUSIVE);
	for (int i = 0; i < CHFDW_STATS_SLOTS && !found; i++)
	{
		ChFdwStatsEntry *e = &s->entries[i];

		if (e->serverid == serverid && strcmp(e->host, host) == 0)
			found = e;
		else if (e->serverid == InvalidOid)
		{
			e->serverid = serverid;
			strlcpy(e->server, server, sizeof(e->server));
			strlcpy(e->host, host, sizeof(e->host));
			found = e;
		}
	}
	if (stats_shared)
		LWLockRelease(s->lock);
	return found;
}

void
chfdw_stats_add(ChFdwStatsEntry *e, ChFdwStatKind kind, uint64 n)
{
	if (!e)
		return;
	pg_atomic_fetch_add_u64(&e->counters[kind], n);
	last_entry = e;
}

/* Time spent waiting on ClickHouse, charged to the entry last counted. */
void
chfdw_stats_wait(uint64 us)
{
	if (last_entry)
		pg_atomic_fetch_add_u64(&last_entry->counters[CHFDW_STAT_WAIT_US], us);
}

/* A remote error with this SQLSTATE, charged to the entry last counted. */
void
chfdw_stats_error(int sqlstate)
{
	ChFdwStatsEntry *e = last_entry;

	if (!e)
		return;
	for (int k = 0; k < CHFDW_STATS_SQLSTATES; k++)
	{
		uint32		cur = pg_atomic_read_u32(&e->sqlstates[k]);

		if (cur == 0)
		{
			uint32		expected = 0;

			if (!pg_atomic_compare_exchange_u32(&e->sqlstates[k], &expected, (uint32) sqlstate))
				cur = expected;
			else
				cur = (uint32) sqlstate;
		}
		if (cur == (uint32) sqlstate)
		{
			pg_atomic_fetch_add_u64(&e->errors_by_state[k], 1);
			return;
		}
	}
	pg_atomic_fetch_add_u64(&e->errors_other, 1);
}

PG_FUNCTION_INFO_V1(clickhouse_fdw_stats);
PG_FUNCTION_INFO_V1(clickhouse_fdw_stats_reset);

/*
 * clickhouse_fdw_stats(): one row per server x host with its counters,
 * the errors by SQLSTATE (jsonb) and the scope ("all backends" when
 * preloaded, else "this backend").
 */
Datum
clickhouse_fdw_stats(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	ChFdwStatsShared *s = get_stats();

	InitMaterializedSRF(fcinfo, 0);
	if (stats_shared)
		LWLockAcquire(s->lock, LW_SHARED);
	for (int i = 0; i < CHFDW_STATS_SLOTS; i++)
	{
		ChFdwStatsEntry *e = &s->entries[i];
		Datum		values[8 + CHFDW_STAT_NKINDS];
		bool		nulls[8 + CHFDW_STAT_NKINDS] = {0};
		StringInfoData errs;
		uint64		nerr = pg_atomic_read_u64(&e->errors_other);
		int			c = 0;

		if (e->serverid == InvalidOid)
			continue;
		initStringInfo(&errs);
		appendStringInfoChar(&errs, '{');
		for (int k = 0; k < CHFDW_STATS_SQLSTATES; k++)
		{
			uint32		st = pg_atomic_read_u32(&e->sqlstates[k]);
			uint64		n = pg_atomic_read_u64(&e->errors_by_state[k]);

			if (st == 0 || n == 0)
				continue;
			appendStringInfo(&errs, "%s\"%s\": " UINT64_FORMAT, errs.len > 1 ? ", " : "",
							 unpack_sql_state((int) st), n);
			nerr += n;
		}
		if (pg_atomic_read_u64(&e->errors_other) > 0)
			appendStringInfo(&errs, "%s\"other\": " UINT64_FORMAT, errs.len > 1 ? ", " : "",
							 pg_atomic_read_u64(&e->errors_other));
		appendStringInfoChar(&errs, '}');
		values[c++] = CStringGetTextDatum(e->server);
		values[c++] = CStringGetTextDatum(e->host);
		values[c++] = CStringGetTextDatum(stats_shared ? "all backends" : "this backend");
		for (int k = 0; k < CHFDW_STAT_NKINDS - 1; k++)
			values[c++] = Int64GetDatum((int64) pg_atomic_read_u64(&e->counters[k]));
		values[c++] = Float8GetDatum((double) pg_atomic_read_u64(&e->counters[CHFDW_STAT_WAIT_US]) / 1e6);
		values[c++] = Int64GetDatum((int64) nerr);
		values[c++] = DirectFunctionCall1(jsonb_in, CStringGetDatum(errs.data));
		values[c++] = TimestampTzGetDatum(s->reset_at);
		Assert(c <= lengthof(values));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	if (stats_shared)
		LWLockRelease(s->lock);
	return (Datum) 0;
}

/* clickhouse_fdw_stats_reset(): every counter back to 0 (entries stay). */
Datum
clickhouse_fdw_stats_reset(PG_FUNCTION_ARGS)
{
	ChFdwStatsShared *s = get_stats();

	if (stats_shared)
		LWLockAcquire(s->lock, LW_EXCLUSIVE);
	for (int i = 0; i < CHFDW_STATS_SLOTS; i++)
	{
		ChFdwStatsEntry *e = &s->entries[i];

		for (int k = 0; k < CHFDW_STAT_NKINDS; k++)
			pg_atomic_write_u64(&e->counters[k], 0);
		for (int k = 0; k < CHFDW_STATS_SQLSTATES; k++)
			pg_atomic_write_u64(&e->errors_by_state[k], 0);
		pg_atomic_write_u64(&e->errors_other, 0);
	}
	s->reset_at = GetCurrentTimestamp();
	if (stats_shared)
		LWLockRelease(s->lock);
	PG_RETURN_VOID();
}
